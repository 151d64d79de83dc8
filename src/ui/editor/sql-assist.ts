import { autocompletion, type CompletionContext } from "@codemirror/autocomplete";
import type * as LangSql from "@codemirror/lang-sql";
import { EditorState, type Extension, type Range } from "@codemirror/state";
import { Decoration, hoverTooltip, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { highlightTree, tagHighlighter, tags } from "@lezer/highlight";
import type { SqlDialect } from "../../blocks";
import { blockSql, connectionFor, sqlAt, type SqlAssistPort } from "./block-sql";
import { blocksOf, noteBlocks } from "./note-blocks";
import type * as SchemaAssist from "./sql-schema-assist";

export type { SqlAssistPort } from "./block-sql";

let dialects: Record<SqlDialect, LangSql.SQLDialect> | null = null;

/** @codemirror/lang-sql's dialects, required when a db block is first highlighted (a text module of main.js, docs/architecture.md). */
function dialectOf(dialect: SqlDialect): LangSql.SQLDialect {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
	const { SQLite, PostgreSQL, MySQL } = require("@codemirror/lang-sql") as typeof LangSql;
	dialects ??= { sqlite: SQLite, postgres: PostgreSQL, mysql: MySQL };
	return dialects[dialect];
}

/** Completion and hover, with the assist they read, required on their first use (a text module of main.js). */
function schemaAssist(): typeof SchemaAssist {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("./sql-schema-assist") as typeof SchemaAssist;
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
	const source = (ctx: CompletionContext) => schemaAssist().completeSql(port, ctx);
	return [
		noteBlocks,
		autocompletion(),
		EditorState.languageData.of((state, pos) => (sqlAt(state, pos) ? [{ autocomplete: source }] : [])),
		hoverTooltip((view, pos) => schemaAssist().hoverSql(port, view, pos)),
		sqlHighlight(port),
	];
}
