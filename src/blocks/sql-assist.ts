/**
 * What the editor offers inside a db block's SQL (docs/db.md): at a position, whether a table
 * or a column name is being typed (and of which table, after `alias.`), the tables and columns
 * to suggest with their types, and which table or column a word names (hover, Mod+K).
 * Pure: the schema comes in as data, offsets are into the block's SQL. Names compare without
 * case, as unquoted SQL names do.
 */
import { lexSql, splitStatements, type SqlDialect } from "./db-sql";
import { tableLabel, type AssistColumn, type AssistTable } from "./sql-schema";

/** Where the cursor is: typing a table name, a column name (of `qualifier`'s table when written), or neither. */
export interface SqlSpot {
	kind: "table" | "column" | "none";
	/** Start of the name being typed (the cursor when nothing is typed yet). */
	from: number;
	prefix: string;
	/** The name before `.` (`b` of `b.ti`), when there is one. */
	qualifier?: string;
}

/** A table named in a statement's FROM/JOIN/UPDATE/INTO, with the alias it was given. */
export interface TableRef {
	name: string;
	alias?: string;
}

export interface SqlSuggestion {
	label: string;
	kind: "table" | "view" | "column";
	/** Shown beside the label: a column's type (and its table when several are in scope), "table", "view". */
	detail: string;
	/** Shown on selection: a column's facts (`not null · primary key · → authors.id`), a table's columns. */
	info: string;
	/** Higher first: columns of the tables in scope come before other names. */
	boost: number;
	/** The table suggested, or whose column is suggested. */
	table: AssistTable;
	column?: AssistColumn;
}

export type SqlObject =
	| { kind: "column"; table: AssistTable; column: AssistColumn; from: number; to: number }
	| { kind: "table"; table: AssistTable; from: number; to: number };

const WORD = /[A-Za-z_][A-Za-z0-9_$]*$/;
/** Keywords after which a table name comes. */
const TABLE_BEFORE = new Set(["from", "join", "into", "update", "table", "describe", "desc"]);
/** Clause keywords: the last one before the cursor says what a name after a comma is. */
const CLAUSES = new Set(["select", "from", "join", "where", "on", "group", "order", "having", "limit", "set", "values", "returning", "using", "into", "update", "by"]);
/** Words that end a FROM item, so they are never an alias. */
const NOT_ALIAS = new Set(["where", "join", "on", "left", "right", "inner", "outer", "full", "cross", "natural", "group", "order", "having", "limit", "offset", "union", "except", "intersect", "set", "values", "using", "returning", "window", "select", "as", "lateral", "fetch", "for"]);

