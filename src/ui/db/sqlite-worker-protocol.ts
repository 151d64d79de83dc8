/**
 * Messages between the plugin and its SQLite worker (src/ui/db/sqlite-worker.ts). The file's
 * bytes go in and, after a write on a writable connection, the new bytes come back: the vault
 * is only ever touched on the main thread, through the adapter.
 */
import type { BoundStatement, ExplainOutcome, QueryOutcome, SchemaOutcome } from "../../runner/db/driver";

export interface SqliteFileImage {
	/** Vault-relative path, for messages. */
	path: string;
	/** The file's bytes, or null when it does not exist. */
	bytes: ArrayBuffer | null;
	readonly: boolean;
}

export type WorkerRequest =
	| { id: number; op: "init"; wasm: ArrayBuffer }
	| { id: number; op: "run"; file: SqliteFileImage; statements: BoundStatement[]; timeoutMs: number; maxRows: number }
	| { id: number; op: "explain"; file: SqliteFileImage; statement: BoundStatement; timeoutMs: number; maxRows: number }
	| { id: number; op: "schema"; file: SqliteFileImage };

export type WorkerResponse =
	| { id: number; op: "ready" }
	| { id: number; op: "failed"; message: string }
	| { id: number; op: "outcome"; outcome: QueryOutcome | ExplainOutcome | SchemaOutcome; written: ArrayBuffer | null };
