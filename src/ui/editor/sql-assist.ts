import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import type * as LangSql from "@codemirror/lang-sql";
import { EditorState, type Extension, type Range } from "@codemirror/state";
import { Decoration, hoverTooltip, ViewPlugin, type DecorationSet, type EditorView, type Tooltip, type ViewUpdate } from "@codemirror/view";
import { highlightTree, tagHighlighter, tags } from "@lezer/highlight";
import { sqlObjectAt, sqlSpotAt, sqlSuggestions, type AssistColumn, type DbNoteBlock, type SqlDialect, type SqlObject, type SqlSuggestion } from "../../blocks";
import { connectionOf } from "../../runner/db/connection-of";
import type { SchemaCache } from "../../runner/db/schema-cache";
import type { Connection } from "../../settings/connections";
import { t } from "../strings";
import { blocksOf, noteBlocks } from "./note-blocks";

/** What the SQL editor needs from the plugin: the configured connections and their schemas. */
export interface SqlAssistPort {
	connections(): Readonly<Record<string, Connection>>;
	schemas: SchemaCache;
}

let dialects: Record<SqlDialect, LangSql.SQLDialect> | null = null;

/** @codemirror/lang-sql's dialects, required when a db block is first highlighted (a text module of main.js, docs/architecture.md). */
function dialectOf(dialect: SqlDialect): LangSql.SQLDialect {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
	const { SQLite, PostgreSQL, MySQL } = require("@codemirror/lang-sql") as typeof LangSql;
	dialects ??= { sqlite: SQLite, postgres: PostgreSQL, mysql: MySQL };
	return dialects[dialect];
}

/** A db block's SQL as the assist reads it: the content lines without their container prefix, and the way back to document offsets. */
interface BlockSql {
	block: DbNoteBlock;
	sql: string;
	toDoc(offset: number): number;
}

function blockSql(block: DbNoteBlock): BlockSql {
	const { contentLines, contentOffsets } = block.fence;
	const starts: number[] = [];
	let at = 0;
	for (const line of contentLines) {
		starts.push(at);
		at += line.length + 1;
	}
	return {
		block,
		sql: contentLines.join("\n"),
		toDoc: (offset) => {
			let i = starts.length - 1;
			while (i > 0 && starts[i] > offset) i--;
			return contentOffsets[i] + Math.min(offset - starts[i], contentLines[i].length);
		},
	};
}

/** The db block whose SQL holds document position `pos`, and `pos` as an offset in that SQL. */
function sqlAt(state: EditorState, pos: number): { at: BlockSql; offset: number } | null {
	for (const block of blocksOf(state)) {
		if (block.kind !== "db" || pos < block.fence.from || pos > block.fence.to) continue;
		const { contentLines, contentOffsets } = block.fence;
		let start = 0;
		for (let i = 0; i < contentLines.length; i++) {
			const from = contentOffsets[i];
			if (pos >= from && pos <= from + contentLines[i].length) return { at: blockSql(block), offset: start + pos - from };
			start += contentLines[i].length + 1;
		}
		return null;
	}
	return null;
}

/** The block's connection name and dialect, when one is configured for it. */
function connectionFor(port: SqlAssistPort, block: DbNoteBlock): { name: string; dialect: SqlDialect } | null {
	const found = connectionOf(block, port.connections());
	return found.ok ? { name: found.name, dialect: found.connection.type } : null;
}

/** A column's facts in the user's language: `not null · primary key · → authors.id`. */
export function columnFactsText(c: AssistColumn): string {
	return [t(c.nullable ? "sqlNullable" : "sqlNotNull"), c.primaryKey ? t("sqlPrimaryKey") : "", c.references ? t("sqlReferences", { target: c.references }) : ""].filter(Boolean).join(" · ");
}

function completionOf(s: SqlSuggestion): Completion {
	if (s.column) return { label: s.label, type: "property", detail: s.detail, info: `${s.table.name}.${s.column.name}: ${s.column.type} · ${columnFactsText(s.column)}`, boost: s.boost };
	return { label: s.label, type: s.kind === "view" ? "interface" : "class", detail: t(s.kind === "view" ? "sqlView" : "sqlTable"), info: s.info, boost: s.boost };
}

