import * as pg from "pg";
import initSqlJs from "sql.js";
import { DbDrivers, type DbModules } from "../../../../src/runner/db/connect";
import type { DbDriver } from "../../../../src/runner/db/driver";
import type { SqliteFile } from "../../../../src/runner/db/sqlite";
import { HISTORY_CONNECTION, type Connection } from "../../../../src/settings/connections";

const sqlJs = () => initSqlJs();
const select = (text: string) => ({ text, params: [], kind: "select" as const });
const limits = { timeoutMs: 10_000, maxRows: 100 };

/** A file that does not exist yet, kept in memory. */
const emptyFile = (path: string): SqliteFile => {
	let bytes: Uint8Array | null = null;
	return { path, read: () => Promise.resolve(bytes), write: (b) => Promise.resolve(void (bytes = b)) };
};

/** Host modules over memory files, with the secrets given and what was asked of the host kept. */
function host(secrets: Record<string, string> = {}, extra: Partial<DbModules> = {}): DbModules & { files: string[]; closed: number } {
	const files: string[] = [];
	const modules: DbModules & { files: string[]; closed: number } = {
		files,
		closed: 0,
		sqlJs,
		sqliteFile: (path) => (files.push(path), emptyFile(path)),
		readSecret: (id) => secrets[id],
		close: () => void modules.closed++,
		...extra,
	};
	return modules;
}

const sqlite = (path: string, readonly = false): Connection => ({ type: "sqlite", path, readonly });
const postgres = (over: Partial<Connection> = {}): Connection => ({ type: "postgres", host: "127.0.0.1", port: 1, readonly: true, ...over }) as Connection;

describe("drivers per connection", () => {
	it("opens a SQLite connection on the host's vault file, on the calling thread without a host driver", async () => {
		const modules = host();
		const got = new DbDrivers(modules).get("local", sqlite("data/app.sqlite"));
		expect(got.ok).toBe(true);
		if (!got.ok) return;
		expect(got.driver.dialect).toBe("sqlite");
		await expect(got.driver.run([select("SELECT 1 AS one")], limits)).resolves.toMatchObject({ kind: "done", rows: [{ one: 1 }] });
		expect(modules.files).toEqual(["data/app.sqlite"]);
	});

	it("prefers the host's own SQLite driver, handing it the file and the connection's read-only flag", () => {
		const made: Array<{ path: string; readonly: boolean }> = [];
		const own = { dialect: "sqlite" } as DbDriver;
		const drivers = new DbDrivers(host({}, { sqliteDriver: (file, options) => (made.push({ path: file.path, readonly: options.readonly }), own) }));
		expect(drivers.get("local", sqlite("a.sqlite", true))).toEqual({ ok: true, driver: own });
		expect(made).toEqual([{ path: "a.sqlite", readonly: true }]);
	});

	it("reuses a driver until the connection's setting changes, then closes the old one", () => {
		const closed: string[] = [];
		const drivers = new DbDrivers(host({}, { sqliteDriver: (file) => ({ dialect: "sqlite", close: () => (closed.push(file.path), Promise.resolve()) }) as DbDriver }));
		const first = drivers.get("local", sqlite("a.sqlite"));
		expect(drivers.get("local", sqlite("a.sqlite"))).toEqual(first);
		const second = drivers.get("local", sqlite("b.sqlite"));
		expect(second).not.toEqual(first);
		expect(closed).toEqual(["a.sqlite"]);
	});

	it("reads the built-in history connection from the host's history, or says history is not kept here", async () => {
		const history: SqliteFile = { path: "run history", read: () => Promise.reject(new Error("from the host")), write: () => Promise.resolve() };
		const withHistory = new DbDrivers(host({}, { historyFile: () => history })).get("history", HISTORY_CONNECTION);
		await expect(withHistory.ok && withHistory.driver.run([select("SELECT 1")], limits)).resolves.toMatchObject({ kind: "failed", detail: "run history: from the host" });
		const without = new DbDrivers(host()).get("history", HISTORY_CONNECTION);
		await expect(without.ok && without.driver.run([select("SELECT 1")], limits)).resolves.toMatchObject({ kind: "failed", detail: "run history: run history is not kept here (the note is not in a vault)" });
	});

	it("refuses a server connection whose password secret has no value, naming the secret and the connection", () => {
		const got = new DbDrivers(host({}, { pg: () => pg })).get("main", postgres({ password: { secret: "pg-main" } }));
		expect(got).toEqual({ ok: false, code: "secret_unset", message: 'The password secret "pg-main" of connection "main" is not set', detail: "Give it a value in the settings (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>)" });
	});

	it("says an engine the host cannot provide is not available here", () => {
		expect(new DbDrivers(host()).get("main", postgres())).toMatchObject({ ok: false, code: "driver_unavailable", detail: "postgres connections need the desktop app or the CLI" });
		expect(new DbDrivers(host()).get("main", { ...postgres(), type: "mysql" })).toMatchObject({ ok: false, code: "driver_unavailable", detail: "mysql connections need the desktop app or the CLI" });
	});

	it("reports a driver module that will not load as a failed connect with its reason", () => {
		const broken = () => {
			throw new Error("Cannot find module 'pg'");
		};
		expect(new DbDrivers(host({}, { pg: broken })).get("main", postgres())).toMatchObject({ ok: false, code: "connect_failed", detail: "Cannot find module 'pg'" });
	});

	it("makes a new server driver when the secret's value changes, the same one while it does not", async () => {
		const secrets: Record<string, string> = { pw: "one" };
		const drivers = new DbDrivers(host(secrets, { pg: () => pg }));
		const connection = postgres({ password: { secret: "pw" } });
		const first = drivers.get("main", connection);
		expect(first.ok && first.driver.dialect).toBe("postgres");
		expect(drivers.get("main", connection)).toEqual(first);
		secrets.pw = "two";
		const second = drivers.get("main", connection);
		expect(second.ok && first.ok && second.driver !== first.driver).toBe(true);
		await drivers.closeAll();
	});

	it("closes every driver and what the host started, and starts afresh after", async () => {
		const closed: string[] = [];
		const modules = host({}, { sqliteDriver: (file) => ({ dialect: "sqlite", close: () => (closed.push(file.path), Promise.resolve()) }) as DbDriver });
		const drivers = new DbDrivers(modules);
		const before = drivers.get("a", sqlite("a.sqlite"));
		drivers.get("b", sqlite("b.sqlite"));
		await drivers.closeAll();
		expect(closed.sort()).toEqual(["a.sqlite", "b.sqlite"]);
		expect(modules.closed).toBe(1);
		const after = drivers.get("a", sqlite("a.sqlite"));
		expect(after.ok && before.ok && after.driver !== before.driver).toBe(true);
	});
});
