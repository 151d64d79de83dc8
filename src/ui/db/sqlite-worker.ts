/**
 * The plugin's SQLite worker: sql.js compiled from the bytes the plugin hands over (never
 * fetched), running the same driver the calling thread would (src/runner/db/sqlite-worker-handler.ts)
 * off the main thread, so a long query never blocks the UI and Stop can terminate it. Built by
 * esbuild into a string that main.js starts from a Blob URL (esbuild.config.mjs, `worker:` imports).
 */
import initSqlJs from "sql.js";
import { createSqliteWorkerHandler } from "../../runner/db/sqlite-worker-handler";
import type { WorkerRequest, WorkerResponse } from "../../runner/db/sqlite-worker-protocol";

interface WorkerScope {
	onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
	postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

const handle = createSqliteWorkerHandler(
	(message, transfer) => scope.postMessage(message, transfer),
	(wasm) => initSqlJs({ wasmBinary: wasm }),
);
scope.onmessage = (e) => handle(e.data);
