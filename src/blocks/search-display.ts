import { tableLabel, type AssistTable } from "./sql-schema";

/**
 * What Mod+K lists (docs/shortcuts.md): the entries of the search index and the one-line text each
 * shows, which is also the text the fuzzy matcher searches. Pure.
 */

/** A runnable block of a note. */
export interface BlockEntry {
	kind: "block";
	/** Vault path of the note. */
	path: string;
	/** 0-based line of the opening fence. */
	line: number;
	/** The `alias=` token, else the `# @name` directive. */
	alias?: string;
	/** Uppercase method of an http block ("GET"); "" for other blocks and http blocks without a request line. */
	method: string;
	/** The URL as written (references `{{...}}` unresolved) for http blocks; the first non-empty content line otherwise. */
	url: string;
	/** The fence language: "http", "db", "textdiff". */
	blockType: string;
}

/** A variable of an environment. Values are never indexed (secrets stay out of the search). */
export interface VariableEntry {
	kind: "variable";
	environment: string;
	name: string;
	secret: boolean;
}

/** A table (or view) or a column of a configured connection's schema. */
export interface SchemaEntry {
	kind: "schema";
	connection: string;
	/** The table as written in SQL (schema-qualified outside the default schema). */
	table: string;
	tableKind: "table" | "view";
	/** Column entries: its name and the engine's type. */
	column?: string;
	type?: string;
}

export type SearchEntry = BlockEntry | VariableEntry | SchemaEntry;

/** A connection's tables and their columns as search entries, in schema order. */
export function schemaEntries(connection: string, tables: readonly AssistTable[]): SchemaEntry[] {
	return tables.flatMap((t) => {
		const table = tableLabel(t);
		const head: SchemaEntry = { kind: "schema", connection, table, tableKind: t.kind };
		return [head, ...t.columns.map((c): SchemaEntry => ({ ...head, column: c.name, type: c.type }))];
	});
}

/** What choosing a schema entry inserts at the cursor: the table's name, or `table.column`. */
export function schemaInsertText(entry: SchemaEntry): string {
	return entry.column ? `${entry.table}.${entry.column}` : entry.table;
}

/** An entry's display text and where its alias sits in it (the matcher boosts that range). */
export interface Display {
	text: string;
	alias: [number, number] | null;
}

const SEPARATOR = " · ";

/** The note's name: the last path segment without its `.md` extension. */
export function noteName(path: string): string {
	const base = path.slice(path.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}

/** `displayText` with the range of the alias part, when there is one. */
export function displayOf(entry: SearchEntry): Display {
	if (entry.kind === "schema") {
		const what = entry.column === undefined ? `${entry.tableKind} ${entry.table}` : `column ${entry.table}.${entry.column} ${entry.type ?? ""}`.trimEnd();
		return { text: `${what}${SEPARATOR}${entry.connection}`, alias: null };
	}
	if (entry.kind === "variable") {
		const text = `{{${entry.name}}}${SEPARATOR}${entry.environment}${entry.secret ? `${SEPARATOR}secret` : ""}`;
		return { text, alias: null };
	}
	const head = [entry.method || entry.blockType, entry.url].filter((s) => s !== "").join(" ");
	let text = head;
	let alias: [number, number] | null = null;
	if (entry.alias) {
		text += SEPARATOR;
		alias = [text.length, text.length + entry.alias.length];
		text += entry.alias;
	}
	text += SEPARATOR + noteName(entry.path);
	return { text, alias };
}

/**
 * The one-line text the Mod+K list shows and the fuzzy matcher searches; match ranges
 * of a result index into it. Parts are joined with " · ":
 * - http block: `METHOD URL · alias · note` (`GET {{base}}/books · books · Bookshop`);
 * - other blocks: `type first-line · alias · note` (`db SELECT * FROM books · Bookshop`);
 * - variable: `{{name}} · environment`, plus ` · secret` for a secret;
 * - schema: `table books · shop`, `view titles · shop`, `column books.title TEXT · shop`.
 * The alias part is left out when the block has none; `note` is the file name without `.md`.
 */
export function displayText(entry: SearchEntry): string {
	return displayOf(entry).text;
}
