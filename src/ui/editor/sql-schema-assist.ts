/**
 * The SQL editor's schema-aware part: completion of tables and typed columns, and hover facts.
 * Required on the first completion or hover in a db block (src/ui/editor/sql-assist.ts), as
 * main.js carries it, with the assist of src/blocks/sql-assist.ts, as a text module.
 */
import type { Completion, CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import type { EditorView, Tooltip } from "@codemirror/view";
import { sqlObjectAt, sqlSpotAt, sqlSuggestions, type SqlObject, type SqlSuggestion } from "../../blocks/sql-assist";
import type { AssistColumn } from "../../blocks/sql-schema";
import { t } from "../strings";
import { connectionFor, sqlAt, type SqlAssistPort } from "./block-sql";

/** A column's facts in the user's language: `not null · primary key · → authors.id`. */
export function columnFactsText(c: AssistColumn): string {
	return [t(c.nullable ? "sqlNullable" : "sqlNotNull"), c.primaryKey ? t("sqlPrimaryKey") : "", c.references ? t("sqlReferences", { target: c.references }) : ""].filter(Boolean).join(" · ");
}

function completionOf(s: SqlSuggestion): Completion {
	if (s.column) return { label: s.label, type: "property", detail: s.detail, info: `${s.table.name}.${s.column.name}: ${s.column.type} · ${columnFactsText(s.column)}`, boost: s.boost };
	return { label: s.label, type: s.kind === "view" ? "interface" : "class", detail: t(s.kind === "view" ? "sqlView" : "sqlTable"), info: s.info, boost: s.boost };
}

/** Tables and columns with their types, from the connection's schema (read once, cached). */
export async function completeSql(port: SqlAssistPort, ctx: CompletionContext): Promise<CompletionResult | null> {
	const found = sqlAt(ctx.state, ctx.pos);
	if (!found) return null;
	const conn = connectionFor(port, found.at.block);
	if (!conn) return null;
	const spot = sqlSpotAt(found.at.sql, found.offset, conn.dialect);
	// Typing a space after SELECT opens nothing; after FROM or `alias.` the list is what is wanted next.
	if (spot.kind === "none" || (!ctx.explicit && spot.prefix === "" && spot.kind === "column" && spot.qualifier === undefined)) return null;
	const schema = await port.schemas.get(conn.name);
	if (schema.kind !== "done") return null;
	const got = sqlSuggestions(found.at.sql, found.offset, conn.dialect, schema.tables);
	if (!got || got.options.length === 0) return null;
	return { from: found.at.toDoc(got.from), options: got.options.map(completionOf), validFor: /^[\w$]*$/ };
}

function hoverDom(o: SqlObject): HTMLElement {
	const el = createDiv({ cls: "rb-sql-hover" });
	if (o.kind === "table") {
		el.createDiv({ cls: "rb-sql-hover-name", text: `${t(o.table.kind === "view" ? "sqlView" : "sqlTable")} ${o.table.schema && o.table.schema !== "public" ? `${o.table.schema}.` : ""}${o.table.name}` });
		const list = el.createDiv({ cls: "rb-sql-hover-columns" });
		for (const c of o.table.columns) list.createDiv({ text: `${c.name} ${c.type}${c.primaryKey ? ` · ${t("sqlPrimaryKey")}` : ""}` });
		return el;
	}
	el.createDiv({ cls: "rb-sql-hover-name", text: `${o.table.name}.${o.column.name}` });
	el.createDiv({ cls: "rb-sql-hover-type", text: o.column.type });
	el.createDiv({ cls: "rb-sql-hover-facts", text: columnFactsText(o.column) });
	return el;
}

/** Hovering a column shows its type, nullability and key; hovering a table, its columns. */
export async function hoverSql(port: SqlAssistPort, view: EditorView, pos: number): Promise<Tooltip | null> {
	const found = sqlAt(view.state, pos);
	if (!found) return null;
	const conn = connectionFor(port, found.at.block);
	if (!conn) return null;
	const schema = await port.schemas.get(conn.name);
	if (schema.kind !== "done") return null;
	const o = sqlObjectAt(found.at.sql, found.offset, conn.dialect, schema.tables);
	if (!o) return null;
	return { pos: found.at.toDoc(o.from), end: found.at.toDoc(o.to), above: true, create: () => ({ dom: hoverDom(o) }) };
}
