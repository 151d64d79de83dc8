/** How the CLI shows a db block's result: one line, a table preview, and the `--json` shape. */
import type { DbColumn, DbRow, DbValue } from "../runner/db/driver";
import { dbOf } from "../runner/db/db-result";
import type { BlockResult } from "../runner/result";

/** `db:shop SELECT; SELECT → 3 rows` (or the affected rows of a write). */
export function dbSummary(result: BlockResult, connection: string | undefined): string {
	const db = dbOf(result);
	const name = db?.connection || connection || "?";
	const kinds = db && db.statements.length > 0 ? db.statements.map((s) => s.kind.toUpperCase()).join("; ") : "SQL";
	const rows = db && result.state === "done" ? (db.plan ? " → plan" : ` → ${db.rowCount} row${db.rowCount === 1 ? "" : "s"}${db.truncated ? ` (${db.rows.length} kept)` : ""}`) : "";
	return `db:${name} ${kinds}${rows}`;
}

function cell(v: DbValue): string {
	if (v === null) return "NULL";
	return typeof v === "string" ? v : JSON.stringify(v);
}

/** The first rows as an aligned text table (NULL written as NULL), cut to `width` per column. */
export function dbTable(columns: readonly DbColumn[], rows: readonly DbRow[], maxRows = 10, width = 40): string[] {
	if (columns.length === 0) return [];
	const keys = Object.keys(rows[0] ?? {});
	const names = columns.map((c, i) => keys[i] ?? c.name);
	const shown = rows.slice(0, maxRows).map((r) => names.map((k) => cell(r[k] ?? null).replace(/\s+/g, " ")));
	const cut = (s: string) => (s.length > width ? `${s.slice(0, width - 1)}…` : s);
	const head = columns.map((c) => cut(`${c.name} (${c.type})`));
	const widths = head.map((h, i) => Math.max(h.length, ...shown.map((r) => cut(r[i]).length)));
	const line = (cells: string[]) => cells.map((c, i) => cut(c).padEnd(widths[i])).join(" │ ").trimEnd();
	const out = [line(head), widths.map((w) => "─".repeat(w)).join("─┼─"), ...shown.map(line)];
	if (rows.length > maxRows) out.push(`… ${rows.length - maxRows} more`);
	return out;
}

/** The `db` part of `run --json`: columns with types, rows (objects), rowCount, statements, plan. */
export function dbJson(result: BlockResult): Record<string, unknown> | undefined {
	const db = dbOf(result);
	if (!db) return undefined;
	return {
		connection: db.connection,
		columns: db.columns,
		rows: db.rows,
		rowCount: db.rowCount,
		truncated: db.truncated,
		statements: db.statements,
		...(db.plan ? { plan: db.plan } : {}),
		...(db.errorAt ? { errorAt: { line: db.errorAt.line + 1, column: db.errorAt.column + 1 } } : {}),
		...(db.engineCode ? { engineCode: db.engineCode } : {}),
	};
}
