import { NO_SQL_TEXT } from "../../blocks";
import { failureText } from "../failures";

/**
 * One text per db failure code, as runner/failures.ts is for http: the drivers, the preparation of
 * a db block and the schema cache all take their message from here, so a code reads the same on
 * the block, in the CLI, in `--json` and in the chat. The specifics (the engine's error, the file,
 * the engine's code) go in `detail`. A few texts name their subject: those take it as parameters.
 */
const TEXT = {
	connect_failed: failureText("connect_failed"),
	auth_failed: "Authentication failed",
	/** The engine refused a statement: its own words are the message (they name what is wrong). */
	sql_error: (engine: string) => engine || "Query failed",
	/** The run changed a SQLite file that could not be written back. */
	save_failed: "Could not save the database",
	/** No db blocks on this host at all, or one engine that cannot run here (a server on mobile). */
	driver_unavailable: (scope: "blocks" | "engine") => (scope === "blocks" ? "Database blocks are not available here" : "This database engine is not available here"),
	/** `name`: the block's connection=, or undefined when it names none. */
	unknown_connection: (name: string | undefined, defined: readonly string[]) =>
		name !== undefined
			? `No connection "${name}" in user.toml${defined.length ? ` (defined: ${defined.join(", ")})` : ""}`
			: defined.length === 0
				? "No connection is configured: add a [connections.<name>] table to user.toml"
				: `Name the connection: connection=<name> (defined: ${defined.join(", ")})`,
	/** A write on the built-in `history` connection, refused before anything ran. */
	read_only: (connection: string, keyword: string) => `The ${connection} connection is read-only: ${keyword || "this"} statements are refused (run history is only ever written by runs)`,
	secret_unset: (secret: string, connection: string) => `The password secret "${secret}" of connection "${connection}" is not set`,
	/** Only comments, or nothing between the semicolons: the block language's own problem text. */
	no_statements: NO_SQL_TEXT,
	/** Reading a connection's tables threw (a driver bug, kept as a failure all the same). */
	schema_failed: "Could not read the schema",
	timeout: (ms: number) => `Query cancelled (timeout ${ms} ms)`,
	cancelled: failureText("cancelled"),
} as const;

type Texts = typeof TEXT;
export type DbFailureKey = keyof Texts;

/** What a code's text names, if anything. */
export type DbSubject<C extends DbFailureKey> = Texts[C] extends (...subject: infer A) => string ? A : [];

/** The message of a db failure code (with its subject where the text names one). */
export function dbFailureText<C extends DbFailureKey>(code: C, ...subject: DbSubject<C>): string {
	const text = TEXT[code] as string | ((...args: unknown[]) => string);
	return typeof text === "function" ? text(...subject) : text;
}
