/**
 * SQLite through sql.js (everywhere: plugin, mobile, CLI). Each run opens the file's current
 * bytes, so edits made elsewhere are seen; a read-only connection sets `PRAGMA query_only`,
 * and a writable one saves back (atomically, by the storage port) what its statements committed,
 * as SQLite itself would: when the run ends, however it ends, and only when a statement that can
 * change the file succeeded and the committed bytes differ from those opened. A transaction the
 * run leaves open is rolled back, as closing the connection would.
 *
 * This driver runs on the calling thread: there, cancel and timeout take effect between
 * statements, not inside one. The hosts run it in a worker they can terminate mid-statement
 * (./worker-driver.ts), which is why it reports each commit as it happens (`onCommitted`).
 */
import type { Database, SqlJsStatic, SqlValue } from "sql.js";
import { dbFailed, exactInteger, saveFailed, sqlFailed, hexBytes, nearOffset, type BoundStatement, type DbColumn, type DbDriver, type DbRow, type DbValue, type ExplainOutcome, type PlanNode, type QueryOptions, type QueryOutcome, type SchemaOutcome, type SchemaTable, type StatementSummary, valueText } from "./driver";
import { rowsOf } from "./rows";

/** Where the database file lives (the vault in the plugin, the file system in the CLI). */
export interface SqliteFile {
	/** The file's bytes, or null when it does not exist. */
	read(): Promise<Uint8Array | null>;
	/** Replaces the file atomically. */
	write(bytes: Uint8Array): Promise<void>;
	/** For messages: the vault-relative path. */
	readonly path: string;
}

function valueOf(v: SqlValue | bigint): DbValue {
	if (v === null) return null;
	if (typeof v === "bigint") return exactInteger(v);
	if (v instanceof Uint8Array) return hexBytes(v);
	return v;
}

/** SQLite types are per value: a column is named by the storage class of its first non-NULL value. */
function storageClass(v: SqlValue | bigint | undefined): string {
	if (typeof v === "bigint") return "INTEGER";
	if (typeof v === "number") return Number.isInteger(v) ? "INTEGER" : "REAL";
	if (typeof v === "string") return "TEXT";
	if (v instanceof Uint8Array) return "BLOB";
	return "NULL";
}

const WRITES = new Set(["insert", "update", "delete", "merge", "ddl", "other", "transaction"]);

/**
 * Where SQLite stopped reading. Its `near "X"` names a token, not a place, and X may come earlier
 * (a valid FROM before the stray one, or inside a string); sql.js does not export
 * sqlite3_error_offset. So each occurrence is tried in order: the first whose prefix, ending
 * with it, fails to compile with the same message is the token SQLite read last.
 */
function syntaxErrorOffset(db: Database, text: string, message: string): number | undefined {
	const m = /^near "(.+)": syntax error$/s.exec(message);
	if (!m) return nearOffset(text, message);
	for (let at = text.indexOf(m[1]); at !== -1; at = text.indexOf(m[1], at + 1)) {
		try {
			db.prepare(text.slice(0, at + m[1].length)).free();
		} catch (e) {
			if (e instanceof Error && e.message === message) return at;
		}
	}
	return nearOffset(text, message);
}

/** A statement error as an outcome, with the `near "…"` position when SQLite gives one. */
function sqlError(db: Database, e: unknown, statement: BoundStatement, index: number, startedAt: number): QueryOutcome {
	const message = e instanceof Error ? e.message : String(e);
	const offset = syntaxErrorOffset(db, statement.text, message);
	return sqlFailed(message, startedAt, { engineCode: "SQLITE_ERROR", ...(offset !== undefined ? { position: { statement: index, offset } } : {}) });
}

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface SqliteOptions {
	readonly: boolean;
	/**
	 * Called, on a writable connection, with the file as committed after a statement changed it
	 * while later statements of the run are still to come: a worker posts it to its host, which
	 * saves it if it has to terminate the worker in one of them. The bytes are the callee's.
	 */
	onCommitted?: (bytes: Uint8Array) => void;
}

/** The database as committed. A write transaction still open is rolled back first, as closing the connection would (sql.js refuses to export in one). */
function committedImage(db: Database): Uint8Array {
	try {
		return db.export();
	} catch {
		db.exec("ROLLBACK");
		return db.export();
	}
}

