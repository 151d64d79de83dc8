/**
 * SQL text as a db block needs it, per dialect: a lexer that knows quotes, comments and
 * dollar-quoting; statements split at top-level semicolons; each statement's kind; and
 * `{{…}}` references turned into positional parameters (never spliced into the text).
 * Pure: no I/O, no engine.
 */
import { findReferences, type Reference } from "./references";

export type SqlDialect = "sqlite" | "postgres" | "mysql";

export type SegmentType = "code" | "string" | "identifier" | "comment" | "dollar";

/** A run of SQL text of one lexical kind; offsets into the lexed text. */
export interface Segment {
	type: SegmentType;
	from: number;
	to: number;
}

/** Splits SQL into code, string literals, quoted identifiers, comments and dollar-quoted bodies. */
export function lexSql(sql: string, dialect: SqlDialect): Segment[] {
	const out: Segment[] = [];
	let codeStart = 0;
	let i = 0;
	const push = (type: SegmentType, from: number, to: number) => {
		if (codeStart < from) out.push({ type: "code", from: codeStart, to: from });
		out.push({ type, from, to });
		codeStart = to;
		i = to;
	};
	/** End (exclusive) of a quoted run opened at `at` by `q`; a doubled quote is an escaped one. */
	const quoted = (at: number, q: string, backslash: boolean): number => {
		let j = at + 1;
		while (j < sql.length) {
			const c = sql[j];
			if (backslash && c === "\\") {
				j += 2;
				continue;
			}
			if (c === q) {
				if (sql[j + 1] === q) {
					j += 2;
					continue;
				}
				return j + 1;
			}
			j++;
		}
		return sql.length;
	};
	while (i < sql.length) {
		const c = sql[i];
		const next = sql[i + 1];
		// A `{{…}}` reference is one piece of code: its `[0]`, quotes or `$` are not SQL.
		const close = c === "{" && next === "{" && sql[i - 1] !== "\\" ? sql.indexOf("}}", i + 2) : -1;
		if (close !== -1 && !sql.slice(i, close).includes("\n")) {
			i = close + 2;
		} else if (c === "-" && next === "-" && (dialect !== "mysql" || /[\s]/.test(sql[i + 2] ?? " "))) {
			const nl = sql.indexOf("\n", i);
			push("comment", i, nl === -1 ? sql.length : nl);
		} else if (c === "#" && dialect === "mysql") {
			const nl = sql.indexOf("\n", i);
			push("comment", i, nl === -1 ? sql.length : nl);
		} else if (c === "/" && next === "*") {
			const end = sql.indexOf("*/", i + 2);
			push("comment", i, end === -1 ? sql.length : end + 2);
		} else if (c === "'") {
			// PostgreSQL's E'…' strings and MySQL's default mode honour backslash escapes.
			const escaped = dialect === "mysql" || (dialect === "postgres" && /[eE]/.test(sql[i - 1] ?? "") && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? ""));
			push("string", i, quoted(i, "'", escaped));
		} else if (c === '"') {
			push(dialect === "mysql" ? "string" : "identifier", i, quoted(i, '"', dialect === "mysql"));
		} else if (c === "`" && dialect !== "postgres") {
			push("identifier", i, quoted(i, "`", false));
		} else if (c === "[" && dialect === "sqlite") {
			const end = sql.indexOf("]", i + 1);
			push("identifier", i, end === -1 ? sql.length : end + 1);
		} else if (c === "$" && dialect === "postgres" && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? "")) {
			const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
			if (tag) {
				const close = sql.indexOf(tag[0], i + tag[0].length);
				push("dollar", i, close === -1 ? sql.length : close + tag[0].length);
			} else i++;
		} else i++;
	}
	if (codeStart < sql.length) out.push({ type: "code", from: codeStart, to: sql.length });
	return out;
}

/** One statement of a block: its text (trimmed, without the closing `;`) and where it is. */
export interface SqlStatement {
	text: string;
	/** Offsets of `text` in the whole SQL. */
	from: number;
	to: number;
	kind: StatementKind;
}

