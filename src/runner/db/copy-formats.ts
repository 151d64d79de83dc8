/**
 * A result set as text for the clipboard: CSV (RFC 4180), TSV (as spreadsheets paste it),
 * a Markdown table (for the note itself) and JSON (the rows as references read them). Pure:
 * the panel calls them inside the click, so the clipboard write keeps the user gesture.
 *
 * NULL is an empty field in CSV, TSV and Markdown (an empty string is `""` in CSV, so the two
 * stay apart there) and `null` in JSON.
 */
import type { DbColumn, DbRow, DbValue } from "./driver";
import { rowKeys } from "./rows";

export type CopyFormat = "csv" | "tsv" | "markdown" | "json";
export const COPY_FORMATS: readonly CopyFormat[] = ["csv", "tsv", "markdown", "json"];

/** A cell as text: strings as they are, numbers and booleans as written, JSON values as JSON. */
function plain(v: DbValue): string {
	if (v === null) return "";
	return typeof v === "string" ? v : JSON.stringify(v);
}

/** RFC 4180: quoted when it holds the separator, a quote, a line break or edge spaces; quotes doubled. */
function quoted(v: DbValue, separator: string): string {
	if (v === null) return "";
	const text = plain(v);
	const needs = text === "" ? separator === "," : text.includes(separator) || /["\r\n]/.test(text) || /^\s|\s$/.test(text);
	return needs ? `"${text.replace(/"/g, '""')}"` : text;
}

function delimited(columns: readonly DbColumn[], rows: readonly DbRow[], separator: string, eol: string): string {
	const keys = rowKeys(columns);
	const lines = [columns.map((c) => quoted(c.name, separator)).join(separator)];
	for (const row of rows) lines.push(keys.map((k) => quoted(row[k] ?? null, separator)).join(separator));
	return lines.join(eol) + eol;
}

export function toCsv(columns: readonly DbColumn[], rows: readonly DbRow[]): string {
	return delimited(columns, rows, ",", "\r\n");
}

/** Tab-separated, cells with a tab, quote or line break quoted (what spreadsheets paste back as one cell). */
export function toTsv(columns: readonly DbColumn[], rows: readonly DbRow[]): string {
	return delimited(columns, rows, "\t", "\n");
}

/** A GitHub/Obsidian table: `|` escaped, line breaks as `<br>`, so every row stays one line. */
function markdownCell(v: DbValue): string {
	return plain(v)
		.replace(/\\/g, "\\\\")
		.replace(/\|/g, "\\|")
		.replace(/\r?\n|\r/g, "<br>");
}

export function toMarkdown(columns: readonly DbColumn[], rows: readonly DbRow[]): string {
	const keys = rowKeys(columns);
	const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
	const out = [line(columns.map((c) => markdownCell(c.name))), line(columns.map(() => "---"))];
	for (const row of rows) out.push(line(keys.map((k) => markdownCell(row[k] ?? null))));
	return out.join("\n") + "\n";
}

/** The rows as objects, exactly as `{{alias.response.body}}` reads them (big integers stay strings). */
export function toJson(columns: readonly DbColumn[], rows: readonly DbRow[]): string {
	const keys = rowKeys(columns);
	return JSON.stringify(rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null]))), null, 2);
}

export function formatRows(format: CopyFormat, columns: readonly DbColumn[], rows: readonly DbRow[]): string {
	switch (format) {
		case "csv":
			return toCsv(columns, rows);
		case "tsv":
			return toTsv(columns, rows);
		case "markdown":
			return toMarkdown(columns, rows);
		case "json":
			return toJson(columns, rows);
	}
}
