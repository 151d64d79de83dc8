import { existsSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import type { HistoryEntry } from "../runner/executor";
import { withFileLock, type LockOptions } from "../runner/file-lock";
import { HISTORY_SQL, insertParams, migrateWith, rowFromValues, type HistoryRow, type RunHistoryStore, type SqlCell } from "../runner/history-store";
import { nodeLockOptions, nodeStorage } from "./node-storage";

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

/** Whether the file at `path` is absent or opens as an SQLite database. */
function readable(driver: Driver, path: string): boolean {
	if (!existsSync(path)) return true;
	try {
		const db = new driver(path, { readonly: true, fileMustExist: true });
		try {
			db.pragma("schema_version");
		} finally {
			db.close();
		}
		return true;
	} catch {
		return false;
	}
}

/**
 * The CLI's run history on the same `history.sqlite` the plugin writes with sql.js, through
 * native SQLite: no WebAssembly to compile, and only the new rows are written, in place, in one
 * transaction at close. The write takes the same lock file as every other writer and opens the
 * file afresh under it (a sql.js writer replaces the file by renaming over it). The rollback
 * journal (never WAL) keeps it one file that sql.js reads. Returns null when the driver is
 * missing or the file is not a database: the caller then uses the sql.js store, which moves a
 * broken file aside.
 */
export function openNativeHistory(path: string, lock: LockOptions = nodeLockOptions(), driver: Driver | null = nativeDriver()): RunHistoryStore | null {
	return driver && readable(driver, path) ? new NativeHistory(driver, path, lock) : null;
}

class NativeHistory implements RunHistoryStore {
	private pending: Array<(db: BetterSqlite3.Database) => void> = [];
	private closed = false;

	constructor(
		private readonly driver: Driver,
		private readonly path: string,
		private readonly lock: LockOptions,
	) {}

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

	/** The block's runs in the file (what close has written; the CLI lists nothing before it). */
	list(filePath: string, alias: string): HistoryRow[] {
		if (!existsSync(this.path) || !readable(this.driver, this.path)) return [];
		const db = new this.driver(this.path, { readonly: true, fileMustExist: true });
		try {
			return (db.prepare(HISTORY_SQL.list).raw().all(filePath, alias) as SqlCell[][]).map(rowFromValues);
		} catch {
			return [];
		} finally {
			db.close();
		}
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		const changes = this.pending.splice(0);
		if (changes.length > 0) await withFileLock(nodeStorage, this.path, () => Promise.resolve(this.write(changes)), this.lock);
	}

	/** Everything recorded, in one transaction (one fsync per CLI run, not per row). */
	private write(changes: Array<(db: BetterSqlite3.Database) => void>): void {
		const db = new this.driver(this.path);
		try {
			db.pragma("journal_mode = DELETE");
			migrateWith({
				userVersion: () => Number(db.pragma("user_version", { simple: true })),
				apply: (sql, version) =>
					db.transaction(() => {
						db.exec(sql);
						db.pragma(`user_version = ${version}`);
					})(),
			});
			db.transaction(() => changes.forEach((c) => c(db)))();
		} finally {
			db.close();
		}
	}
}