/**
 * Read statements never change data; the rest are named by their first keyword.
 * `other` covers SET, BEGIN, USE… and anything we do not recognise.
 */
export type StatementKind = "select" | "insert" | "update" | "delete" | "merge" | "ddl" | "explain" | "transaction" | "other";

const READ = new Set(["select", "values", "table", "show", "describe", "desc", "pragma", "with"]);
const DDL = new Set(["create", "alter", "drop", "truncate", "rename", "comment", "grant", "revoke", "reindex", "vacuum", "analyze"]);
const TRANSACTION = new Set(["begin", "commit", "rollback", "start", "savepoint", "release", "end"]);

/** Words of the code segments at parenthesis depth 0, lower-cased, in order. */
function topLevelWords(sql: string, segments: readonly Segment[]): string[] {
	const words: string[] = [];
	let depth = 0;
	for (const s of segments) {
		if (s.type !== "code") continue;
		for (const m of sql.slice(s.from, s.to).matchAll(/[A-Za-z_][A-Za-z0-9_]*|[()]/g)) {
			if (m[0] === "(") depth++;
			else if (m[0] === ")") depth = Math.max(0, depth - 1);
			else if (depth === 0) words.push(m[0].toLowerCase());
		}
	}
	return words;
}

/** What a statement does, from its first keyword (a WITH is named by the statement its CTEs feed). */
export function statementKind(sql: string, dialect: SqlDialect = "sqlite"): StatementKind {
	const segments = lexSql(sql, dialect);
	const words = topLevelWords(sql, segments);
	// A parenthesised statement, `(SELECT 1)`, is named by its first word at any depth.
	const code = segments.filter((s) => s.type === "code").map((s) => sql.slice(s.from, s.to)).join(" ");
	let first = (/[A-Za-z_]+/.exec(code)?.[0] ?? "").toLowerCase();
	if (first === "with") first = words.find((w) => ["select", "insert", "update", "delete", "merge"].includes(w)) ?? "select";
	if (first === "replace" || first === "upsert") return "insert";
	if (first === "explain") return "explain";
	if (READ.has(first)) return "select";
	if (first === "insert" || first === "update" || first === "delete" || first === "merge") return first;
	if (DDL.has(first)) return "ddl";
	if (TRANSACTION.has(first)) return "transaction";
	return "other";
}

/**
 * Splits SQL at top-level semicolons (never inside a string, identifier, comment or
 * dollar-quoted body, nor inside the BEGIN … END body of a CREATE TRIGGER). Empty
 * statements (only whitespace or comments) are dropped.
 */
export function splitStatements(sql: string, dialect: SqlDialect): SqlStatement[] {
	const segments = lexSql(sql, dialect);
	const statements: SqlStatement[] = [];
	let start = 0;
	let triggerDepth = 0;
	let isTrigger: boolean | null = null;
	const close = (end: number) => {
		const piece = sql.slice(start, end);
		const inner = segments.filter((s) => s.to > start && s.from < end);
		const meaningful = inner.some((s) => s.type !== "comment" && sql.slice(Math.max(s.from, start), Math.min(s.to, end)).trim() !== "");
		if (meaningful) {
			const lead = piece.length - piece.trimStart().length;
			const text = piece.trim();
			statements.push({ text, from: start + lead, to: start + lead + text.length, kind: statementKind(text, dialect) });
		}
		start = end + 1;
		triggerDepth = 0;
		isTrigger = null;
	};
	for (const s of segments) {
		if (s.type !== "code") continue;
		const re = /[A-Za-z_][A-Za-z0-9_]*|;/g;
		re.lastIndex = s.from;
		let m: RegExpExecArray | null;
		while ((m = re.exec(sql)) !== null && m.index < s.to) {
			const word = m[0].toLowerCase();
			if (word === ";") {
				if (triggerDepth === 0) close(m.index);
				continue;
			}
			if (isTrigger === null && word !== "create" && word !== "temp" && word !== "temporary" && word !== "or" && word !== "replace") isTrigger = word === "trigger";
			if (!isTrigger) continue;
			if (word === "begin" || word === "case") triggerDepth++;
			else if (word === "end" && triggerDepth > 0) triggerDepth--;
		}
	}
	if (start <= sql.length) close(sql.length);
	return statements;
}

