/**
 * The CLI's SQLite worker thread: the core's worker handler (src/runner/db/sqlite-worker-handler.ts)
 * on a node:worker_threads port. esbuild bundles this module on its own and dist/cli.js carries it
 * as a string (esbuild.config.mjs, `worker:` imports), started with `eval` (src/cli/sqlite-thread.ts).
 * Such a thread resolves `require` from the working folder, so sql.js comes by the path the CLI
 * resolved (`workerData.sqlJs`); its WebAssembly comes in the `init` request.
 */
import type InitSqlJs from "sql.js";
import { parentPort, workerData } from "node:worker_threads";
import { createSqliteWorkerHandler } from "../runner/db/sqlite-worker-handler";
import type { WorkerRequest } from "../runner/db/sqlite-worker-protocol";

const port = parentPort;
if (!port) throw new Error("the SQLite worker runs in a worker thread");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- sql.js from the path the CLI resolved (see above)
const initSqlJs = require((workerData as { sqlJs: string }).sqlJs) as typeof InitSqlJs;

const handle = createSqliteWorkerHandler(
	(message, transfer) => port.postMessage(message, transfer),
	(wasm) => initSqlJs({ wasmBinary: wasm }),
);
port.on("message", (request: WorkerRequest) => handle(request));
