/**
 * What every run-history backend shares: the table, its migrations and statements, the row as
 * stored, and the store interface (sql.js on the calling thread or in the plugin's SQLite
 * worker, native SQLite in the CLI). Imports nothing that loads sql.js: the worker bundles it.
 */
import type { Database } from "sql.js";
import type { HistoryEntry } from "./executor";
import type { LockOptions } from "./file-lock";

/** Runs kept per (file_path, alias). */
export const HISTORY_RETENTION = 10;
export const HISTORY_TABLE = "block_run_history";

/** A stored run, as listed by the History popover. */
export interface HistoryRow extends HistoryEntry {
	id: number;
}

/**
 * Ordered schema migrations; `PRAGMA user_version` is the number applied. Append, never edit:
 * a database written by an older version is brought forward step by step.
 */
export const MIGRATIONS: readonly string[] = [
	`CREATE TABLE ${HISTORY_TABLE} (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		file_path TEXT NOT NULL,
		alias TEXT NOT NULL,
		method TEXT NOT NULL,
		url TEXT NOT NULL,
		status INTEGER,
		outcome TEXT NOT NULL,
		request_bytes INTEGER NOT NULL,
		response_bytes INTEGER NOT NULL,
		duration_ms REAL NOT NULL,
		timestamp INTEGER NOT NULL
	);
	CREATE INDEX ${HISTORY_TABLE}_block ON ${HISTORY_TABLE} (file_path, alias, id);`,
	`ALTER TABLE ${HISTORY_TABLE} ADD COLUMN error_code TEXT;
	ALTER TABLE ${HISTORY_TABLE} ADD COLUMN transport TEXT NOT NULL DEFAULT 'node';`,
	// A kind's count of its run (`itemCount`: a db block's rows returned or affected; method holds the
	// statement kinds, url `db:<connection>`). The column keeps its first name: it is read as a contract.
	`ALTER TABLE ${HISTORY_TABLE} ADD COLUMN row_count INTEGER;`,
	// A stream's close code (a WebSocket's close frame) and its messages sent; row_count has those received.
	`ALTER TABLE ${HISTORY_TABLE} ADD COLUMN close_code INTEGER;
	ALTER TABLE ${HISTORY_TABLE} ADD COLUMN sent_count INTEGER;`,
];

/** The statements every history backend runs, so sql.js and native SQLite write the same rows. */
export const HISTORY_SQL = {
	insert: `INSERT INTO ${HISTORY_TABLE} (file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport, row_count, close_code, sent_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	/** Keeps the block's last HISTORY_RETENTION runs; parameters: file, alias, file, alias. */
	trim: `DELETE FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? AND id NOT IN
		(SELECT id FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC LIMIT ${HISTORY_RETENTION})`,
	list: `SELECT id, file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport, row_count, close_code, sent_count
		FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC`,
	rename: `UPDATE ${HISTORY_TABLE} SET file_path = ? WHERE file_path = ?`,
} as const;

/** Parameters of HISTORY_SQL.insert for a run. */
export function insertParams(entry: HistoryEntry): Array<string | number | null> {
	return [entry.filePath, entry.alias, entry.method, entry.url, entry.status, entry.outcome, entry.errorCode, entry.requestBytes, entry.responseBytes, entry.durationMs, entry.timestamp, entry.transport, entry.itemCount ?? null, entry.closeCode ?? null, entry.sentCount ?? null];
}

/** A value as SQLite drivers return it. */
export type SqlCell = string | number | bigint | Uint8Array | null;

/** A row of HISTORY_SQL.list, in its column order. */
export function rowFromValues(r: readonly SqlCell[]): HistoryRow {
	return {
		id: Number(r[0]),
		filePath: String(r[1]),
		alias: String(r[2]),
		method: String(r[3]),
		url: String(r[4]),
		status: r[5] === null ? null : Number(r[5]),
		outcome: String(r[6]) as HistoryRow["outcome"],
		errorCode: r[7] === null ? null : String(r[7]),
		requestBytes: Number(r[8]),
		responseBytes: Number(r[9]),
		durationMs: Number(r[10]),
		timestamp: Number(r[11]),
		transport: String(r[12]),
		...optionalCount("itemCount", r[13]),
		...optionalCount("closeCode", r[14]),
		...optionalCount("sentCount", r[15]),
	};
}

/** A nullable count column: the field only when the row has a value (older rows and other kinds have none). */
function optionalCount<K extends "itemCount" | "closeCode" | "sentCount">(key: K, cell: SqlCell | undefined): Partial<Record<K, number>> {
	return cell === null || cell === undefined ? {} : ({ [key]: Number(cell) } as Partial<Record<K, number>>);
}

/** The SQL a backend can run: enough to apply MIGRATIONS. */
export interface MigratableDatabase {
	userVersion(): number;
	/** Runs one migration and sets user_version, in one transaction. */
	apply(sql: string, version: number): void;
}

/** Brings a database forward to the last migration, one transaction per step. */
export function migrateWith(db: MigratableDatabase): void {
	for (let v = db.userVersion(); v < MIGRATIONS.length; v++) db.apply(MIGRATIONS[v], v + 1);
}

export function migrate(db: Database): void {
	migrateWith({
		userVersion: () => Number(db.exec("PRAGMA user_version")[0]?.values[0]?.[0] ?? 0),
		apply: (sql, version) => {
			db.run("BEGIN");
			try {
				db.run(sql);
				db.run(`PRAGMA user_version = ${version}`);
				db.run("COMMIT");
			} catch (e) {
				db.run("ROLLBACK");
				throw e;
			}
		},
	});
}

/** What the plugin and the CLI need of a history backend (sql.js here; native SQLite in the CLI). */
export interface RunHistoryStore {
	record(entry: HistoryEntry): void;
	/** The block's runs, newest first. */
	list(filePath: string, alias: string): HistoryRow[] | Promise<HistoryRow[]>;
	renameFile(oldPath: string, newPath: string): void;
	/**
	 * The whole database as it stands, rows not yet written to the file included, as SQLite
	 * file bytes: what the built-in `history` connection reads.
	 */
	snapshot?(): Uint8Array | Promise<Uint8Array>;
	/** Takes in what another process wrote to the file, where the backend keeps a copy. */
	reload?(): Promise<void>;
	/** Writes what is pending and closes. */
	close(): Promise<void>;
}

/** What went wrong with the history file; it never stops a run. */
export type HistoryNotice = { code: "moved_aside"; reason: string; path: string } | { code: "write_failed"; reason: string };

export interface HistoryOptions {
	/**
	 * Where user-facing messages go (stderr in the CLI, as `message`; a notice in the plugin,
	 * localised from `notice`).
	 */
	onNotice?: (message: string, notice: HistoryNotice) => void;
	/** Writes are coalesced for this long (ms). */
	debounceMs?: number;
	/** Who this writer is, for the lock shared by every process writing the file. */
	lock?: LockOptions;
	now?: () => number;
}
