import type { Database, SqlJsStatic } from "sql.js";
import { newestTemp, writeAtomically, type BinaryStorage } from "./binary-storage";
import type { HistoryEntry } from "./executor";
import { withFileLock, type LockOptions } from "./file-lock";
import { loadSqlJs } from "./sqljs";

export { loadSqlJs };

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
];

/** The statements every history backend runs, so sql.js and native SQLite write the same rows. */
export const HISTORY_SQL = {
	insert: `INSERT INTO ${HISTORY_TABLE} (file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport, row_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	/** Keeps the block's last HISTORY_RETENTION runs; parameters: file, alias, file, alias. */
	trim: `DELETE FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? AND id NOT IN
		(SELECT id FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC LIMIT ${HISTORY_RETENTION})`,
	list: `SELECT id, file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport, row_count
		FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC`,
	rename: `UPDATE ${HISTORY_TABLE} SET file_path = ? WHERE file_path = ?`,
} as const;

/** Parameters of HISTORY_SQL.insert for a run. */
export function insertParams(entry: HistoryEntry): Array<string | number | null> {
	return [entry.filePath, entry.alias, entry.method, entry.url, entry.status, entry.outcome, entry.errorCode, entry.requestBytes, entry.responseBytes, entry.durationMs, entry.timestamp, entry.transport, entry.itemCount ?? null];
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
		...(r[13] !== null && r[13] !== undefined ? { itemCount: Number(r[13]) } : {}),
	};
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
	list(filePath: string, alias: string): HistoryRow[];
	renameFile(oldPath: string, newPath: string): void;
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

/** A change to the history, kept until it is in the file: replayed on top of the file under the lock. */
type Change = (db: Database) => void;

/**
 * Reads the history file into a database, brought to the current schema. A crash between writing
 * a temp file and renaming it leaves the data in the temp file: used when the file is missing. A
 * file that does not open as a database is moved aside (never deleted) with a notice; then null.
 */
async function readDatabase(SQL: SqlJsStatic, storage: BinaryStorage, path: string, options: HistoryOptions): Promise<Database | null> {
	let bytes = await storage.read(path);
	if (bytes === null) {
		const temp = await newestTemp(storage, path);
		bytes = temp ? await storage.read(temp) : null;
	}
	if (bytes === null || bytes.byteLength === 0) return null;
	let db: Database | null = null;
	try {
		db = new SQL.Database(bytes);
		db.exec("SELECT count(*) FROM sqlite_master");
		migrate(db);
		return db;
	} catch (e) {
		db?.close();
		const aside = `${path}.corrupt-${new Date((options.now ?? Date.now)()).toISOString().replace(/[:.]/g, "-")}`;
		if (await storage.exists(path)) await storage.rename(path, aside);
		else await storage.write(aside, bytes);
		const reason = e instanceof Error ? e.message : String(e);
		options.onNotice?.(`Run history could not be opened (${reason}); it was moved to ${aside} and a new history was started.`, { code: "moved_aside", reason, path: aside });
		return null;
	}
}

function emptyDatabase(SQL: SqlJsStatic): Database {
	const db = new SQL.Database();
	migrate(db);
	return db;
}

/** The owner of a lock when the caller says nothing (no process id to check: staleness by age). */
const ANONYMOUS_LOCK: LockOptions = { owner: { pid: 0, host: "" } };

/**
 * Run history in an sql.js database persisted to one file. Bodies and header values are
 * never stored (the row type has no place for them). Several processes may write the file
 * (Obsidian and CLI runs): each write takes the lock file, re-reads the file, replays this
 * store's changes not yet written on top of it (retention applies), writes a temp file of its
 * own and renames it over. No row of another writer is lost; a file that does not open as a
 * database is moved aside, never deleted.
 */
export class HistoryStore implements RunHistoryStore {
	private timer: ReturnType<typeof setTimeout> | null = null;
	private writing: Promise<void> = Promise.resolve();
	private pending: Change[] = [];
	private closed = false;

	private constructor(
		private db: Database,
		private readonly SQL: SqlJsStatic,
		private readonly storage: BinaryStorage,
		private readonly path: string,
		private readonly options: HistoryOptions,
	) {}

	static async open(storage: BinaryStorage, path: string, options: HistoryOptions = {}): Promise<HistoryStore> {
		const SQL = await loadSqlJs();
		// Under the lock: recovering a temp file or moving a broken file aside must never meet a
		// writer halfway through its temp file.
		const db = (await withFileLock(storage, path, () => readDatabase(SQL, storage, path, options), options.lock ?? ANONYMOUS_LOCK)) ?? emptyDatabase(SQL);
		return new HistoryStore(db, SQL, storage, path, options);
	}

	/** Adds a run and trims the block's history to the last HISTORY_RETENTION runs. */
	record(entry: HistoryEntry): void {
		this.change((db) => {
			db.run(HISTORY_SQL.insert, insertParams(entry));
			db.run(HISTORY_SQL.trim, [entry.filePath, entry.alias, entry.filePath, entry.alias]);
		});
	}

	/** The block's runs, newest first. */
	list(filePath: string, alias: string): HistoryRow[] {
		const stmt = this.db.prepare(HISTORY_SQL.list);
		const rows: HistoryRow[] = [];
		try {
			stmt.bind([filePath, alias]);
			while (stmt.step()) rows.push(rowFromValues(stmt.get()));
		} finally {
			stmt.free();
		}
		return rows;
	}

	/** Moves a note's history when the note is renamed. */
	renameFile(oldPath: string, newPath: string): void {
		this.change((db) => db.run(HISTORY_SQL.rename, [newPath, oldPath]));
	}

	/**
	 * Takes in what another process wrote to the file; changes of this store not yet written stay
	 * on top. An unreadable file is left for the next write (which handles it under the lock).
	 */
	async reload(): Promise<void> {
		await this.writing;
		const bytes = await this.storage.read(this.path);
		if (!bytes || this.closed) return;
		let db: Database | null = null;
		try {
			db = new this.SQL.Database(bytes);
			migrate(db);
		} catch {
			db?.close();
			return;
		}
		for (const change of this.pending) change(db);
		this.db.close();
		this.db = db;
	}

	/** Writes pending changes now (serialised: a write never overlaps the previous one). */
	flush(): Promise<void> {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		this.writing = this.writing.then(() => this.write());
		return this.writing;
	}

	async close(): Promise<void> {
		await this.flush();
		this.closed = true;
		this.db.close();
	}

	private change(change: Change): void {
		if (this.closed) return;
		change(this.db);
		this.pending.push(change);
		this.schedule();
	}

	private async write(): Promise<void> {
		if (this.pending.length === 0) return;
		const changes = this.pending;
		this.pending = [];
		try {
			await withFileLock(
				this.storage,
				this.path,
				async () => {
					const merged = (await readDatabase(this.SQL, this.storage, this.path, this.options)) ?? emptyDatabase(this.SQL);
					for (const change of changes) change(merged);
					await writeAtomically(this.storage, this.path, merged.export());
					// Runs recorded while this write was under way are in this.pending: they go on top.
					for (const change of this.pending) change(merged);
					this.db.close();
					this.db = merged;
				},
				this.options.lock ?? ANONYMOUS_LOCK,
			);
		} catch (e) {
			// Kept for the next write: nothing recorded is dropped because one write failed.
			this.pending = [...changes, ...this.pending];
			const reason = e instanceof Error ? e.message : String(e);
			this.options.onNotice?.(`Run history could not be written (${reason}); it will be tried again.`, { code: "write_failed", reason });
		}
	}

	private schedule(): void {
		if (this.timer || this.closed) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.flush();
		}, this.options.debounceMs ?? 1000);
	}
}
