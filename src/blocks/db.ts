/**
 * The db block: ```` ```db connection=<name> alias=<name> timeout=<ms> ```` and SQL.
 * Info tokens and the SQL as written; which dialect splits and binds it is known only once
 * the connection is looked up (src/blocks/db-sql.ts does that part). Pure, never throws.
 */
import { ALIAS_PATTERN } from "./info";
import { error, warning, type BlockProblem } from "./problems";

/** Known db info tokens, in canonical order. */
export const DB_TOKENS = ["connection", "alias", "timeout", "display"] as const;
export type DbToken = (typeof DB_TOKENS)[number];

export interface DbInfoTokens {
	connection?: string;
	alias?: string;
	timeout?: number;
	display?: "input" | "output" | "split";
}

export interface DbInfoWord {
	text: string;
	key: DbToken | null;
}

export interface ParsedDbInfo {
	tokens: DbInfoTokens;
	words: DbInfoWord[];
	problems: BlockProblem[];
}

/** Connection names as `[connections.<name>]` allows them. */
export const CONNECTION_PATTERN = /^[A-Za-z0-9_-]+$/;

const DISPLAY = ["input", "output", "split"] as const;

/** Parses a db fence's info string; problems on `line`, at `column` plus the token's offset. */
export function parseDbInfo(info: string, line = 0, column = 0): ParsedDbInfo {
	const tokens: DbInfoTokens = {};
	const words: DbInfoWord[] = [];
	const problems: BlockProblem[] = [];
	const seen = new Set<DbToken>();
	for (const m of info.matchAll(/[^ \t]+/g)) {
		const text = m[0];
		const at = column + m.index;
		const eq = text.indexOf("=");
		const name = eq > 0 ? text.slice(0, eq) : "";
		const key = (DB_TOKENS as readonly string[]).includes(name) ? (name as DbToken) : null;
		words.push({ text, key });
		if (key === null) {
			problems.push(warning("unknown_token", `Unknown token "${text}" is kept but ignored (known: ${DB_TOKENS.join(", ")})`, line, at));
			continue;
		}
		if (seen.has(key)) {
			problems.push(error("duplicate_token", `Token "${key}" is written more than once`, line, at));
			continue;
		}
		seen.add(key);
		const value = text.slice(eq + 1);
		const why = applyDbToken(tokens, key, value);
		if (why) problems.push(error("invalid_token_value", why, line, at));
	}
	return { tokens, words, problems };
}

function applyDbToken(tokens: DbInfoTokens, key: DbToken, value: string): string | null {
	switch (key) {
		case "connection":
			if (!CONNECTION_PATTERN.test(value)) return `connection "${value}" is invalid: use the name of a [connections.<name>] table (letters, digits, "_" and "-")`;
			tokens.connection = value;
			return null;
		case "alias":
			if (!ALIAS_PATTERN.test(value)) return `alias "${value}" is invalid: use letters, digits, "_" and "-"`;
			tokens.alias = value;
			return null;
		case "timeout":
			if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) return `timeout "${value}" is invalid: use a positive whole number of milliseconds`;
			tokens.timeout = Number(value);
			return null;
		case "display":
			if (!(DISPLAY as readonly string[]).includes(value)) return `display "${value}" is invalid: use ${DISPLAY.join(", ")}`;
			tokens.display = value as DbInfoTokens["display"];
			return null;
	}
}

/** The info string in canonical order (connection, alias, timeout, display, then unknown tokens as written). */
export function canonicalDbInfo(words: readonly DbInfoWord[]): string {
	const known = DB_TOKENS.flatMap((k) => words.filter((w) => w.key === k));
	return [...known, ...words.filter((w) => w.key === null)].map((w) => w.text).join(" ");
}

export interface DbBlock {
	/** The SQL as written (the fence content). */
	sql: string;
	/** Problems with 0-based lines of the content. */
	problems: BlockProblem[];
}

/**
 * The db block's content. Its only rule without a connection at hand: there must be SQL.
 * (A missing `connection=` is decided by the runner: a single configured connection is used.)
 */
export function parseDbBlock(content: string): DbBlock {
	const problems: BlockProblem[] = [];
	const meaningful = content
		.split("\n")
		.some((l) => l.trim() !== "" && !l.trim().startsWith("--"));
	if (!meaningful) problems.push(error("empty_block", "This db block has no SQL to run", 0));
	return { sql: content, problems };
}

/** 0-based line and column of an offset in text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
	const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
	const line = before.split("\n").length - 1;
	return { line, column: before.length - (before.lastIndexOf("\n") + 1) };
}
