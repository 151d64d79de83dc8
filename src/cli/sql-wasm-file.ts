import { readFile } from "node:fs/promises";
import type { WasmSource } from "../runner/wasm-decode";

/**
 * The CLI's stand-in for src/runner/sql-wasm.ts (esbuild.config.mjs, `cli-sql-wasm`): sql.js's
 * WebAssembly read from the installed package when a run first needs sql.js, instead of
 * embedded in dist/cli.js, where every start read and compiled it.
 */
export async function sqlWasmBinary(): Promise<Uint8Array> {
	return readFile(require.resolve("sql.js/dist/sql-wasm.wasm"));
}

/** What the CLI's SQLite worker thread is handed: the bytes (a copy of its own, to transfer). */
export async function sqlWasmForWorker(): Promise<WasmSource> {
	return { bytes: new Uint8Array(await sqlWasmBinary()).buffer };
}
