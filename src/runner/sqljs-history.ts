/**
 * Run history in an sql.js database, on whichever thread has sql.js: the calling thread
 * (history-store.ts: the CLI without native SQLite, tests, a plugin where no worker starts) or
 * the plugin's SQLite worker (history-worker-handler.ts). It is given sql.js, never loads it:
 * the worker's bundle must not carry the plugin's embedded WebAssembly.
 */
import type { Database, SqlJsStatic } from "sql.js";
import { newestTemp, writeAtomically, type BinaryStorage } from "./binary-storage";
import { withFileLock, type LockOptions } from "./file-lock";
import { HISTORY_SQL, insertParams, migrate, rowFromValues, type HistoryOptions, type HistoryRow, type RunHistoryStore } from "./history-schema";
import type { HistoryEntry } from "./executor";

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
export class SqlJsHistory implements RunHistoryStore {
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

	static async open(SQL: SqlJsStatic, storage: BinaryStorage, path: string, options: HistoryOptions = {}): Promise<SqlJsHistory> {
		// Under the lock: recovering a temp file or moving a broken file aside must never meet a
		// writer halfway through its temp file.
		const db = (await withFileLock(storage, path, () => readDatabase(SQL, storage, path, options), options.lock ?? ANONYMOUS_LOCK)) ?? emptyDatabase(SQL);
		return new SqlJsHistory(db, SQL, storage, path, options);
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

	/** The database as this store holds it (changes not yet in the file included). */
	snapshot(): Uint8Array {
		return this.db.export();
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
