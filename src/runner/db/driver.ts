/**
 * The `DbDriver` port: what the engine needs from a database, nothing about where it lives.
 * Implementations: sqlite (sql.js), postgres (`pg`), mysql (`mysql2`). Every method resolves
 * with an outcome and never rejects: connection refused, a wrong password, bad SQL, a
 * cancel and a timeout are values the block shows.
 */
import type { SqlDialect, StatementKind } from "../../blocks/db-sql";
import { dbFailureText } from "./failures";

/** A column of a result: its name and the engine's type name (`int8`, `varchar(20)`, `INTEGER`…). */
export interface DbColumn {
	name: string;
	type: string;
}

/**
 * A value as the engine gave it, without loss: integers beyond 2^53 and exact decimals are
 * strings, dates and times the engine's text, JSON parsed, bytes as `\x…` hex, NULL null.
 */
export type DbValue = DbJson;
export type DbJson = null | boolean | number | string | DbJson[] | { [key: string]: DbJson };

export type DbRow = Record<string, DbValue>;

/** Which statement was running, for an error's position (set by the driver as it goes). */
export interface Cursor {
	index: number;
	text: string;
}

/** A value as display text: strings as they are, the rest as JSON. */
export function valueText(v: DbValue): string {
	return typeof v === "string" ? v : JSON.stringify(v);
}

/** A statement ready to send: placeholders in the text, values in order. */
export interface BoundStatement {
	text: string;
	params: Array<string | number | null>;
	kind: StatementKind;
}

export interface StatementSummary {
	kind: StatementKind;
	/** Rows returned (a read) or affected (a write); null when the engine does not say. */
	rowCount: number | null;
}

export interface DbTiming {
	/** Milliseconds from the start of the run to its end (connecting included). */
	total: number;
}

export type DbFailureCode =
	| "connect_failed" // could not reach the server, or the file
	| "auth_failed" // the server refused the user or password
	| "sql_error" // the engine refused a statement (syntax, read-only, constraint…)
	| "save_failed" // a SQLite file the run changed could not be written back
	| "driver_unavailable"; // this engine cannot run here (desktop-only driver on mobile)

/** Where the engine said the error is: the statement (0-based) and an offset in its text as sent. */
export interface DbErrorPosition {
	statement: number;
	offset: number;
}

export type QueryOutcome =
	| {
			kind: "done";
			/** Columns and rows of the last statement that returned a result set (empty when none did). */
			columns: DbColumn[];
			rows: DbRow[];
			/** Rows of that result set in total; `rows` holds at most `maxRows` of them. */
			rowCount: number;
			truncated: boolean;
			statements: StatementSummary[];
			timing: DbTiming;
	  }
	| { kind: "cancelled"; reason: "user" | "timeout"; timing: DbTiming }
	| {
			kind: "failed";
			code: DbFailureCode;
			message: string;
			/** The engine's own words (never a password). */
			detail?: string;
			/** The engine's error code (SQLSTATE, ER_…, SQLITE_…). */
			engineCode?: string;
			position?: DbErrorPosition;
			timing: DbTiming;
	  };

export interface QueryOptions {
	signal?: AbortSignal;
	timeoutMs: number;
	maxRows: number;
}

/** A plan node: a label, its costs/rows when the engine gives them, and its children. */
export interface PlanNode {
	label: string;
	/** Engine estimate of the node's total cost (postgres, mysql), when known. */
	cost?: number;
	rows?: number;
	/** Anything else the engine said about the node, as text. */
	detail?: string;
	children: PlanNode[];
}

export type ExplainOutcome =
	| { kind: "done"; plan: PlanNode[]; /** The engine's plan as it came (JSON text or rows). */ raw: string; timing: DbTiming }
	| Exclude<QueryOutcome, { kind: "done" }>;

export interface SchemaColumn {
	name: string;
	type: string;
	nullable: boolean;
	primaryKey: boolean;
	/** `table.column` this column references, when it is a foreign key. */
	references?: string;
}

export interface SchemaTable {
	name: string;
	/** The schema (postgres) or database (mysql) it lives in; "" for SQLite's main. */
	schema: string;
	kind: "table" | "view";
	columns: SchemaColumn[];
}

