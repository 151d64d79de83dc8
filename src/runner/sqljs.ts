import { inflateSync } from "fflate";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import sqlWasmDeflated from "sql.js/dist/sql-wasm.wasm";

/**
 * Decodes base64 straight into bytes. (Going through a module namespace instead — what esbuild's
 * `__toESM` does to a dynamically imported binary module — copies the bytes through a getter
 * per index and froze the first run for a second.)
 */
export function decodeBase64(text: string): Uint8Array {
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

let sqlJs: Promise<SqlJsStatic> | null = null;
let wasmBytes: Uint8Array | null = null;

/**
 * sql.js's WebAssembly as bytes, decoded once, on first use: the build embeds them raw-deflated
 * and as base64 (esbuild.config.mjs, `deflated-wasm`: half the size in main.js). The plugin hands
 * a copy to its SQLite worker, which compiles it there (src/ui/db/worker-driver.ts).
 */
export function sqlWasmBytes(): Uint8Array {
	wasmBytes ??= inflateSync(decodeBase64(sqlWasmDeflated));
	return wasmBytes;
}

/**
 * sql.js with its embedded WebAssembly, decoded and instantiated once, on first use (never
 * during plugin start-up). The compile runs asynchronously. A failure is not kept: the next
 * call tries again.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
	sqlJs ??= initSqlJs({ wasmBinary: sqlWasmBytes().buffer as ArrayBuffer }).catch((e: unknown) => {
		sqlJs = null;
		throw e;
	});
	return sqlJs;
}
