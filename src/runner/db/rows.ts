import type { DbColumn, DbRow, DbValue } from "./driver";

/** Object keys for columns: the name, or `name (2)`… when a name repeats (`SELECT a.id, b.id`). */
export function rowKeys(columns: readonly DbColumn[]): string[] {
	const seen = new Map<string, number>();
	return columns.map((c) => {
		const n = (seen.get(c.name) ?? 0) + 1;
		seen.set(c.name, n);
		return n === 1 ? c.name : `${c.name} (${n})`;
	});
}

/** The first `maxRows` array rows as objects (what references and `--json` read), and the total. */
export function rowsOf(columns: readonly DbColumn[], rows: readonly DbValue[][], maxRows: number): { rows: DbRow[]; rowCount: number; truncated: boolean } {
	const keys = rowKeys(columns);
	const kept = rows.length > maxRows ? rows.slice(0, maxRows) : rows;
	return {
		rows: kept.map((r) => {
			const o: DbRow = {};
			keys.forEach((k, i) => (o[k] = r[i] ?? null));
			return o;
		}),
		rowCount: rows.length,
		truncated: rows.length > maxRows,
	};
}
