import type { Database } from "sql.js";
import { writeAtomically, type BinaryStorage } from "./binary-storage";
import type { HistoryEntry } from "./executor";
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
];

/** Replaces secret values in a URL (raw and percent-encoded) before it is stored. */
export function maskSecrets(url: string, secrets: readonly string[]): string {
	let out = url;
	for (const s of secrets) {
		if (!s) continue;
		for (const form of new Set([s, encodeURIComponent(s), encodeURI(s)])) out = out.split(form).join("•••");
	}
	return out;
}

/** The statements every history backend runs, so sql.js and native SQLite write the same rows. */
export const HISTORY_SQL = {
	insert: `INSERT INTO ${HISTORY_TABLE} (file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	/** Keeps the block's last HISTORY_RETENTION runs; parameters: file, alias, file, alias. */
	trim: `DELETE FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? AND id NOT IN
		(SELECT id FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC LIMIT ${HISTORY_RETENTION})`,
	list: `SELECT id, file_path, alias, method, url, status, outcome, error_code, request_bytes, response_bytes, duration_ms, timestamp, transport
		FROM ${HISTORY_TABLE} WHERE file_path = ? AND alias = ? ORDER BY id DESC`,
	rename: `UPDATE ${HISTORY_TABLE} SET file_path = ? WHERE file_path = ?`,
} as const;

/** Parameters of HISTORY_SQL.insert for a run. */
export function insertParams(entry: HistoryEntry): Array<string | number | null> {
	return [entry.filePath, entry.alias, entry.method, entry.url, entry.status, entry.outcome, entry.errorCode, entry.requestBytes, entry.responseBytes, entry.durationMs, entry.timestamp, entry.transport];
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
	/** Writes what is pending and closes. */
	close(): Promise<void>;
}

export interface HistoryOptions {
	/** Where user-facing messages go (a Notice in the plugin, stderr in the CLI). */
	onNotice?: (message: string) => void;
	/** Writes are coalesced for this long (ms). */
	debounceMs?: number;
	now?: () => number;
}

/**
 * Run history in an sql.js database persisted to one file. Bodies and header values are
 * never stored (the row type has no place for them). Writes are debounced, serialised and
 * atomic; a file that does not open as a database is moved aside, never deleted.
 */
export class HistoryStore implements RunHistoryStore {
	private timer: ReturnType<typeof setTimeout> | null = null;
	private writing: Promise<void> = Promise.resolve();
	private dirty = false;
	private closed = false;

	private constructor(
		private readonly db: Database,
		private readonly storage: BinaryStorage,
		private readonly path: string,
		private readonly debounceMs: number,
	) {}

	static async open(storage: BinaryStorage, path: string, options: HistoryOptions = {}): Promise<HistoryStore> {
		const SQL = await loadSqlJs();
		const now = options.now ?? Date.now;
		let bytes = await storage.read(path);
		if (bytes === null) {
			// A crash between writing the temp file and renaming it leaves the data in the temp file.
			bytes = await storage.read(`${path}.tmp`);
		}
		let db: Database | null = null;
		if (bytes !== null && bytes.byteLength > 0) {
			try {
				db = new SQL.Database(bytes);
				db.exec("SELECT count(*) FROM sqlite_master");
				migrate(db);
			} catch (e) {
				db?.close();
				db = null;
				const aside = `${path}.corrupt-${new Date(now()).toISOString().replace(/[:.]/g, "-")}`;
				if (await storage.exists(path)) await storage.rename(path, aside);
				else await storage.write(aside, bytes);
				options.onNotice?.(`Run history could not be opened (${e instanceof Error ? e.message : String(e)}); it was moved to ${aside} and a new history was started.`);
			}
		}
		if (!db) {
			db = new SQL.Database();
			migrate(db);
		}
		return new HistoryStore(db, storage, path, options.debounceMs ?? 1000);
	}

	/** Adds a run and trims the block's history to the last HISTORY_RETENTION runs. */
	record(entry: HistoryEntry): void {
		if (this.closed) return;
		this.db.run(HISTORY_SQL.insert, insertParams(entry));
		this.db.run(HISTORY_SQL.trim, [entry.filePath, entry.alias, entry.filePath, entry.alias]);
		this.schedule();
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
		this.db.run(HISTORY_SQL.rename, [newPath, oldPath]);
		this.schedule();
	}

	/** Writes pending changes now. */
	async flush(): Promise<void> {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		if (!this.dirty) return this.writing;
		this.dirty = false;
		const data = this.db.export();
		// Serialised: a write never overlaps the previous one.
		this.writing = this.writing.then(() => writeAtomically(this.storage, this.path, data));
		return this.writing;
	}

	async close(): Promise<void> {
		await this.flush();
		this.closed = true;
		this.db.close();
	}

	private schedule(): void {
		this.dirty = true;
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.flush();
		}, this.debounceMs);
	}
}
