import { decodeBase64, inflateRaw, type WasmSource } from "./wasm-decode";

/** The embedded text, required on first use: main.js carries it as a text module (docs/architecture.md, "Text modules"). */
function embeddedWasm(): string {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("sql.js/dist/sql-wasm.wasm") as string;
}

/**
 * sql.js's WebAssembly as the plugin gets it: embedded raw-deflated and as base64 by the build
 * (esbuild.config.mjs, `deflated-wasm`: half the size in main.js). The CLI's build puts
 * src/cli/sql-wasm-file.ts in this module's place: it reads the file from node_modules instead
 * of every CLI start reading and compiling 450 KB of base64 it rarely uses.
 */
export function sqlWasmBinary(): Promise<Uint8Array> {
	return inflateRaw(decodeBase64(embeddedWasm()));
}

/**
 * What a SQLite worker is handed: the embedded text as it is, decoded in the worker. Decoding
 * it here held the main thread 75–200 ms on runtimes without `Uint8Array.fromBase64`.
 */
export function sqlWasmForWorker(): Promise<WasmSource> {
	return Promise.resolve({ deflatedBase64: embeddedWasm() });
}
