/**
 * The db block: ```` ```db connection=<name> alias=<name> timeout=<ms> ```` and SQL (docs/db.md).
 * The info tokens and the SQL as written; which dialect splits and binds it is known only once
 * the connection is looked up (src/blocks/db-sql.ts does that part). Pure, never throws.
 */
import { splitStatements } from "./db-sql";
import { aliasToken, displayToken, timeoutToken } from "./info";
import { defineKind, type TokenSpec } from "./kind";
import { error, type BlockProblem } from "./problems";

/** Connection names as `[connections.<name>]` allows them. */
export const CONNECTION_PATTERN = /^[A-Za-z0-9_-]+$/;

/** `connection=name`: which `[connections.<name>]` the block queries. */
export const connectionToken: TokenSpec<"connection", string> = {
	key: "connection",
	form: "value",
	expects: `use the name of a [connections.<name>] table (letters, digits, "_" and "-")`,
	read: (text) => (CONNECTION_PATTERN.test(text) ? text : undefined),
};

export interface DbBlock {
	/** The SQL as written (the fence content). */
	sql: string;
}

/**
 * The db block's content. Its only rule without a connection at hand: there must be SQL.
 * (A missing `connection=` is decided by the runner: a single configured connection is used.)
 */
/** The problem of a db block with nothing to run; the runner says the same when splitting finds no statement. */
export const NO_SQL_TEXT = "This db block has no SQL to run";

export function parseDbBlock(content: string): { model: DbBlock; problems: BlockProblem[] } {
	const problems: BlockProblem[] = [];
	const meaningful = content.split("\n").some((l) => l.trim() !== "" && !l.trim().startsWith("--"));
	if (!meaningful) problems.push(error("empty_block", NO_SQL_TEXT, 0));
	return { model: { sql: content }, problems };
}

export const dbKind = defineKind({
	language: "db",
	tokens: [connectionToken, aliasToken, timeoutToken, displayToken],
	parse(content) {
		const { model, problems } = parseDbBlock(content);
		return { model, problems, alias: null };
	},
	// Any statement but a read may change the database: such a block keeps its place in a parallel run.
	changesState: (model) => splitStatements(model.sql, "sqlite").some((s) => s.kind !== "select" && s.kind !== "explain"),
});

/** 0-based line and column of an offset in text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
	const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
	const line = before.split("\n").length - 1;
	return { line, column: before.length - (before.lastIndexOf("\n") + 1) };
}