export type SchemaOutcome = { kind: "done"; tables: SchemaTable[]; timing: DbTiming } | Exclude<QueryOutcome, { kind: "done" | "cancelled" }>;

export interface DbDriver {
	readonly dialect: SqlDialect;
	/** Runs the statements in order (one read-only transaction unless the connection allows writes). */
	run(statements: readonly BoundStatement[], opts: QueryOptions): Promise<QueryOutcome>;
	/** The engine's plan of one statement; `analyze` runs it (postgres, and only for a SELECT). */
	explain(statement: BoundStatement, opts: QueryOptions & { analyze?: boolean }): Promise<ExplainOutcome>;
	schema(): Promise<SchemaOutcome>;
	/** Ends pooled connections. */
	close(): Promise<void>;
}

interface FailedExtra {
	detail?: string;
	engineCode?: string;
	position?: DbErrorPosition;
}

function failed(code: DbFailureCode, message: string, startedAt: number, extra: FailedExtra): QueryOutcome {
	return {
		kind: "failed",
		code,
		message,
		...(extra.detail ? { detail: extra.detail } : {}),
		...(extra.engineCode ? { engineCode: extra.engineCode } : {}),
		...(extra.position ? { position: extra.position } : {}),
		timing: { total: Date.now() - startedAt },
	};
}

/** A failure whose message is its code's text (./failures.ts); the engine's or the system's words go in `detail`. */
export function dbFailed(code: "connect_failed" | "auth_failed" | "save_failed", detail: string | undefined, startedAt: number, extra: { engineCode?: string } = {}): QueryOutcome {
	return failed(code, dbFailureText(code), startedAt, { ...extra, ...(detail ? { detail } : {}) });
}

/** A statement the engine refused: the engine's words are the message (`sql_error`'s text names them). */
export function sqlFailed(engine: string, startedAt: number, extra: FailedExtra = {}): QueryOutcome {
	return failed("sql_error", dbFailureText("sql_error", engine), startedAt, extra);
}

/** A changed SQLite file that could not be written back: the run's outcome, whatever the statements did. */
export function saveFailed(path: string, error: unknown, startedAt: number): QueryOutcome {
	return dbFailed("save_failed", `${path}: ${error instanceof Error ? error.message : String(error)}`, startedAt);
}

/** Bytes as PostgreSQL's `\x` hex text: exact, and readable in a table and in JSON. */
export function hexBytes(bytes: Uint8Array): string {
	let out = "\\x";
	for (const b of bytes) out += b.toString(16).padStart(2, "0");
	return out;
}

/** An integer as a number when it is exact as one, else its decimal text. */
export function exactInteger(value: bigint | string): number | string {
	const big = typeof value === "bigint" ? value : BigInt(value);
	return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString();
}

/**
 * Cancel plumbing shared by the server drivers: `onCancel` runs once when the user aborts or
 * the timeout passes; `reason()` says which happened first.
 */
export function cancellation(opts: QueryOptions, onCancel: () => void): { reason(): "user" | "timeout" | null; dispose(): void } {
	let reason: "user" | "timeout" | null = null;
	const fire = (why: "user" | "timeout") => {
		if (reason !== null) return;
		reason = why;
		onCancel();
	};
	const onAbort = () => fire("user");
	const timer = setTimeout(() => fire("timeout"), opts.timeoutMs);
	if (opts.signal?.aborted) queueMicrotask(onAbort);
	else opts.signal?.addEventListener("abort", onAbort, { once: true });
	return {
		reason: () => reason,
		dispose: () => {
			clearTimeout(timer);
			opts.signal?.removeEventListener("abort", onAbort);
		},
	};
}

/** Finds the offset of an engine's `near "…"` / `near '…'` quote in a statement (SQLite, MySQL). */
export function nearOffset(statement: string, message: string, line?: number): number | undefined {
	const m = /near ["'](.*?)["'](?: at line (\d+))?(?::|$| )/s.exec(message);
	if (!m || m[1] === "") return undefined;
	const lineNo = line ?? (m[2] ? Number(m[2]) : 1);
	const lines = statement.split("\n");
	const lineStart = lines.slice(0, Math.max(0, lineNo - 1)).reduce((n, l) => n + l.length + 1, 0);
	const at = statement.indexOf(m[1], lineStart);
	return at === -1 ? statement.indexOf(m[1]) : at;
}
