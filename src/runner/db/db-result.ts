/**
 * What a db block's run keeps (for the panel, `--json`, history and references), the
 * dependencies a db run needs, and how `{{alias.response…}}` reads a db result: rows as an
 * array of objects under `body`, and `rowCount`.
 */
import type { AliasPath, Lookup, SqlDialect, StatementKind } from "../../blocks";
import type { Connection } from "../../settings/connections";
import type { RunCommon, RunSnapshot } from "../result";
import { selectJson } from "../select-json";
import type { DbDrivers } from "./connect";
import type { DbColumn, DbRow, PlanNode, StatementSummary } from "./driver";

export type DbRunErrorCode =
	| "sql_error"
	| "save_failed"
	| "auth_failed"
	| "driver_unavailable"
	| "unknown_connection"
	| "read_only"
	| "secret_unset"
	| "identifier_reference"
	| "reference_in_string";

export interface DbRun {
	connection: string;
	dialect: SqlDialect;
	columns: DbColumn[];
	rows: DbRow[];
	/** Rows of the last result set in total (`rows` holds at most max_rows of them). */
	rowCount: number;
	truncated: boolean;
	statements: StatementSummary[];
	/** Where the error is, as 0-based note line and column (underlined in the block). */
	errorAt?: { line: number; column: number };
	/** The engine's error code (SQLSTATE, ER_…, SQLITE_…). */
	engineCode?: string;
	/** EXPLAIN runs: the plan tree. */
	plan?: PlanNode[];
}

export interface DbDeps {
	connections: Readonly<Record<string, Connection>>;
	drivers: DbDrivers;
}

/** How a db target runs: `maxRows` past the connection's (load more), or its EXPLAIN. */
export interface DbRunRequest {
	maxRows?: number;
	explain?: { analyze: boolean };
}

/** A db block's run: its statements' rows, or where it failed. */
export interface DbBlockRun extends RunCommon {
	kind: "db";
	/** Absent only for a run that failed before the block's SQL was looked at. */
	db?: DbRun;
}

declare module "../result" {
	interface KindRuns {
		db: DbBlockRun;
	}
	interface KindErrorCodes {
		db: DbRunErrorCode;
	}
	interface KindDeps {
		/** Connections and their drivers (absent: db blocks fail saying so). */
		db: DbDeps;
	}
	interface KindOptions {
		/** A db target's run as the user asked for it (more rows, its plan). */
		db: DbRunRequest;
	}
}

/** A db block's rows, plan or error position, or none for another kind's run. */
export function dbOf(run: RunSnapshot): DbRun | undefined {
	return run.kind === "db" ? run.db : undefined;
}

/** Statement kinds of a run as history's "method": `SELECT`, `INSERT; SELECT`. */
export function kindsLabel(kinds: readonly StatementKind[]): string {
	return kinds.map((k) => k.toUpperCase()).join("; ") || "SQL";
}

/** `{{alias.response.body…}}` / `{{alias.response.rowCount}}` of a db result. */
export function readDbPath(result: DbBlockRun, path: AliasPath): Lookup {
	const db = result.db;
	if (result.state !== "done" || !db) return { ok: false, message: `block "${path.alias}" ended ${result.state}${result.error ? ` (${result.error.message})` : ""}, so it has no rows` };
	if (path.part === "request") return { ok: false, message: `db block "${path.alias}" has no request to read: use ${path.alias}.response.body or .rowCount` };
	switch (path.section) {
		case "rowCount":
			return { ok: true, value: String(db.rowCount) };
		case "body": {
			const json = JSON.stringify(db.rows);
			return path.selector === "*" ? { ok: true, value: json } : selectJson(json, path.selector, `${path.alias}.response.body`);
		}
		default:
			return { ok: false, message: `db block "${path.alias}" has no ${path.section}: use ${path.alias}.response.body.$[0].column or .rowCount` };
	}
}

/** The db part of a result that failed before running: only where the error is. */
export function dbErrorAt(block: { info: { tokens: { connection?: string } } }, errorAt: { line: number; column: number }): DbRun {
	return { connection: block.info.tokens.connection ?? "", dialect: "sqlite", columns: [], rows: [], rowCount: 0, truncated: false, statements: [], errorAt };
}
