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

let binding: string | null | undefined;

/**
 * The driver's compiled addon, named to it directly: left to find it, better-sqlite3 asks the
 * `bindings` package, which probes a dozen paths (~7 ms of every CLI run that writes history).
 * Where the build put it elsewhere, the driver looks for it as it normally does.
 */
function addonOptions(): { nativeBinding?: string } {
	if (binding === undefined) {
		try {
			binding = require.resolve("better-sqlite3/build/Release/better_sqlite3.node");
		} catch {
			binding = null;
		}
	}
	return binding === null ? {} : { nativeBinding: binding };
}

/** Whether the file at `path` is absent or opens as an SQLite database. */
function readable(driver: Driver, path: string): boolean {
	if (!existsSync(path)) return true;
	try {
		const db = new driver(path, { readonly: true, fileMustExist: true, ...addonOptions() });
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
export function openNativeHistory(path: string, lock: LockOptions = nodeLockOptions(), driver: Driver | null = nativeDriver()): NativeHistory | null {
	return driver && readable(driver, path) ? new NativeHistory(driver, path, lock) : null;
}

/** A change waiting for close: a run's row, or a note renamed. */
type Change = { kind: "row"; entry: HistoryEntry } | { kind: "rename"; oldPath: string; newPath: string };

class NativeHistory implements RunHistoryStore {
	private pending: Change[] = [];
	private closed = false;

	constructor(
		private readonly driver: Driver,
		private readonly path: string,
		private readonly lock: LockOptions,
	) {}

	record(entry: HistoryEntry): void {
		if (!this.closed) this.pending.push({ kind: "row", entry });
	}

	renameFile(oldPath: string, newPath: string): void {
		if (!this.closed) this.pending.push({ kind: "rename", oldPath, newPath });
	}

	/** The block's runs in the file (what close has written; the CLI lists nothing before it). */
	list(filePath: string, alias: string): HistoryRow[] {
		if (!existsSync(this.path) || !readable(this.driver, this.path)) return [];
		const db = new this.driver(this.path, { readonly: true, fileMustExist: true, ...addonOptions() });
		try {
			return (db.prepare(HISTORY_SQL.list).raw().all(filePath, alias) as SqlCell[][]).map(rowFromValues);
		} catch {
			return [];
		} finally {
			db.close();
		}
	}

	/**
	 * The file as it stands with this run's changes on top (they reach the file only at close),
	 * made in memory: the file itself is only read.
	 */
	snapshot(): Uint8Array {
		const onDisk = existsSync(this.path) && readable(this.driver, this.path) ? new this.driver(this.path, { readonly: true, fileMustExist: true, ...addonOptions() }) : null;
		let image: Buffer | null = null;
		try {
			image = onDisk?.serialize() ?? null;
		} finally {
			onDisk?.close();
		}
		const db = image ? new this.driver(image, addonOptions()) : new this.driver(":memory:", addonOptions());
		try {
			migrate(db);
			db.transaction(() => apply(db, this.pending))();
			return new Uint8Array(db.serialize());
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
	private write(changes: Change[]): void {
		const db = new this.driver(this.path, addonOptions());
		try {
			db.pragma("journal_mode = DELETE");
			migrate(db);
			db.transaction(() => apply(db, changes))();
		} finally {
			db.close();
		}
	}
}

function migrate(db: BetterSqlite3.Database): void {
	migrateWith({
		userVersion: () => Number(db.pragma("user_version", { simple: true })),
		apply: (sql, version) =>
			db.transaction(() => {
				db.exec(sql);
				db.pragma(`user_version = ${version}`);
			})(),
	});
}

/**
 * The changes in order, each statement prepared once (preparing per row was most of the write
 * for a 200-block run). A block is trimmed to its retention once, after its last row and before
 * any rename: the same rows remain as when every insert was followed by its trim, since the
 * trim keeps a block's newest ids and later inserts only add newer ones.
 */
function apply(db: BetterSqlite3.Database, changes: readonly Change[]): void {
	const insert = db.prepare(HISTORY_SQL.insert);
	const trim = db.prepare(HISTORY_SQL.trim);
	let untrimmed = new Map<string, HistoryEntry>();
	const trimAll = () => {
		for (const e of untrimmed.values()) trim.run(e.filePath, e.alias, e.filePath, e.alias);
		untrimmed = new Map();
	};
	for (const c of changes) {
		if (c.kind === "row") {
			insert.run(insertParams(c.entry));
			untrimmed.set(JSON.stringify([c.entry.filePath, c.entry.alias]), c.entry);
		} else {
			trimAll();
			db.prepare(HISTORY_SQL.rename).run(c.newPath, c.oldPath);
		}
	}
	trimAll();
}
