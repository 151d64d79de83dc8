import type InitSqlJs from "sql.js";
import type { SqlJsStatic } from "sql.js";
import { sqlWasmBinary, sqlWasmForWorker } from "./sql-wasm";

/**
 * What a SQLite worker is handed to compile sql.js (src/runner/db/worker-driver.ts,
 * src/runner/worker-history.ts): in the plugin the embedded text itself, decoded in the worker.
 * Re-exported from here: the CLI's build replaces ./sql-wasm only when this module imports it.
 */
export { sqlWasmForWorker };

let sqlJs: Promise<SqlJsStatic> | null = null;

/** sql.js's loader, required on first use: a CLI run that never opens sql.js does not load it. */
function initSqlJs(): typeof InitSqlJs {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above; bundled into main.js, required from node_modules by the CLI
	return require("sql.js") as typeof InitSqlJs;
}

/**
 * sql.js with its embedded WebAssembly on the calling thread, decoded and instantiated once, on
 * first use (never during plugin start-up). The compile runs asynchronously. A failure is not
 * kept: the next call tries again. The plugin reaches it only where no worker can start.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
	sqlJs ??= sqlWasmBinary()
		.then((bytes) => initSqlJs()({ wasmBinary: bytes.buffer as ArrayBuffer }))
		.catch((e: unknown) => {
			sqlJs = null;
			throw e;
		});
	return sqlJs;
}
