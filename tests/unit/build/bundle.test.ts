/**
 * The shipped main.js as Obsidian desktop loads it: a CommonJS function given a `require`
 * that knows only `obsidian`, `electron`, Node's builtins and the CodeMirror/Lezer packages
 * of the sample plugin's external list. `import()` is left to Chromium's loader there and
 * cannot load any of them, so the bundle must contain none (docs/architecture.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { Script } from "node:vm";
import { inflateRawSync } from "node:zlib";
import { allTextModules, coreCode, eagerBytes, eagerCode, textModulesOf } from "../../support/text-modules";

const MAIN = join(__dirname, "..", "..", "..", "main.js");
const PROVIDED = new Set([
	"obsidian",
	"electron",
	...["autocomplete", "collab", "commands", "language", "lint", "search", "state", "view"].map((m) => `@codemirror/${m}`),
	...["common", "highlight", "lr"].map((m) => `@lezer/${m}`),
	...builtinModules,
	...builtinModules.map((m) => `node:${m}`),
]);

/**
 * The start budget's size: what Obsidian compiles when it starts the plugin, and what the one task
 * that starts the core compiles once the workspace is ready (docs/architecture.md, "Start").
 */
const EAGER_LIMIT = 300 * 1024;
/** main.ts alone: a processor per fence, and the core's carrier. */
const START_LIMIT = 16 * 1024;

function bundle(): string {
	if (!existsSync(MAIN)) throw new Error("main.js is missing: run `npm run build` (npm test does it first)");
	return readFileSync(MAIN, "utf8");
}

describe("production bundle (main.js)", () => {
	it("contains no import()", () => {
		const hits = [...bundle().matchAll(/.{0,40}\bimport\(.{0,40}/g)].map((m) => m[0]);
		expect(hits).toEqual([]);
	});

	it("requires only what Obsidian's require provides", () => {
		// esbuild prints every require it leaves with double quotes; `require('x')` in single quotes is
		// text inside a string (mysql2's error messages name require('mysql2/promise') and require('bluebird')).
		// The text modules' own requires are answered by their tables in main.js (src/ui/text-module.ts).
		const names = new Set([eagerCode(bundle()), eagerCode(coreCode(bundle()))].flatMap((code) => [...code.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1])));
		expect(names.size).toBeGreaterThan(0);
		expect([...names].filter((n) => !PROVIDED.has(n))).toEqual([]);
	});

	it("embeds sql.js's WebAssembly once, raw-deflated as one base64 string, and no plain copy", () => {
		// Inside its text module: `module.exports = "…"`, the inner quotes escaped or not by the outer literal.
		const long = [...bundle().matchAll(/\\?"([A-Za-z0-9+/]{100000,}={0,2})\\?"/g)].map((m) => m[1]);
		expect(long).toHaveLength(1);
		const wasm = readFileSync(join(__dirname, "..", "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm"));
		expect(inflateRawSync(Buffer.from(long[0], "base64")).equals(wasm)).toBe(true);
		// "AGFzbQ" is base64 of the wasm magic "\0asm": a plain base64 copy would start with it.
		expect(bundle().match(/"AGFzbQ/g) ?? []).toEqual([]);
	});

	it("carries the heavy parts as text modules, compiled on first use", () => {
		const ids = allTextModules(bundle()).map((m) => m.id);
		for (const heavy of ["sql.js", "sql.js/dist/sql-wasm.wasm", "worker:./sqlite-worker", "pg", "mysql2/promise", "tough-cookie", "@codemirror/merge", "@codemirror/lang-sql"]) expect(ids).toContain(heavy);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it("keeps only the MySQL error names the plugin compares or shows most, not mysql2's whole table", () => {
		const names = new Set(bundle().match(/\bER_[A-Z0-9_]+/g) ?? []);
		for (const kept of ["ER_ACCESS_DENIED_ERROR", "ER_PARSE_ERROR", "ER_NO_SUCH_TABLE", "ER_DUP_ENTRY", "ER_READ_ONLY_MODE"]) expect(names).toContain(kept);
		expect(names.has("ER_INNODB_INSTANT_ADD_NOT_SUPPORTED_MAX_FIELDS")).toBe(false);
		// mysql2's table names about 2,000; the plugin keeps about 50.
		expect(names.size).toBeLessThan(100);
	});

	it(`compiles main.ts alone at start, within ${START_LIMIT / 1024} KiB, and carries the core as its one text module`, () => {
		const code = bundle();
		expect(textModulesOf(code).map((m) => m.id)).toEqual(["src/ui/plugin-core.ts"]);
		const eager = eagerBytes(code);
		if (eager > START_LIMIT) throw new Error(`${(eager / 1024).toFixed(1)} KiB of main.js is compiled at start (limit ${START_LIMIT / 1024} KiB): main.ts registers the processors and requires the core, nothing more`);
	});

	it(`keeps the part the core's start compiles within ${EAGER_LIMIT / 1024} KiB`, () => {
		const core = coreCode(bundle());
		const eager = eagerBytes(core);
		// A measure of the bundle, not a figure to trust: most of the core is text modules.
		expect(eager).toBeLessThan(Buffer.byteLength(core) / 2);
		if (eager > EAGER_LIMIT) {
			throw new Error(`${(eager / 1024).toFixed(1)} KiB of the core is compiled when it starts (limit ${EAGER_LIMIT / 1024} KiB): require the new heavy code inside a function and list it in TEXT_MODULES (esbuild.config.mjs)`);
		}
	});

	it("gives back every text module's code exactly: each evaluates to its own exports", () => {
		for (const { id, text } of allTextModules(bundle())) {
			expect(text.startsWith(`/*! text module ${id} */\n`)).toBe(true);
			// It compiles: an escape the reader did not take back would be a syntax error here.
			expect(() => new Script(`(function (module, exports, require) {${text}\n})`, { filename: id })).not.toThrow();
		}
	});
});
