// Writes the README screenshots into docs/images/ (npm run screenshots, after npm run build).
// Deterministic: fixed port, Playwright's fake clock, answers released at fixed fake times.
// Tests never write there. Bundles scripts/screenshots.ts with esbuild and runs it in Node.
import esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { builtinModules } from "node:module";

// Inside the repository (ignored), so the bundle finds node_modules and the repository root.
const outfile = "node_modules/.cache/runnable-blocks/screenshots.cjs";
await esbuild.build({
	entryPoints: ["scripts/screenshots.ts"],
	outfile,
	bundle: true,
	platform: "node",
	format: "cjs",
	target: "node18",
	external: [...builtinModules, "playwright-core", "esbuild"],
	logLevel: "error",
});
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 1);
