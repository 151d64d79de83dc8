/**
 * `[connections.<name>]` of user.toml (docs/settings.md and docs/db.md): validated key by key, so a typo is
 * reported at its file:line:column and the rest of the file still works. A password is only
 * ever a reference to a secret (`password = { secret = "id" }`), never a literal in the file —
 * nor inside a `url`.
 */

export type ConnectionType = "sqlite" | "postgres" | "mysql";
export const CONNECTION_TYPES: readonly ConnectionType[] = ["sqlite", "postgres", "mysql"];

/** Rows shown (and returned to references) when the connection does not say. */
export const DEFAULT_MAX_ROWS = 1000;

/** `ssl = true` verifies against the system's CAs; the table form relaxes or pins it. */
export type SslSetting = boolean | { rejectUnauthorized: boolean; ca?: string };

interface CommonConnection {
	/** Engine-level read-only unless the connection says `readonly = false`. */
	readonly: boolean;
	/** Query timeout in ms when the block has no `timeout=` (else `[general] timeout`). */
	timeout?: number;
	/** Rows kept per result; default DEFAULT_MAX_ROWS. */
	maxRows?: number;
}

export interface SqliteConnection extends CommonConnection {
	type: "sqlite";
	/** Vault-relative path of the SQLite file. */
	path: string;
	/** Set on a connection the plugin provides, never read from user.toml: `history` is the vault's run history. */
	builtIn?: "history";
}

export interface ServerConnection extends CommonConnection {
	type: "postgres" | "mysql";
	host?: string;
	port?: number;
	database?: string;
	user?: string;
	/** The secret id holding the password. */
	password?: { secret: string };
	/** `postgres://user@host:port/db` or `mysql://…`, without a password; explicit keys win over it. */
	url?: string;
	ssl?: SslSetting;
}

export type Connection = SqliteConnection | ServerConnection;

/**
 * The connection every vault has without configuring it: its run history, read-only
 * (docs/history.md). Its path is only a label: the rows come from the history store itself.
 */
export const HISTORY_CONNECTION_NAME = "history";
export const HISTORY_CONNECTION: SqliteConnection = Object.freeze({ type: "sqlite", path: "history.sqlite", readonly: true, builtIn: "history" });

const withBuiltIns = new WeakMap<object, Readonly<Record<string, Connection>>>();

/**
 * The user's connections followed by the built-in ones. The same object for the same user
 * connections, so a consumer that compares by identity (the SQL editor) sees no change.
 */
export function withBuiltInConnections(user: Readonly<Record<string, Connection>>): Readonly<Record<string, Connection>> {
	let all = withBuiltIns.get(user);
	if (!all) withBuiltIns.set(user, (all = { ...user, [HISTORY_CONNECTION_NAME]: HISTORY_CONNECTION }));
	return all;
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : typeof v === "bigint" ? Number(v) : v);

const COMMON_KEYS = ["type", "readonly", "timeout", "max_rows"];
const SQLITE_KEYS = [...COMMON_KEYS, "path"];
const SERVER_KEYS = [...COMMON_KEYS, "host", "port", "database", "user", "password", "url", "ssl"];

/**
 * Validates one `[connections.<name>]` table. Each problem is reported through `error` or
 * `warn` with the key path it concerns; the connection is returned when it can be used.
 */
