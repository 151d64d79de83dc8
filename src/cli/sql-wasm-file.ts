import { readFile } from "node:fs/promises";

/**
 * The CLI's stand-in for src/runner/sql-wasm.ts (esbuild.config.mjs, `cli-sql-wasm`): sql.js's
 * WebAssembly read from the installed package when a run first needs sql.js, instead of
 * embedded in dist/cli.js, where every start read and compiled it.
 */
export async function sqlWasmBinary(): Promise<Uint8Array> {
	return readFile(require.resolve("sql.js/dist/sql-wasm.wasm"));
}