/** The database as committed, or null while a write transaction is open (it is not committed yet, and must stay open). */
function commitPoint(db: Database): Uint8Array | null {
	try {
		return db.export();
	} catch {
		return null;
	}
}

function sameBytes(a: Uint8Array, b: Uint8Array | null): boolean {
	if (b === null || a.byteLength !== b.byteLength) return false;
	for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
	return true;
}

export function createSqliteDriver(sqlJs: () => Promise<SqlJsStatic>, file: SqliteFile, options: SqliteOptions): DbDriver {
	/** Opens the current bytes; a read-only connection to a missing file is an error, a writable one creates it. */
	const open = async (startedAt: number): Promise<{ db: Database; bytes: Uint8Array | null } | { failed: QueryOutcome }> => {
		let SQL: SqlJsStatic;
		let bytes: Uint8Array | null;
		try {
			[SQL, bytes] = await Promise.all([sqlJs(), file.read()]);
		} catch (e) {
			return { failed: dbFailed("connect_failed", `${file.path}: ${e instanceof Error ? e.message : String(e)}`, startedAt) };
		}
		if (bytes === null && options.readonly) return { failed: dbFailed("connect_failed", `${file.path}: no such file (a read-only connection does not create it)`, startedAt) };
		try {
			const db = new SQL.Database(bytes ?? undefined);
			db.exec("PRAGMA foreign_keys = ON");
			if (options.readonly) db.exec("PRAGMA query_only = 1");
			return { db, bytes };
		} catch (e) {
			return { failed: dbFailed("connect_failed", `${file.path}: ${e instanceof Error ? e.message : String(e)}`, startedAt) };
		}
	};

	/** Runs one statement to completion: its columns, its rows as arrays, and the rows it changed. */
	const exec = (db: Database, s: BoundStatement): { columns: DbColumn[]; rows: DbValue[][]; changed: number } => {
		const stmt = db.prepare(s.text);
		try {
			if (s.params.length > 0) stmt.bind(s.params);
			const names = stmt.getColumnNames();
			const raw: Array<Array<SqlValue | bigint>> = [];
			// sql.js's typings lack get's options; useBigInt keeps integers beyond 2^53 exact.
			const bigGet = stmt as unknown as { get(params: null, config: { useBigInt: boolean }): Array<SqlValue | bigint> };
			while (stmt.step()) raw.push(bigGet.get(null, { useBigInt: true }));
			const columns = names.map((name, i) => ({ name, type: storageClass(raw.find((r) => r[i] !== null)?.[i]) }));
			return { columns, rows: raw.map((r) => r.map(valueOf)), changed: names.length === 0 ? db.getRowsModified() : raw.length };
		} finally {
			stmt.free();
		}
	};

	/** Runs `work` on a freshly opened database (and the bytes it was opened from); cancel and timeout are honoured between statements. */
	const session = async <T>(opts: QueryOptions, work: (db: Database, stopped: () => "user" | "timeout" | null, opened: Uint8Array | null) => Promise<T>): Promise<T | QueryOutcome> => {
		const startedAt = Date.now();
		const opened = await open(startedAt);
		if ("failed" in opened) return opened.failed;
		const stopped = () => (opts.signal?.aborted ? "user" : Date.now() - startedAt > opts.timeoutMs ? "timeout" : null);
		try {
			return await work(opened.db, stopped, opened.bytes);
		} finally {
			opened.db.close();
		}
	};

	const run = (statements: readonly BoundStatement[], opts: QueryOptions): Promise<QueryOutcome> => {
		const startedAt = Date.now();
		return session(opts, async (db, stopped, opened): Promise<QueryOutcome> => {
			const summaries: StatementSummary[] = [];
			let last: { columns: DbColumn[]; rows: DbRow[]; rowCount: number; truncated: boolean } = { columns: [], rows: [], rowCount: 0, truncated: false };
			let wrote = false;
			/** The committed file as last reported to `onCommitted` (at first, as opened). */
			let reported = opened;
			/** Saves what the run committed, if anything; a failure to save is the run's outcome. */
			const saved = async (outcome: QueryOutcome): Promise<QueryOutcome> => {
				if (!wrote || options.readonly) return outcome;
				try {
					const bytes = committedImage(db);
					if (!sameBytes(bytes, opened)) await file.write(bytes);
					return outcome;
				} catch (e) {
					return saveFailed(file.path, e, startedAt);
				}
			};
			/** After a write with statements still to come: the file as committed, when that changed. */
			const reportCommitted = (report: (bytes: Uint8Array) => void) => {
				const bytes = commitPoint(db);
				if (!bytes || sameBytes(bytes, reported)) return;
				// A copy to compare the next commit with: the callee may transfer these bytes away.
				reported = bytes.slice();
				report(bytes);
			};
			const cancelled = (reason: "user" | "timeout") => saved({ kind: "cancelled", reason, timing: { total: Date.now() - startedAt } });
			for (let i = 0; i < statements.length; i++) {
				await yieldToEvents();
				const why = stopped();
				if (why) return cancelled(why);
				const s = statements[i];
				let r: ReturnType<typeof exec>;
				try {
					r = exec(db, s);
				} catch (e) {
					return saved(sqlError(db, e, s, i, startedAt));
				}
				summaries.push({ kind: s.kind, rowCount: r.changed });
				if (r.columns.length > 0) last = { columns: r.columns, ...rowsOf(r.columns, r.rows, opts.maxRows) };
				if (!WRITES.has(s.kind)) continue;
				wrote = true;
				if (options.onCommitted && !options.readonly && i < statements.length - 1) reportCommitted(options.onCommitted);
			}
			const why = stopped();
			if (why) return cancelled(why);
			return saved({ kind: "done", ...last, statements: summaries, timing: { total: Date.now() - startedAt } });
		});
	};

	return {
		dialect: "sqlite",
		run,
		explain: async (statement, opts): Promise<ExplainOutcome> => {
			const startedAt = Date.now();
			const out = await session(opts, (db): Promise<ExplainOutcome> => {
				let r: ReturnType<typeof exec>;
				try {
					r = exec(db, { ...statement, text: `EXPLAIN QUERY PLAN ${statement.text}` });
				} catch (e) {
					return Promise.resolve(sqlError(db, e, statement, 0, startedAt) as ExplainOutcome);
				}
				const rows = r.rows.map((row) => ({ id: Number(row[0]), parent: Number(row[1]), detail: valueText(row[3]) }));
				return Promise.resolve({ kind: "done", plan: planTree(rows), raw: rows.map((x) => `${x.id}|${x.parent}|${x.detail}`).join("\n"), timing: { total: Date.now() - startedAt } });
			});
			return out as ExplainOutcome;
		},
		schema: async (): Promise<SchemaOutcome> => {
			const startedAt = Date.now();
			const out = await session({ timeoutMs: 30000, maxRows: Infinity }, (db): Promise<SchemaOutcome> => {
				const tables: SchemaTable[] = [];
				const list = exec(db, { text: "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name", params: [], kind: "select" });
				for (const [name, type] of list.rows) {
					const cols = exec(db, { text: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", params: [valueText(name)], kind: "select" });
					const fks = exec(db, { text: 'SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)', params: [valueText(name)], kind: "select" });
					tables.push({
						name: valueText(name),
						schema: "",
						kind: type === "view" ? "view" : "table",
						columns: cols.rows.map(([col, t, notnull, pk]) => {
							const fk = fks.rows.find((f) => f[0] === col);
							return { name: valueText(col), type: valueText(t), nullable: notnull === 0 && pk === 0, primaryKey: Number(pk) > 0, ...(fk ? { references: `${valueText(fk[1])}.${valueText(fk[2] ?? "")}` } : {}) };
						}),
					});
				}
				return Promise.resolve({ kind: "done", tables, timing: { total: Date.now() - startedAt } });
			});
			return out as SchemaOutcome;
		},
		close: () => Promise.resolve(),
	};
}

/** EXPLAIN QUERY PLAN rows (id, parent, detail) as a tree. */
function planTree(rows: Array<{ id: number; parent: number; detail: string }>): PlanNode[] {
	const nodes = new Map<number, PlanNode>();
	const roots: PlanNode[] = [];
	for (const r of rows) {
		const node: PlanNode = { label: r.detail, children: [] };
		nodes.set(r.id, node);
		const parent = nodes.get(r.parent);
		if (parent) parent.children.push(node);
		else roots.push(node);
	}
	return roots;
}