const lower = (s: string) => s.toLowerCase();
const unquote = (s: string) => (/^["`[]/.test(s) ? s.slice(1, -1) : s);

/** The SQL with strings, comments and dollar-quoted bodies blanked (same length, so offsets hold). */
function codeOnly(sql: string, dialect: SqlDialect): { code: string; inCode: (offset: number) => boolean } {
	const segments = lexSql(sql, dialect);
	let code = "";
	for (const s of segments) code += s.type === "code" || s.type === "identifier" ? sql.slice(s.from, s.to) : sql.slice(s.from, s.to).replace(/[^\n]/g, " ");
	const inCode = (offset: number) => {
		// A position at the end of a string or comment (just after its closing quote) is code again.
		const s = segments.find((x) => x.from < offset && offset < x.to) ?? segments.find((x) => x.to === offset);
		if (!s || s.type === "code") return true;
		if (s.type === "comment") return false;
		return s.to === offset && s.to - s.from >= 2 && sql[s.to - 1] === sql[s.from];
	};
	return { code, inCode };
}

/** The statement around `offset`: its start and end in the SQL. */
function statementAround(sql: string, offset: number, dialect: SqlDialect): { from: number; to: number } {
	let from = 0;
	for (const s of splitStatements(sql, dialect)) {
		if (offset >= s.from && offset <= s.to + 1) return { from: s.from, to: s.to };
		if (s.to < offset) from = s.to + 1;
	}
	return { from, to: sql.length };
}

/** Tables of a statement's FROM, JOIN, UPDATE and INTO clauses, with their aliases, in order. */
export function tablesInStatement(statement: string, dialect: SqlDialect = "sqlite"): TableRef[] {
	const { code } = codeOnly(statement, dialect);
	const out: TableRef[] = [];
	const name = String.raw`(?:"[^"]+"|\x60[^\x60]+\x60|\[[^\]]+\]|[A-Za-z_][\w$]*)`;
	const item = new RegExp(String.raw`\s*(${name}(?:\s*\.\s*${name})?)(?:\s+(?:as\s+)?(${name}))?`, "iy");
	const head = /\b(from|join|update|into)\b/gi;
	let m: RegExpExecArray | null;
	while ((m = head.exec(code)) !== null) {
		let at = head.lastIndex;
		for (;;) {
			item.lastIndex = at;
			const it = item.exec(code);
			if (!it || /^\(/.test(code.slice(at).trimStart())) break;
			const written = it[1].split(/\s*\.\s*/).map(unquote);
			const tableName = written[written.length - 1];
			if (CLAUSES.has(lower(tableName)) || lower(tableName) === "select") break;
			let alias = it[2] ? unquote(it[2]) : undefined;
			let end = item.lastIndex;
			if (alias && NOT_ALIAS.has(lower(alias))) {
				alias = undefined;
				end = at + it[0].indexOf(it[1]) + it[1].length;
			}
			out.push({ name: written.join("."), ...(alias ? { alias } : {}) });
			// `FROM a x, b y`: a comma lists another table; JOIN and the rest start their own match.
			const comma = /^\s*,/.exec(code.slice(end));
			if (lower(m[1]) !== "from" || !comma) break;
			at = end + comma[0].length;
		}
	}
	return out;
}

/** The last word of `text` that is not inside parentheses opened after it, lower-cased. */
function lastToken(text: string): string {
	const t = text.trimEnd();
	if (t === "") return "";
	const last = t[t.length - 1];
	if (!/[\w$]/.test(last)) return last;
	return lower(/[A-Za-z_][\w$]*$/.exec(t)?.[0] ?? "");
}

/** The last clause keyword of `text` at the cursor's parenthesis depth. */
function lastClause(text: string): string {
	let depth = 0;
	const words = [...text.matchAll(/[A-Za-z_][\w$]*|[()]/g)].map((m) => m[0]);
	for (let i = words.length - 1; i >= 0; i--) {
		const w = lower(words[i]);
		if (w === ")") depth++;
		else if (w === "(") {
			if (depth === 0) return "(";
			depth--;
		} else if (depth === 0 && CLAUSES.has(w)) return w;
	}
	return "";
}

/** What is being typed at `offset` of a block's SQL. */
export function sqlSpotAt(sql: string, offset: number, dialect: SqlDialect): SqlSpot {
	const { code, inCode } = codeOnly(sql, dialect);
	const before = code.slice(0, offset);
	const prefix = WORD.exec(before)?.[0] ?? "";
	const from = offset - prefix.length;
	const none: SqlSpot = { kind: "none", from, prefix };
	if (!inCode(offset)) return none;
	// Inside `{{…}}`: the reference completion's place, not ours.
	const line = before.slice(before.lastIndexOf("\n") + 1);
	if (line.lastIndexOf("{{") > line.lastIndexOf("}}")) return none;
	const dot = /((?:"[^"]+"|\x60[^\x60]+\x60|[A-Za-z_][\w$]*))\s*\.\s*$/.exec(code.slice(0, from));
	if (dot) return { kind: "column", from, prefix, qualifier: unquote(dot[1]) };
	const stmt = statementAround(sql, offset, dialect);
	const head = code.slice(Math.min(stmt.from, from), from);
	const previous = lastToken(head);
	if (previous === "") return none;
	if (TABLE_BEFORE.has(previous)) return { kind: "table", from, prefix };
	const clause = lastClause(head);
	if (previous === "," && (clause === "from" || clause === "update")) return { kind: "table", from, prefix };
	// `FROM books |`: an alias or the next keyword is being typed, not a name of the schema.
	if (/^[a-z_]/.test(previous) && (clause === "from" || clause === "join" || clause === "update" || clause === "into")) return none;
	// A keyword just typed with no operator after it (`SELECT`, `WHERE`, `AND`, `,`, `(`, `=`…) leads to a column.
	return { kind: "column", from, prefix };
}

function sameName(a: string, b: string): boolean {
	return lower(a) === lower(b);
}

/** The table a written name means: `books`, `public.books`, an alias of the statement. */
function resolveTable(written: string, refs: readonly TableRef[], tables: readonly AssistTable[]): AssistTable | undefined {
	const ref = refs.find((r) => r.alias && sameName(r.alias, written));
	const name = ref ? ref.name : written;
	const parts = name.split(".");
	const table = parts[parts.length - 1];
	const schema = parts.length > 1 ? parts[parts.length - 2] : undefined;
	return tables.find((t) => sameName(t.name, table) && (schema === undefined || sameName(t.schema, schema)));
}

/** A column's facts in words: `not null · primary key · → authors.id`. */
export function columnFacts(c: AssistColumn): string {
	return [c.nullable ? "null" : "not null", c.primaryKey ? "primary key" : "", c.references ? `→ ${c.references}` : ""].filter(Boolean).join(" · ");
}

function tableSuggestion(t: AssistTable, boost: number, label = tableLabel(t)): SqlSuggestion {
	return { label, kind: t.kind, detail: t.kind, info: t.columns.map((c) => `${c.name} ${c.type}`).join(", "), boost, table: t };
}

function columnSuggestion(t: AssistTable, c: AssistColumn, boost: number, withTable: boolean): SqlSuggestion {
	return { label: c.name, kind: "column", detail: withTable ? `${c.type} · ${t.name}` : c.type, info: `${t.name}.${c.name}: ${c.type} · ${columnFacts(c)}`, boost, table: t, column: c };
}

/**
 * What to offer at `offset`: tables where a table name goes; after `x.`, the columns of the
 * table `x` names (or the tables of schema `x`); elsewhere the columns of the statement's
 * tables with their types, then every table. Null where there is nothing to offer (a string,
 * a comment, a `{{…}}` reference, the first word of a statement). Every candidate is listed;
 * the editor filters by what is typed.
 */
export function sqlSuggestions(sql: string, offset: number, dialect: SqlDialect, tables: readonly AssistTable[]): { from: number; options: SqlSuggestion[] } | null {
	const spot = sqlSpotAt(sql, offset, dialect);
	if (spot.kind === "none") return null;
	if (spot.kind === "table") return { from: spot.from, options: tables.map((t) => tableSuggestion(t, 0)) };
	const stmt = statementAround(sql, offset, dialect);
	const refs = tablesInStatement(sql.slice(stmt.from, Math.max(stmt.to, offset)), dialect);
	if (spot.qualifier !== undefined) {
		const table = resolveTable(spot.qualifier, refs, tables);
		if (table) return { from: spot.from, options: table.columns.map((c) => columnSuggestion(table, c, 0, false)) };
		const inSchema = tables.filter((t) => sameName(t.schema, spot.qualifier ?? ""));
		return inSchema.length ? { from: spot.from, options: inSchema.map((t) => tableSuggestion(t, 0, t.name)) } : null;
	}
	const inScope = refs.map((r) => resolveTable(r.name, [], tables)).filter((t, i, all): t is AssistTable => t !== undefined && all.indexOf(t) === i);
	// Before FROM is written (`SELECT ti|`), every table's columns are candidates.
	const sources = inScope.length ? inScope : tables;
	const columns = sources.flatMap((t) => t.columns.map((c) => columnSuggestion(t, c, inScope.length ? 2 : 1, sources.length > 1)));
	return { from: spot.from, options: [...columns, ...tables.map((t) => tableSuggestion(t, 0))] };
}

/** The table or column the word at `offset` names (hover): qualified names first, then the statement's tables, then a name only one table has. */
export function sqlObjectAt(sql: string, offset: number, dialect: SqlDialect, tables: readonly AssistTable[]): SqlObject | null {
	const { code, inCode } = codeOnly(sql, dialect);
	if (!inCode(offset)) return null;
	const start = offset - (/[\w$]*$/.exec(code.slice(0, offset))?.[0].length ?? 0);
	const end = offset + (/^[\w$]*/.exec(code.slice(offset))?.[0].length ?? 0);
	const word = code.slice(start, end);
	if (!/^[A-Za-z_]/.test(word)) return null;
	const stmt = statementAround(sql, offset, dialect);
	const refs = tablesInStatement(sql.slice(stmt.from, stmt.to), dialect);
	const dot = /([A-Za-z_][\w$]*)\s*\.\s*$/.exec(code.slice(0, start));
	if (dot) {
		const table = resolveTable(dot[1], refs, tables);
		const column = table?.columns.find((c) => sameName(c.name, word));
		if (table && column) return { kind: "column", table, column, from: start, to: end };
		const inSchema = tables.find((t) => sameName(t.schema, dot[1]) && sameName(t.name, word));
		return inSchema ? { kind: "table", table: inSchema, from: start, to: end } : null;
	}
	// `books.title`: the word before a dot is a table (or an alias of one).
	const asTable = resolveTable(word, refs, tables);
	if (asTable && (/^\s*\./.test(code.slice(end)) || !asTable.columns.some((c) => sameName(c.name, word)))) return { kind: "table", table: asTable, from: start, to: end };
	const inScope = refs.map((r) => resolveTable(r.name, [], tables)).filter((t): t is AssistTable => t !== undefined);
	for (const pool of [inScope, tables]) {
		const owners = pool.filter((t) => t.columns.some((c) => sameName(c.name, word)));
		const table = owners[0];
		const column = table?.columns.find((c) => sameName(c.name, word));
		// Outside the statement's tables, a name several tables have is ambiguous: say nothing.
		if (table && column && (pool === inScope || owners.length === 1)) return { kind: "column", table, column, from: start, to: end };
	}
	return null;
}