export function parseConnection(
	name: string,
	c: Table,
	error: (path: string[], message: string) => void,
	warn: (path: string[], message: string) => void,
): Connection | null {
	if (name === HISTORY_CONNECTION_NAME) {
		// One meaning in every vault: a note that charts its runs works wherever it is opened.
		error(["connections", name], `"${name}" is the built-in, read-only connection to run history: give this connection another name`);
		return null;
	}
	const at = (key: string) => ["connections", name, key];
	let usable = true;
	const bad = (key: string, message: string) => {
		error(at(key), message);
		usable = false;
	};
	const written = c.type;
	const validType = typeof written === "string" && (CONNECTION_TYPES as readonly string[]).includes(written);
	// With an unknown type, the other keys are still checked as far as they go (one pass, every typo).
	if (!validType) bad("type", `must be one of ${CONNECTION_TYPES.map((t) => `"${t}"`).join(", ")} (got ${show(written)})`);
	const type = (validType ? written : c.path !== undefined ? "sqlite" : "postgres") as ConnectionType;
	const known = type === "sqlite" ? SQLITE_KEYS : SERVER_KEYS;
	if (validType) for (const key of Object.keys(c)) if (!known.includes(key)) warn(at(key), `unknown key "${key}" for a ${type} connection is kept but ignored`);

	if (type === "sqlite" && (typeof c.path !== "string" || c.path === "")) bad("path", "must be the vault-relative path of a SQLite file");
	const common: CommonConnection = { readonly: true };
	if (c.readonly !== undefined) {
		if (typeof c.readonly === "boolean") common.readonly = c.readonly;
		else bad("readonly", `must be true or false (got ${show(c.readonly)})`);
	}
	const positive = (key: string, what: string): number | undefined => {
		const v = c[key];
		if (v === undefined) return undefined;
		const n = typeof v === "bigint" ? Number(v) : v;
		if (typeof n === "number" && Number.isSafeInteger(n) && n > 0) return n;
		bad(key, `must be a positive whole number${what} (got ${show(v)})`);
		return undefined;
	};
	const timeout = positive("timeout", " of milliseconds");
	if (timeout !== undefined) common.timeout = timeout;
	const maxRows = positive("max_rows", " of rows");
	if (maxRows !== undefined) common.maxRows = maxRows;

	if (type === "sqlite") return usable && typeof c.path === "string" ? { type, path: c.path, ...common } : null;

	const server: ServerConnection = { type: type, ...common };
	for (const key of ["host", "database", "user"] as const) {
		const v = c[key];
		if (v === undefined) continue;
		if (typeof v === "string" && v !== "") server[key] = v;
		else bad(key, `must be a non-empty string (got ${show(v)})`);
	}
	if (c.port !== undefined) {
		const port = typeof c.port === "bigint" ? Number(c.port) : c.port;
		if (typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65536) server.port = port;
		else bad("port", `must be a port number from 1 to 65535 (got ${show(c.port)})`);
	}
	if (c.password !== undefined) {
		if (isTable(c.password) && typeof c.password.secret === "string" && c.password.secret !== "" && Object.keys(c.password).length === 1) {
			server.password = { secret: c.password.secret };
		} else {
			// Never echo what was written: it may be the password itself.
			bad("password", `must be a secret reference, password = { secret = "id" }: a password is never written in user.toml`);
		}
	}
	if (c.url !== undefined) {
		const url = typeof c.url === "string" ? parseUrl(c.url) : null;
		const schemes = type === "postgres" ? ["postgres:", "postgresql:"] : ["mysql:", "mariadb:"];
		if (!url || !schemes.includes(url.protocol)) bad("url", `must be a ${schemes[0]}//user@host:port/database URL`);
		else if (url.password !== "") bad("url", `must not hold a password: use password = { secret = "id" }`);
		else server.url = c.url as string;
	}
	if (c.ssl !== undefined) {
		if (typeof c.ssl === "boolean") server.ssl = c.ssl;
		else if (isTable(c.ssl) && Object.keys(c.ssl).every((k) => k === "reject_unauthorized" || k === "ca") && (c.ssl.reject_unauthorized === undefined || typeof c.ssl.reject_unauthorized === "boolean") && (c.ssl.ca === undefined || typeof c.ssl.ca === "string")) {
			server.ssl = { rejectUnauthorized: c.ssl.reject_unauthorized !== false, ...(typeof c.ssl.ca === "string" ? { ca: c.ssl.ca } : {}) };
		} else bad("ssl", `must be true, false or { reject_unauthorized = false, ca = "path/to/ca.pem" }`);
	}
	if (c.url === undefined && server.host === undefined && validType) bad("host", `a ${type} connection needs host (or url)`);
	return usable ? server : null;
}

function parseUrl(text: string): URL | null {
	try {
		return new URL(text);
	} catch {
		return null;
	}
}

/** A short description of where a connection points (settings list, errors), never a secret. */
export function describeConnection(c: Connection): string {
	if (c.type === "sqlite" && c.builtIn === "history") return "sqlite · run history (built in, read-only)";
	if (c.type === "sqlite") return `sqlite · ${c.path}`;
	const url = c.url ? parseUrl(c.url) : null;
	const host = c.host ?? url?.hostname ?? "";
	const port = c.port ?? (url?.port ? Number(url.port) : undefined);
	const database = c.database ?? url?.pathname.replace(/^\//, "") ?? "";
	return `${c.type} · ${host}${port ? `:${port}` : ""}${database ? `/${database}` : ""}`;
}
