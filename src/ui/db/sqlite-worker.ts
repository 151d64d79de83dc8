/**
 * The plugin's SQLite worker: sql.js compiled from the bytes the plugin hands over (never
 * fetched), running the same driver the calling thread would (src/runner/db/sqlite-worker-handler.ts)
 * off the main thread, so a long query never blocks the UI and Stop can terminate it; and run
 * history, so recording a run never loads sql.js on the main thread. Built by
 * esbuild into a string that main.js starts from a Blob URL (esbuild.config.mjs, `worker:` imports).
 */
import initSqlJs from "sql.js";
import { createSqliteWorkerHandler } from "../../runner/db/sqlite-worker-handler";
import type { WorkerRequest, WorkerResponse } from "../../runner/db/sqlite-worker-protocol";
import { createHistoryWorkerHandler } from "../../runner/history-worker-handler";
import { isHistoryRequest, type HistoryRequest, type HistoryResponse } from "../../runner/history-worker-protocol";

interface WorkerScope {
	onmessage: ((e: MessageEvent<WorkerRequest | HistoryRequest>) => void) | null;
	postMessage(message: WorkerResponse | HistoryResponse, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;
const load = (wasm: ArrayBuffer) => initSqlJs({ wasmBinary: wasm });

const handleQuery = createSqliteWorkerHandler((message, transfer) => scope.postMessage(message, transfer), load);
// Run history (src/runner/worker-history.ts) lives in a worker of its own from this same source.
const handleHistory = createHistoryWorkerHandler((message) => scope.postMessage(message), load);
scope.onmessage = (e) => (isHistoryRequest(e.data) ? handleHistory(e.data) : handleQuery(e.data));
