/**
 * From a `[connections.<name>]` setting to a driver: the password read from its secret, the
 * engine module handed in by the host (the plugin `require`s `pg`/`mysql2` only on desktop;
 * the CLI requires them directly), one driver (one pool) per connection, reused until the
 * setting changes.
 */
import type * as MysqlPromise from "mysql2/promise";
import type * as Pg from "pg";
import type { SqlJsStatic } from "sql.js";
import type { Connection } from "../../settings/connections";
import type { DbDriver } from "./driver";
import { dbFailureText } from "./failures";
import type * as MysqlDriver from "./mysql";
import type * as PostgresDriver from "./postgres";
import { historySqliteFile } from "./history-connection";
import { createSqliteDriver, type SqliteFile } from "./sqlite";

/** What the host can provide; an engine it cannot (mobile: pg, mysql2) is simply absent. */
export interface DbModules {
	sqlJs: () => Promise<SqlJsStatic>;
	/** The vault file at a vault-relative path. */
	sqliteFile(path: string): SqliteFile;
	pg?: () => typeof Pg;
	mysql?: () => typeof MysqlPromise;
	readSecret(id: string): string | undefined;
	/**
	 * A SQLite driver of the host's own (sql.js in a worker it can terminate: the plugin's Web
	 * Worker, the CLI's worker thread); absent, sql.js runs on the calling thread.
	 */
	sqliteDriver?(file: SqliteFile, options: { readonly: boolean }): DbDriver;
	/** Run history as a read-only SQLite file, for the built-in `history` connection; absent, that connection says history is not kept here. */
	historyFile?(): SqliteFile;
	/** Ends what the host started for its drivers (the CLI's worker threads); `closeAll` calls it. */
	close?(): void;
}

export type DriverOrError = { ok: true; driver: DbDriver } | { ok: false; code: "driver_unavailable" | "secret_unset" | "connect_failed"; message: string; detail?: string };

/** Drivers by connection name, rebuilt when the connection's setting changes. */
export class DbDrivers {
	private readonly drivers = new Map<string, { key: string; driver: DbDriver }>();

	constructor(private readonly modules: DbModules) {}

	get(name: string, connection: Connection): DriverOrError {
		const password = connection.type !== "sqlite" && connection.password ? this.modules.readSecret(connection.password.secret) : undefined;
		if (connection.type !== "sqlite" && connection.password && password === undefined) {
			return { ok: false, code: "secret_unset", message: dbFailureText("secret_unset", connection.password.secret, name), detail: "Give it a value in the settings (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>)" };
		}
		// The key holds no password itself, only whether it changed.
		const key = JSON.stringify(connection) + (password === undefined ? "" : `#${hash(password)}`);
		const known = this.drivers.get(name);
		if (known && known.key === key) return { ok: true, driver: known.driver };
		if (known) void known.driver.close();
		let driver: DbDriver | null;
		try {
			driver = this.create(connection, password);
		} catch (e) {
			// A driver module that will not load, or a pool option it refuses.
			return { ok: false, code: "connect_failed", message: dbFailureText("connect_failed"), detail: e instanceof Error ? e.message : String(e) };
		}
		if (!driver) return { ok: false, code: "driver_unavailable", message: dbFailureText("driver_unavailable", "engine"), detail: `${connection.type} connections need the desktop app or the CLI` };
		this.drivers.set(name, { key, driver });
		return { ok: true, driver };
	}

	private create(c: Connection, password: string | undefined): DbDriver | null {
		if (c.type === "sqlite") {
			const file = c.builtIn === "history" ? (this.modules.historyFile?.() ?? historySqliteFile(null)) : this.modules.sqliteFile(c.path);
			return this.modules.sqliteDriver ? this.modules.sqliteDriver(file, { readonly: c.readonly }) : createSqliteDriver(this.modules.sqlJs, file, { readonly: c.readonly });
		}
		const config = { host: c.host, port: c.port, database: c.database, user: c.user, password, url: c.url, ssl: c.ssl, readonly: c.readonly };
		const module = c.type === "postgres" ? this.modules.pg : this.modules.mysql;
		if (!module) return null;
		// The server drivers are required on their first connection: main.js carries them as text
		// modules, compiled then (docs/architecture.md, "Text modules"); the CLI bundles them as usual.
		/* eslint-disable @typescript-eslint/no-require-imports -- see above */
		if (c.type === "postgres") return (require("./postgres") as typeof PostgresDriver).createPostgresDriver((module as () => typeof Pg)(), config);
		return (require("./mysql") as typeof MysqlDriver).createMysqlDriver((module as () => typeof MysqlPromise)(), config);
		/* eslint-enable @typescript-eslint/no-require-imports -- end of the requires above */
	}

	async closeAll(): Promise<void> {
		const all = [...this.drivers.values()];
		this.drivers.clear();
		this.modules.close?.();
		await Promise.all(all.map((d) => d.driver.close()));
	}
}

/** A short, non-reversible-enough marker that the password changed (FNV-1a; not for security). */
function hash(s: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
	return h.toString(16);
}
