import { Platform } from "obsidian";
import initSqlJs from "sql.js";
import { createSqliteWorkerHandler } from "../../../../src/runner/db/sqlite-worker-handler";
import type { WorkerFactory } from "../../../../src/runner/db/worker-driver";
import { PluginDb, vaultSqliteFile } from "../../../../src/ui/db/plugin-db";
import { SettingsStore } from "../../../../src/ui/settings-store";
import { bound, done, opts } from "../../../support/db-statements";
import { sqliteImage } from "../../../support/db-engine";
import { memoryVault } from "../../../support/memory-vault";

const DIR = ".obsidian/plugins/runnable-blocks";
const TOML = `[connections.shop]
type = "sqlite"
path = "data/shop.sqlite"
readonly = true

[connections.ledger]
type = "sqlite"
path = "data//shop.sqlite"
readonly = false

[connections.pgsql]
type = "postgres"
host = "127.0.0.1"
port = 1
user = "rb"
password = { secret = "pg-pw" }
`;

/** A worker in this thread: the real SQLite worker handler behind the plugin's worker interface; counts starts and terminations. */
function inThreadWorkers() {
	const counts = { started: 0, terminated: 0 };
	const factory: WorkerFactory = (events) => {
		counts.started++;
		const handle = createSqliteWorkerHandler((message) => queueMicrotask(() => events.message(message)), (wasm) => initSqlJs({ wasmBinary: wasm }));
		return { post: (request) => handle(request), terminate: () => void counts.terminated++ };
	};
	return { counts, factory };
}

async function setUp(secrets: Record<string, string> = {}, factory: WorkerFactory = () => null) {
	const vault = memoryVault(
		{ [`${DIR}/user.toml`]: TOML, "data/shop.sqlite": await sqliteImage("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO books VALUES (1, 'Dune');") },
		{ secretStorage: { getSecret: (id: string) => secrets[id] ?? null, setSecret: () => undefined } },
	);
	const store = new SettingsStore(vault.app, DIR);
	await store.load();
	const history = { snapshot: () => sqliteImage("CREATE TABLE runs (alias TEXT); INSERT INTO runs VALUES ('books');") };
	const db = new PluginDb(vault.app, store, history, factory);
	const driver = (name: string) => {
		const deps = db.deps();
		const got = deps.drivers.get(name, deps.connections[name]);
		if (!got.ok) throw new Error(`${got.code}: ${got.message} (${got.detail ?? ""})`);
		return got.driver;
	};
	return { vault, store, db, driver };
}

describe("PluginDb", () => {
	it("offers the connections of user.toml and the built-in history connection", async () => {
		const { db } = await setUp();
		expect(Object.keys(db.deps().connections)).toEqual(["shop", "ledger", "pgsql", "history"]);
	});

	it("follows user.toml: a connection added there is offered to the next run", async () => {
		const { db, store } = await setUp();
		await store.set(["connections", "more", "type"], "sqlite");
		await store.set(["connections", "more", "path"], "more.sqlite");
		expect(Object.keys(db.deps().connections)).toContain("more");
	});

	it("reads a SQLite file of the vault through the adapter, in a worker", async () => {
		const workers = inThreadWorkers();
		const { driver, db } = await setUp({}, workers.factory);
		const out = done(await driver("shop").run(bound("SELECT id, title FROM books", "sqlite"), opts()));
		expect(out.rows).toEqual([{ id: 1, title: "Dune" }]);
		expect(workers.counts.started).toBe(1);
		await db.close();
		expect(workers.counts.terminated).toBe(1);
	});

	it("writes back a writable connection's change atomically (a temp file renamed over the file)", async () => {
		const { driver, vault } = await setUp();
		done(await driver("ledger").run(bound("INSERT INTO books (title) VALUES ('Emma')", "sqlite"), opts()));
		expect(vault.log.filter((l) => !l.startsWith("write .obsidian"))).toEqual([expect.stringMatching(/^write data\/shop\.sqlite\..+/), "remove data/shop.sqlite", expect.stringMatching(/^rename data\/shop\.sqlite\..+ data\/shop\.sqlite$/)]);
		const again = done(await driver("shop").run(bound("SELECT title FROM books ORDER BY id", "sqlite"), opts()));
		expect(again.rows.map((r) => r.title)).toEqual(["Dune", "Emma"]);
	});

	it("never writes the file of a read-only connection", async () => {
		const { driver, vault } = await setUp();
		const out = await driver("shop").run(bound("INSERT INTO books (title) VALUES ('Emma')", "sqlite"), opts());
		expect(out).toMatchObject({ kind: "failed", message: "attempt to write a readonly database" });
		expect(vault.log).toEqual([]);
	});

	it("reads run history for the history connection", async () => {
		const { driver } = await setUp();
		const out = done(await driver("history").run(bound("SELECT alias FROM runs", "sqlite"), opts()));
		expect(out.rows).toEqual([{ alias: "books" }]);
	});

	it("takes a server connection's password from Obsidian's secret storage", async () => {
		const unset = await setUp();
		const deps = unset.db.deps();
		expect(deps.drivers.get("pgsql", deps.connections.pgsql)).toMatchObject({ ok: false, code: "secret_unset" });
		const set = await setUp({ "pg-pw": "hunter2" });
		const got = set.db.deps();
		expect(got.drivers.get("pgsql", got.connections.pgsql)).toMatchObject({ ok: true });
		await set.db.close();
	});

	it("says a server connection needs the desktop app on mobile", async () => {
		const { db } = await setUp({ "pg-pw": "hunter2" });
		const desktop = Platform.isDesktopApp;
		Platform.isDesktopApp = false;
		try {
			const deps = db.deps();
			expect(deps.drivers.get("pgsql", deps.connections.pgsql)).toMatchObject({ ok: false, code: "driver_unavailable", detail: "postgres connections need the desktop app or the CLI" });
		} finally {
			Platform.isDesktopApp = desktop;
		}
	});
});

describe("vaultSqliteFile", () => {
	it("reads and writes a vault path normalised, null for a file not there yet", async () => {
		const vault = memoryVault({ "data/a.sqlite": new Uint8Array([1, 2, 3]) });
		const file = vaultSqliteFile(vault.app, "/data//a.sqlite");
		expect(file.path).toBe("data/a.sqlite");
		expect(await file.read()).toEqual(new Uint8Array([1, 2, 3]));
		await expect(vaultSqliteFile(vault.app, "data/b.sqlite").read()).resolves.toBeNull();
		await file.write(new Uint8Array([9]));
		expect(vault.files.get("data/a.sqlite")).toEqual(new Uint8Array([9]));
	});
});
