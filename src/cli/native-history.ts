import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type { HistoryEntry } from "../runner/executor";
import { HISTORY_SQL, insertParams, migrateWith, rowFromValues, type HistoryRow, type RunHistoryStore, type SqlCell } from "../runner/history-store";

type Driver = typeof BetterSqlite3;

/**
 * better-sqlite3 when it is installed (an optional dependency: a native module, built on
 * install), else null. Loaded with require: the CLI bundle keeps it external.
 */
function nativeDriver(): Driver | null {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- optional native module: absent is a normal case, and the bundle must not inline it
		return require("better-sqlite3") as Driver;
	} catch {
		return null;
	}
}

/**
 * The CLI's run history on the same `history.sqlite` the plugin writes with sql.js, through
 * native SQLite: no WebAssembly to compile, and only the new rows are written (in place, in one
 * transaction at close) instead of the whole file. The rollback journal (never WAL) keeps the
 * file one file that sql.js reads. Returns null when the driver is missing or the file does not
 * open as a database: the caller then uses the sql.js store, which moves a corrupt file aside.
 */
export function openNativeHistory(path: string, driver: Driver | null = nativeDriver()): RunHistoryStore | null {
	if (!driver) return null;
	let db: BetterSqlite3.Database | null = null;
	try {
		mkdirSync(dirname(path), { recursive: true });
		db = new driver(path);
		db.pragma("journal_mode = DELETE");
		const open = db;
		migrateWith({
			userVersion: () => Number(open.pragma("user_version", { simple: true })),
			apply: (sql, version) =>
				open.transaction(() => {
					open.exec(sql);
					open.pragma(`user_version = ${version}`);
				})(),
		});
		return new NativeHistory(open);
	} catch {
		db?.close();
		return null;
	}
}

class NativeHistory implements RunHistoryStore {
	private readonly pending: Array<(db: BetterSqlite3.Database) => void> = [];
	private closed = false;

	constructor(private readonly db: BetterSqlite3.Database) {}

	record(entry: HistoryEntry): void {
		if (this.closed) return;
		this.pending.push((db) => {
			db.prepare(HISTORY_SQL.insert).run(insertParams(entry));
			db.prepare(HISTORY_SQL.trim).run(entry.filePath, entry.alias, entry.filePath, entry.alias);
		});
	}

	renameFile(oldPath: string, newPath: string): void {
		if (!this.closed) this.pending.push((db) => db.prepare(HISTORY_SQL.rename).run(newPath, oldPath));
	}

	list(filePath: string, alias: string): HistoryRow[] {
		this.write();
		return (this.db.prepare(HISTORY_SQL.list).raw().all(filePath, alias) as SqlCell[][]).map(rowFromValues);
	}

	close(): Promise<void> {
		if (!this.closed) {
			this.write();
			this.closed = true;
			this.db.close();
		}
		return Promise.resolve();
	}

	/** Everything recorded so far, in one transaction (one fsync per CLI run, not per row). */
	private write(): void {
		const ops = this.pending.splice(0);
		if (ops.length > 0) this.db.transaction(() => ops.forEach((op) => op(this.db)))();
	}
}
