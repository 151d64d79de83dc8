import type InitSqlJs from "sql.js";
import type { SqlJsStatic } from "sql.js";
import { sqlWasmBinary } from "./sql-wasm";

let sqlJs: Promise<SqlJsStatic> | null = null;
let wasmBytes: Promise<Uint8Array> | null = null;

/**
 * sql.js's WebAssembly as bytes, decoded once, on first use (src/runner/sql-wasm.ts). The plugin
 * hands a copy to its SQLite worker, which compiles it there (src/runner/db/worker-driver.ts). A
 * failure is not kept.
 */
export function sqlWasmBytes(): Promise<Uint8Array> {
	wasmBytes ??= sqlWasmBinary().catch((e: unknown) => {
		wasmBytes = null;
		throw e;
	});
	return wasmBytes;
}

/** sql.js's loader, required on first use: a CLI run that never opens sql.js does not load it. */
function initSqlJs(): typeof InitSqlJs {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above; bundled into main.js, required from node_modules by the CLI
	return require("sql.js") as typeof InitSqlJs;
}

/**
 * sql.js with its embedded WebAssembly, decoded and instantiated once, on first use (never
 * during plugin start-up). The compile runs asynchronously. A failure is not kept: the next
 * call tries again.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
	sqlJs ??= sqlWasmBytes().then((bytes) => initSqlJs()({ wasmBinary: bytes.buffer as ArrayBuffer })).catch((e: unknown) => {
		sqlJs = null;
		throw e;
	});
	return sqlJs;
}
