/**
 * Runs a db block: the connection looked up, the SQL split per its dialect, each `{{…}}`
 * resolved and bound as a parameter, the statements run by the connection's driver, and the
 * outcome made a `BlockResult` (rows for the panel and references, an error underlined at
 * its line and column, one history row without values or SQL).
 */
import { bindReferences, lineColumnAt, resolveTemplate, splitStatements, type DbNoteBlock, type SqlDialect, type SqlStatement } from "../../blocks";
import { failedError, failureText } from "../failures";
import { DEFAULT_MAX_ROWS, type Connection } from "../../settings/connections";
import type { ExecuteOptions, ExecutorDeps, HistoryEntry } from "../executor";
import { referenceSources, type PrepareContext } from "../prepare";
import { DEFAULT_TIMEOUT_MS } from "../request";
import type { FinalState, RunError } from "../result";
import type { KindRunner } from "../kind-runner";
import { dbErrorAt, kindsLabel, readDbPath, type DbBlockRun, type DbDeps, type DbRun } from "./db-result";
import type { BoundStatement, DbDriver, QueryOptions } from "./driver";
import { connectionOf } from "./connection-of";
import { refusedOnHistory } from "./history-connection";
import { dbFailureText } from "./failures";

/** A finished db run. */
export type DbResult = DbBlockRun & { state: FinalState };

/** A db block made ready to run: its driver, its statements with bound values, and how to place errors. */
export interface PreparedDb {
	name: string;
	connection: Connection;
	driver: DbDriver;
	statements: BoundStatement[];
	/** Maps (statement, offset in the sent text) to a 0-based note line and column. */
	locate(statement: number, offset: number): { line: number; column: number };
	timeoutMs: number;
	maxRows: number;
}

export type DbPreparation = { ok: true; prepared: PreparedDb } | { ok: false; error: RunError; errorAt?: { line: number; column: number } };