/** Tables and columns with their types, from the connection's schema (read once, cached). */
function sqlCompletion(port: SqlAssistPort) {
	return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
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
	};
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
function sqlHover(port: SqlAssistPort): Extension {
	return hoverTooltip(async (view: EditorView, pos: number): Promise<Tooltip | null> => {
		const found = sqlAt(view.state, pos);
		if (!found) return null;
		const conn = connectionFor(port, found.at.block);
		if (!conn) return null;
		const schema = await port.schemas.get(conn.name);
		if (schema.kind !== "done") return null;
		const o = sqlObjectAt(found.at.sql, found.offset, conn.dialect, schema.tables);
		if (!o) return null;
		return { pos: found.at.toDoc(o.from), end: found.at.toDoc(o.to), above: true, create: () => ({ dom: hoverDom(o) }) };
	});
}

/** Tags of @codemirror/lang-sql's grammar as classes styled with Obsidian's code colours (styles.css). */
const highlighter = tagHighlighter([
	{ tag: tags.keyword, class: "rb-sql-keyword" },
	{ tag: [tags.string, tags.special(tags.string)], class: "rb-sql-string" },
	{ tag: [tags.number, tags.bool, tags.null], class: "rb-sql-value" },
	{ tag: [tags.lineComment, tags.blockComment], class: "rb-sql-comment" },
	{ tag: tags.typeName, class: "rb-sql-type" },
	{ tag: [tags.standard(tags.name), tags.special(tags.name)], class: "rb-sql-builtin" },
	{ tag: tags.operator, class: "rb-sql-operator" },
]);

/** Highlighted tokens of a SQL text, as [from, to, class] in the text. */
type SqlTokens = Array<[number, number, string]>;

/** Parses and highlights a SQL text once: a keystroke re-highlights the note, but only the edited block's SQL changed. */
function tokensOf(dialect: SqlDialect, sql: string, memo: Map<string, SqlTokens>): SqlTokens {
	const key = `${dialect}\u0000${sql}`;
	let tokens = memo.get(key);
	if (!tokens) {
		const found: SqlTokens = (tokens = []);
		highlightTree(dialectOf(dialect).language.parser.parse(sql), highlighter, (from, to, cls) => found.push([from, to, cls]));
		// Texts of blocks since edited away are dropped wholesale now and then, not tracked one by one.
		if (memo.size >= 500) memo.clear();
		memo.set(key, tokens);
	}
	return tokens;
}

/** Marks for every db block's SQL, parsed with its connection's dialect (the standard one without a connection). */
function highlight(port: SqlAssistPort, state: EditorState, memo: Map<string, SqlTokens>): DecorationSet {
	const marks: Array<Range<Decoration>> = [];
	for (const block of blocksOf(state)) {
		if (block.kind !== "db") continue;
		const at = blockSql(block);
		for (const [from, to, cls] of tokensOf(connectionFor(port, block)?.dialect ?? "sqlite", at.sql, memo)) {
			// A token across lines (a block comment, a string) is marked line by line: prefixes stay unmarked.
			let start = from;
			while (start < to) {
				const nl = at.sql.indexOf("\n", start);
				const end = nl === -1 || nl >= to ? to : nl;
				if (end > start) marks.push(Decoration.mark({ class: cls }).range(at.toDoc(start), at.toDoc(end)));
				start = end + 1;
			}
		}
	}
	return Decoration.set(marks, true);
}

function sqlHighlight(port: SqlAssistPort): Extension {
	const memo = new Map<string, SqlTokens>();
	return ViewPlugin.define(
		(view) => ({
			decorations: highlight(port, view.state, memo),
			/** The settings the dialects were read from: user.toml loads after the editor opens, and may change. */
			connections: port.connections(),
			update(u: ViewUpdate) {
				const connections = port.connections();
				if (!u.docChanged && connections === this.connections) return;
				this.connections = connections;
				this.decorations = highlight(port, u.state, memo);
			},
		}),
		{ decorations: (v) => v.decorations },
	);
}

/**
 * The SQL editor inside db blocks (Source mode and Live Preview while editing): highlighting by
 * the connection's dialect, completion of tables and typed columns, hover facts of a column.
 * Completion comes through language data, so the autocompletion configuration of Obsidian or of
 * another plugin is never overridden.
 */
export function sqlAssist(port: SqlAssistPort): Extension {
	const source = sqlCompletion(port);
	return [
		noteBlocks,
		autocompletion(),
		EditorState.languageData.of((state, pos) => (sqlAt(state, pos) ? [{ autocomplete: source }] : [])),
		sqlHover(port),
		sqlHighlight(port),
	];
}
