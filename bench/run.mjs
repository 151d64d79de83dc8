// Runs a benchmark written in TypeScript: bundles bench/<name>/index.ts with esbuild and runs it in Node.
// Usage: node bench/run.mjs <name> [args...]   (names: the folders of bench/)
import esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";

const [name, ...args] = process.argv.slice(2);
const names = readdirSync(new URL(".", import.meta.url), { withFileTypes: true })
	.filter((d) => d.isDirectory() && !d.name.startsWith(".") && existsSync(new URL(`./${d.name}/index.ts`, import.meta.url)))
	.map((d) => d.name);
if (!name || !names.includes(name)) {
	console.error(`usage: node bench/run.mjs <${names.join("|")}> [args...]`);
	process.exit(2);
}
const outfile = `bench/.cache/${name}.cjs`;
/** Benchmarks run in Node, as the CLI does: sql.js's WebAssembly is read from node_modules (src/cli/sql-wasm-file.ts), not the plugin's deflated copy. */
const nodeSqlWasm = {
	name: "node-sql-wasm",
	setup(build) {
		build.onResolve({ filter: /^\.\/sql-wasm$/ }, (a) => (a.importer.endsWith("src/runner/sqljs.ts") ? { path: new URL("../src/cli/sql-wasm-file.ts", import.meta.url).pathname } : undefined));
	},
};
await esbuild.build({
	entryPoints: [`bench/${name}/index.ts`],
	outfile,
	bundle: true,
	platform: "node",
	format: "cjs",
	target: "node18",
	loader: { ".wasm": "base64" },
	external: [...builtinModules, "playwright-core", "esbuild"],
	plugins: [nodeSqlWasm],
	logLevel: "error",
});
const r = spawnSync(process.execPath, ["--expose-gc", outfile, ...args], { stdio: "inherit" });
process.exit(r.status ?? 1);
