import { inflateSync } from "fflate";
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

/**
 * sql.js's WebAssembly as the plugin gets it: embedded raw-deflated and as base64 by the build
 * (esbuild.config.mjs, `deflated-wasm`: half the size in main.js). The CLI's build puts
 * src/cli/sql-wasm-file.ts in this module's place: it reads the file from node_modules instead
 * of every CLI start reading and compiling 450 KB of base64 it rarely uses.
 */
export function sqlWasmBinary(): Uint8Array {
	return inflateSync(decodeBase64(sqlWasmDeflated));
}