/** A `{{…}}` that became a parameter: the reference and where it was in the statement. */
export interface BoundReference {
	reference: Reference;
	/** Offsets of the replaced text in the statement (a quoted `'{{x}}'` is replaced whole). */
	from: number;
	to: number;
}

export interface BindError {
	code: "identifier_reference" | "reference_in_string";
	message: string;
	/** Offset in the statement. */
	at: number;
}

export type Binding =
	| {
			ok: true;
			/** The statement with placeholders (`$1`… for postgres, `?` otherwise). */
			text: string;
			/** One per placeholder, in order. */
			references: BoundReference[];
			/** Maps an offset in `text` back to the statement as written. */
			originalOffset: (offset: number) => number;
	  }
	| { ok: false; error: BindError };

/** Keywords after which a name, not a value, is expected. */
const IDENTIFIER_BEFORE = /(?:\bfrom|\bjoin|\binto|\bupdate|\btable|\bindex|\bview|\bschema|\bdatabase|\buse|\bdescribe|\bdesc|\btruncate|\bexists|\bas|\border\s+by|\bgroup\s+by|\.)\s*$/i;

/**
 * Replaces each `{{…}}` of a statement's code by a positional placeholder. A reference
 * written as a whole quoted literal (`'{{id}}'`) becomes one parameter too; references in
 * comments are left alone. Where a table or column name is expected (after FROM, JOIN,
 * INTO, `.`…), or inside a quoted identifier or a longer string, it is an error: a
 * parameter can only stand for a value.
 */
export function bindReferences(statement: string, dialect: SqlDialect): Binding {
	const segments = lexSql(statement, dialect);
	const found: BoundReference[] = [];
	for (const s of segments) {
		const piece = statement.slice(s.from, s.to);
		if (s.type === "comment") continue;
		const refs = findReferences(piece).map((r) => ({ ...r, start: r.start + s.from, end: r.end + s.from }));
		if (refs.length === 0) continue;
		if (s.type === "code") {
			for (const r of refs) found.push({ reference: r, from: r.start, to: r.end });
			continue;
		}
		if (s.type === "string" && refs.length === 1 && refs[0].start === s.from + 1 && refs[0].end === s.to - 1) {
			found.push({ reference: refs[0], from: s.from, to: s.to });
			continue;
		}
		const r = refs[0];
		if (s.type === "identifier") return { ok: false, error: identifierError(r, r.start) };
		return {
			ok: false,
			error: {
				code: "reference_in_string",
				message: `${r.text} is inside a longer SQL string: a reference is bound as a whole value. Write it outside the quotes (e.g. name LIKE '%' || ${r.text} || '%')`,
				at: r.start,
			},
		};
	}
	for (const b of found) {
		if (IDENTIFIER_BEFORE.test(statement.slice(0, b.from)) || /^\s*\./.test(statement.slice(b.to))) return { ok: false, error: identifierError(b.reference, b.from) };
	}
	let text = "";
	let last = 0;
	/** [offset in text, offset in statement, delta] at each replacement, for mapping back. */
	const marks: Array<{ at: number; original: number; end: number; originalEnd: number }> = [];
	found.forEach((b, k) => {
		text += statement.slice(last, b.from);
		const placeholder = dialect === "postgres" ? `$${k + 1}` : "?";
		marks.push({ at: text.length, original: b.from, end: text.length + placeholder.length, originalEnd: b.to });
		text += placeholder;
		last = b.to;
	});
	text += statement.slice(last);
	return {
		ok: true,
		text,
		references: found,
		originalOffset: (offset) => {
			let shift = 0;
			for (const m of marks) {
				if (offset < m.at) break;
				if (offset < m.end) return m.original;
				shift = m.originalEnd - m.end;
			}
			return offset + shift;
		},
	};
}

function identifierError(r: Reference, at: number): BindError {
	return {
		code: "identifier_reference",
		message: `${r.text} stands where a table or column name is expected: references are bound as values, never spliced into SQL. Write the name literally`,
		at,
	};
}
