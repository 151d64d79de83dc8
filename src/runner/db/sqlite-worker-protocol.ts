/**
 * Messages between a host and its SQLite worker: the plugin's Web Worker (src/ui/db/sqlite-worker.ts)
 * and the CLI's worker thread (src/cli/sqlite-worker.ts) speak the same ones. The file's bytes go
 * in and, after a write on a writable connection, the new bytes come back: the file is only ever
 * touched by the host, through its own storage.
 */
import type { WasmSource } from "../wasm-decode";
import type { BoundStatement, ExplainOutcome, QueryOutcome, SchemaOutcome } from "./driver";

export interface SqliteFileImage {
	/** Vault-relative path, for messages. */
	path: string;
	/** The file's bytes, or null when it does not exist. */
	bytes: ArrayBuffer | null;
	readonly: boolean;
}

export type WorkerRequest =
	/** sql.js's WebAssembly, decoded by the worker when it comes as the plugin's embedded text. */
	| { id: number; op: "init"; wasm: WasmSource }
	| { id: number; op: "run"; file: SqliteFileImage; statements: BoundStatement[]; timeoutMs: number; maxRows: number }
	| { id: number; op: "explain"; file: SqliteFileImage; statement: BoundStatement; timeoutMs: number; maxRows: number }
	| { id: number; op: "schema"; file: SqliteFileImage };

export type WorkerResponse =
	| { id: number; op: "ready" }
	| { id: number; op: "failed"; message: string }
	/**
	 * While a run goes on: the file as committed so far, sent after a statement changed it and
	 * before the next one starts, so that a host which terminates the worker mid-statement still
	 * saves what was committed.
	 */
	| { id: number; op: "committed"; bytes: ArrayBuffer }
	| { id: number; op: "outcome"; outcome: QueryOutcome | ExplainOutcome | SchemaOutcome; written: ArrayBuffer | null };