/** SQLite and MySQL compare a bound integer to a column as a number; text stays text. */
function paramValue(value: string, dialect: SqlDialect): string | number {
	return dialect !== "postgres" && /^-?(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : value;
}

export function prepareDb(block: DbNoteBlock, deps: DbDeps | undefined, ctx: PrepareContext): DbPreparation {
	if (!block.runnable) {
		const first = block.problems.find((p) => p.severity === "error");
		return { ok: false, error: { code: "invalid_block", message: first ? `Line ${first.line + 1}: ${first.message}` : "This block cannot run" } };
	}
	if (!deps) return { ok: false, error: { code: "driver_unavailable", message: dbFailureText("driver_unavailable", "blocks") } };
	const found = connectionOf(block, deps.connections);
	if (!found.ok) return found;
	const { name, connection } = found;
	const dialect: SqlDialect = connection.type;
	const sql = block.db.sql;
	const contentLine = block.fence.startLine + 1;
	const place = (offsetInSql: number) => {
		const at = lineColumnAt(sql, offsetInSql);
		return { line: contentLine + at.line, column: at.column };
	};
	const sources = referenceSources(ctx);
	const statements: BoundStatement[] = [];
	const mappers: Array<{ from: number; originalOffset(o: number): number }> = [];
	const parts: SqlStatement[] = splitStatements(sql, dialect);
	if (connection.type === "sqlite" && connection.builtIn === "history") {
		const refused = refusedOnHistory(parts);
		if (refused) return { ok: false, error: { code: "read_only", message: dbFailureText("read_only", name, refused.keyword) }, errorAt: place(parts[refused.index].from) };
	}
	for (const s of parts) {
		const binding = bindReferences(s.text, dialect);
		if (!binding.ok) return { ok: false, error: { code: binding.error.code, message: binding.error.message }, errorAt: place(s.from + binding.error.at) };
		const params: Array<string | number | null> = [];
		for (const b of binding.references) {
			const r = resolveTemplate(b.reference.text, sources);
			if (r.errors.length > 0) {
				const e = r.errors[0];
				const unset = ctx.unsetSecrets?.has(b.reference.inner);
				return {
					ok: false,
					error: { code: "unresolved_reference", message: unset ? failureText("unset_secret", b.reference.text) : e.message },
					errorAt: place(s.from + b.from),
				};
			}
			params.push(paramValue(r.value, dialect));
		}
		statements.push({ text: binding.text, params, kind: s.kind });
		mappers.push({ from: s.from, originalOffset: binding.originalOffset });
	}
	if (statements.length === 0) return { ok: false, error: { code: "invalid_block", message: dbFailureText("no_statements") } };
	const driver = deps.drivers.get(name, connection);
	if (!driver.ok) return { ok: false, error: { code: driver.code === "connect_failed" ? "connect_failed" : driver.code, message: driver.message, ...(driver.detail ? { detail: driver.detail } : {}) } };
	return {
		ok: true,
		prepared: {
			name,
			connection,
			driver: driver.driver,
			statements,
			locate: (statement, offset) => {
				const m = mappers[statement] ?? mappers[0];
				return place(m.from + m.originalOffset(offset));
			},
			timeoutMs: block.info.tokens.timeout ?? connection.timeout ?? ctx.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
			maxRows: connection.maxRows ?? DEFAULT_MAX_ROWS,
		},
	};
}

/** Runs a prepared db block (or its EXPLAIN) to a final result, recording one history row. */
export async function executeDb(p: PreparedDb, deps: ExecutorDeps, opts: Omit<ExecuteOptions, "envSnapshot">): Promise<DbResult> {
	const now = deps.now ?? Date.now;
	const startedAt = now();
	const base: DbRun = { connection: p.name, dialect: p.driver.dialect, columns: [], rows: [], rowCount: 0, truncated: false, statements: [] };
	opts.onUpdate?.({ kind: "db", state: "running", startedAt, db: base });
	const query: QueryOptions = { signal: opts.signal, timeoutMs: p.timeoutMs, maxRows: Math.max(p.maxRows, opts.kindOptions?.db?.maxRows ?? 0) };
	const explain = opts.kindOptions?.db?.explain;
	let result: DbResult;
	if (explain) {
		const target = p.statements[p.statements.length - 1];
		const e = await p.driver.explain(target, { ...query, analyze: explain.analyze });
		result = e.kind === "done" ? { kind: "db", state: "done", startedAt, timing: e.timing, db: { ...base, plan: e.plan, statements: [{ kind: "explain", rowCount: null }] } } : finish(e, p, base, startedAt);
	} else {
		const out = await p.driver.run(p.statements, query);
		result =
			out.kind === "done"
				? { kind: "db", state: "done", startedAt, timing: out.timing, db: { ...base, columns: out.columns, rows: out.rows, rowCount: out.columns.length > 0 ? out.rowCount : (out.statements[out.statements.length - 1]?.rowCount ?? 0), truncated: out.truncated, statements: out.statements } }
				: finish(out, p, base, startedAt);
	}
	deps.history?.record(historyEntry(p, result, opts, startedAt));
	return result;
}

function finish(out: Exclude<Awaited<ReturnType<DbDriver["run"]>>, { kind: "done" }>, p: PreparedDb, base: DbRun, startedAt: number): DbResult {
	if (out.kind === "cancelled") {
		const error: RunError = out.reason === "timeout" ? { code: "timeout", message: dbFailureText("timeout", p.timeoutMs) } : failedError("cancelled", undefined);
		return { kind: "db", state: "cancelled", startedAt, timing: out.timing, error, db: base };
	}
	const errorAt = out.position ? p.locate(out.position.statement, out.position.offset) : undefined;
	const where = errorAt ? `line ${errorAt.line + 1}, column ${errorAt.column + 1}` : "";
	const detail = [out.code === "sql_error" ? "" : out.detail, out.engineCode, where].filter(Boolean).join(" · ");
	return {
		kind: "db",
		state: "failed",
		startedAt,
		timing: out.timing,
		error: { code: out.code, message: out.message, ...(detail ? { detail } : {}) },
		db: { ...base, ...(errorAt ? { errorAt } : {}), ...(out.engineCode ? { engineCode: out.engineCode } : {}) },
	};
}

/** History of a db run: connection, statement kinds, row count — never values or SQL. */
function historyEntry(p: PreparedDb, result: DbResult, opts: Omit<ExecuteOptions, "envSnapshot">, startedAt: number): HistoryEntry {
	return {
		filePath: opts.filePath,
		alias: opts.historyAlias,
		method: kindsLabel(p.statements.map((s) => s.kind)),
		url: `db:${p.name}`,
		status: null,
		outcome: result.state === "done" ? "done" : result.state === "cancelled" ? "cancelled" : "failed",
		errorCode: result.error?.code ?? null,
		requestBytes: 0,
		responseBytes: 0,
		durationMs: result.timing?.total ?? Date.now() - startedAt,
		timestamp: startedAt,
		transport: p.driver.dialect,
		itemCount: result.state === "done" ? (result.db?.rowCount ?? null) : null,
	};
}

/** A db block: connection looked up, references bound as parameters, statements run by its driver. */
export const DB_RUNNER: KindRunner<DbNoteBlock> = {
	async run(block, ctx) {
		const prepared = prepareDb(block, ctx.deps.kinds?.db, ctx.prepare);
		if (!prepared.ok) return { kind: "db", state: "failed", error: prepared.error, ...(prepared.errorAt ? { db: dbErrorAt(block, prepared.errorAt) } : {}) };
		return executeDb(prepared.prepared, ctx.deps, ctx.execute);
	},
	read: readDbPath,
	// A plan is not the block's rows: references keep reading its last query's result.
	keepsForReferences: (options) => options.db?.explain === undefined,
};
