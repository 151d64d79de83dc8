/**
 * Messages between the plugin and run history kept in its SQLite worker (src/runner/worker-history.ts
 * on the host, src/runner/history-worker-handler.ts in the worker). The worker holds sql.js and the
 * database; every file operation is the host's, asked for by a `storage` call, as the vault
 * adapter lives on the host's thread.
 */
import type { HistoryEntry } from "./executor";
import type { HistoryNotice, HistoryRow } from "./history-schema";
import type { WasmSource } from "./wasm-decode";

/** One BinaryStorage call the worker asks the host to make. */
export type StorageCall =
	| { method: "read" | "remove" | "exists" | "siblings"; args: [path: string] }
	| { method: "write" | "createExclusive"; args: [path: string, data: Uint8Array] }
	| { method: "rename"; args: [from: string, to: string] };

/** Host → worker: the store's operations (each answered by id), and the answers to storage calls. */
export type HistoryRequest =
	| { id: number; op: "history.open"; path: string; wasm: WasmSource }
	| { id: number; op: "history.record"; entry: HistoryEntry }
	| { id: number; op: "history.rename"; oldPath: string; newPath: string }
	| { id: number; op: "history.list"; filePath: string; alias: string }
	| { id: number; op: "history.reload" }
	| { id: number; op: "history.snapshot" }
	| { id: number; op: "history.close" }
	| { op: "storage.result"; call: number; value: unknown }
	| { op: "storage.failed"; call: number; message: string };

/** Worker → host. */
export type HistoryResponse =
	| { id: number; op: "history.done"; rows?: HistoryRow[]; bytes?: Uint8Array }
	| { id: number; op: "history.failed"; message: string }
	| { op: "history.notice"; message: string; notice: HistoryNotice }
	| ({ op: "storage"; call: number } & StorageCall);

/** Whether a message to the worker is for run history (the same worker also runs db queries). */
export function isHistoryRequest(message: { op: string }): message is HistoryRequest {
	return message.op.startsWith("history.") || message.op.startsWith("storage.");
}
