/**
 * Run history inside the plugin's SQLite worker: sql.js is compiled here from the embedded text
 * the host sends, and the same store the calling thread would use (./sqljs-history.ts) runs here,
 * over a storage whose every call is made by the host (./history-worker-protocol.ts). So the main
 * thread never decodes, compiles or runs sql.js to record a run.
 */
import type { SqlJsStatic } from "sql.js";
import type { BinaryStorage } from "./binary-storage";
import type { HistoryRow } from "./history-schema";
import type { HistoryRequest, HistoryResponse, StorageCall } from "./history-worker-protocol";
import { SqlJsHistory } from "./sqljs-history";
import { wasmBytesOf } from "./wasm-decode";

/** The worker's handler for history messages; `post` sends to the host. */
export function createHistoryWorkerHandler(post: (message: HistoryResponse) => void, loadSqlJs: (wasm: ArrayBuffer) => Promise<SqlJsStatic>): (message: HistoryRequest) => void {
	let store: Promise<SqlJsHistory> | null = null;
	let nextCall = 1;
	const calls = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();

	const ask = <T>(call: StorageCall): Promise<T> =>
		new Promise((resolve, reject) => {
			const id = nextCall++;
			calls.set(id, { resolve: resolve, reject });
			post({ op: "storage", call: id, ...call });
		});
	const storage: BinaryStorage = {
		read: (path) => ask({ method: "read", args: [path] }),
		write: (path, data) => ask({ method: "write", args: [path, data] }),
		createExclusive: (path, data) => ask({ method: "createExclusive", args: [path, data] }),
		rename: (from, to) => ask({ method: "rename", args: [from, to] }),
		remove: (path) => ask({ method: "remove", args: [path] }),
		exists: (path) => ask({ method: "exists", args: [path] }),
		siblings: (path) => ask({ method: "siblings", args: [path] }),
	};

	/** Answers a request once its work is done; operations run in the order they came (one promise chain). */
	const answer = (id: number, work: (s: SqlJsHistory) => unknown) => {
		if (!store) return post({ id, op: "history.failed", message: "run history is not open" });
		store.then(work).then(
			(answer) => post({ id, op: "history.done", ...(Array.isArray(answer) && { rows: answer as HistoryRow[] }), ...(answer instanceof Uint8Array && { bytes: answer }) }),
			(e: unknown) => post({ id, op: "history.failed", message: e instanceof Error ? e.message : String(e) }),
		);
	};

	return (m) => {
		switch (m.op) {
			case "storage.result":
			case "storage.failed": {
				const call = calls.get(m.call);
				calls.delete(m.call);
				if (m.op === "storage.result") call?.resolve(m.value);
				else call?.reject(new Error(m.message));
				return;
			}
			case "history.open":
				store = wasmBytesOf(m.wasm)
					.then(loadSqlJs)
					.then((SQL) => SqlJsHistory.open(SQL, storage, m.path, { onNotice: (message, notice) => post({ op: "history.notice", message, notice }) }));
				return answer(m.id, () => undefined);
			case "history.record":
				return answer(m.id, (s) => s.record(m.entry));
			case "history.rename":
				return answer(m.id, (s) => s.renameFile(m.oldPath, m.newPath));
			case "history.list":
				return answer(m.id, (s) => s.list(m.filePath, m.alias));
			case "history.snapshot":
				return answer(m.id, (s) => s.snapshot());
			case "history.reload":
				return answer(m.id, (s) => s.reload());
			case "history.close":
				return answer(m.id, (s) => s.close());
		}
	};
}
