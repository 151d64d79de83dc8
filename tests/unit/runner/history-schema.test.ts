import { readFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs, { type Database } from "sql.js";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HISTORY_RETENTION, HISTORY_SQL, insertParams, migrate, migrateWith, MIGRATIONS, rowFromValues, type SqlCell } from "../../../src/runner/history-schema";

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return { filePath: "api.md", alias: "login", method: "POST", url: `http://127.0.0.1:8080/login?i=${i}`, status: 200, outcome: "done", errorCode: null, requestBytes: i, responseBytes: 10 + i, durationMs: 1.5, timestamp: 1_700_000_000_000 + i, transport: "node", ...patch };
}

async function emptyDb(): Promise<Database> {
	return new (await initSqlJs()).Database();
}

const userVersion = (db: Database) => Number(db.exec("PRAGMA user_version")[0].values[0][0]);

function list(db: Database, filePath: string, alias: string) {
	return (db.exec(HISTORY_SQL.list, [filePath, alias])[0]?.values ?? []).map((r) => rowFromValues(r as SqlCell[]));
}

function record(db: Database, e: HistoryEntry): void {
	db.run(HISTORY_SQL.insert, insertParams(e));
	db.run(HISTORY_SQL.trim, [e.filePath, e.alias, e.filePath, e.alias]);
}

describe("insertParams and rowFromValues", () => {
	it("give a run the insert's column order, absent counts and close code as null", () => {
		expect(insertParams(entry(3, { status: null, errorCode: "timeout", transport: "fetch" }))).toEqual(["api.md", "login", "POST", "http://127.0.0.1:8080/login?i=3", null, "done", "timeout", 3, 13, 1.5, 1_700_000_000_003, "fetch", null, null, null]);
		expect(insertParams(entry(1, { itemCount: 0, closeCode: 1001, sentCount: 2 })).slice(-3)).toEqual([0, 1001, 2]);
	});

	it("read a listed row back as stored: numbers from bigints, nulls kept, no item count when the column is null", () => {
		const row = rowFromValues([BigInt(7), "a.md", "q", "SELECT", "db:main", null, "failed", "timeout", BigInt(5), 6, 2.25, BigInt(1_700_000_000_000), "sqlite", null, null, null]);
		expect(row).toEqual({ id: 7, filePath: "a.md", alias: "q", method: "SELECT", url: "db:main", status: null, outcome: "failed", errorCode: "timeout", requestBytes: 5, responseBytes: 6, durationMs: 2.25, timestamp: 1_700_000_000_000, transport: "sqlite" });
		expect(rowFromValues([1, "a.md", "q", "GET", "u", 204, "done", null, 0, 0, 0, 0, "node", 0])).toMatchObject({ status: 204, errorCode: null, itemCount: 0 });
		expect(rowFromValues([1, "a.md", "f", "WEBSOCKET", "ws://h/", 101, "done", null, 4, 9, 5, 0, "ws", 3, BigInt(1000), 2])).toMatchObject({ itemCount: 3, closeCode: 1000, sentCount: 2 });
	});

	it("round-trip a run through the shared statements unchanged", async () => {
		const db = await emptyDb();
		migrate(db);
		const run = entry(4, { itemCount: 12, closeCode: 4001, sentCount: 5, errorCode: "connect_failed", status: null });
		record(db, run);
		expect(list(db, "api.md", "login")).toEqual([{ id: 1, ...run }]);
		db.close();
	});
});

describe("HISTORY_SQL", () => {
	it("keeps the last HISTORY_RETENTION runs of each block, newest first, leaving other blocks alone", async () => {
		const db = await emptyDb();
		migrate(db);
		record(db, entry(0, { alias: "other" }));
		for (let i = 1; i <= HISTORY_RETENTION + 3; i++) record(db, entry(i));
		expect(list(db, "api.md", "login").map((r) => r.requestBytes)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
		expect(list(db, "api.md", "other")).toHaveLength(1);
		db.close();
	});

	it("moves a note's runs to its new path, and only that note's", async () => {
		const db = await emptyDb();
		migrate(db);
		record(db, entry(1));
		record(db, entry(2, { filePath: "stay.md" }));
		db.run(HISTORY_SQL.rename, ["moved.md", "api.md"]);
		expect(list(db, "api.md", "login")).toEqual([]);
		expect(list(db, "moved.md", "login").map((r) => r.requestBytes)).toEqual([1]);
		expect(list(db, "stay.md", "login").map((r) => r.requestBytes)).toEqual([2]);
		db.close();
	});
});

describe("migrateWith", () => {
	it("applies only the migrations after the database's version, each with its own number", () => {
		const applied: Array<[string, number]> = [];
		migrateWith({ userVersion: () => 1, apply: (sql, version) => applied.push([sql, version]) });
		expect(applied).toEqual(MIGRATIONS.slice(1).map((sql, i) => [sql, i + 2]));
	});

	it("applies none to a database already at the last version", () => {
		const applied: number[] = [];
		migrateWith({ userVersion: () => MIGRATIONS.length, apply: (_sql, version) => applied.push(version) });
		expect(applied).toEqual([]);
	});
});

describe("migrate (sql.js)", () => {
	it("brings a new database to the last version, and a second pass changes nothing", async () => {
		const db = await emptyDb();
		migrate(db);
		expect(userVersion(db)).toBe(MIGRATIONS.length);
		migrate(db);
		expect(userVersion(db)).toBe(MIGRATIONS.length);
		db.close();
	});

	it("brings a version 1 database forward keeping its rows, with the later columns' defaults", async () => {
		const db = await emptyDb();
		db.run(MIGRATIONS[0]);
		db.run("PRAGMA user_version = 1");
		db.run(`INSERT INTO block_run_history (file_path, alias, method, url, status, outcome, request_bytes, response_bytes, duration_ms, timestamp) VALUES ('api.md', 'login', 'GET', 'u', 200, 'done', 1, 2, 3, 4)`);
		migrate(db);
		expect(userVersion(db)).toBe(MIGRATIONS.length);
		expect(list(db, "api.md", "login")).toEqual([expect.objectContaining({ errorCode: null, transport: "node", requestBytes: 1 })]);
		expect(list(db, "api.md", "login")[0]).not.toHaveProperty("itemCount");
		expect(list(db, "api.md", "login")[0]).not.toHaveProperty("closeCode");
		db.close();
	});

	it("brings a database file of the previous schema (version 3) forward, every row kept as it was", async () => {
		const file = readFileSync(join(__dirname, "../../fixtures/history/history-v3.sqlite"));
		const SQL = await initSqlJs();
		const db = new SQL.Database(file);
		const before = db.exec("SELECT * FROM block_run_history ORDER BY id")[0].values;
		expect(userVersion(db)).toBe(3);
		migrate(db);
		expect(userVersion(db)).toBe(MIGRATIONS.length);
		const after = db.exec("SELECT * FROM block_run_history ORDER BY id")[0];
		expect(after.values.map((r) => r.slice(0, before[0].length))).toEqual(before);
		expect(after.columns.slice(before[0].length)).toEqual(["close_code", "sent_count"]);
		expect(after.values.map((r) => r.slice(before[0].length))).toEqual(before.map(() => [null, null]));
		expect(list(db, "API/Chat.md", "feed")).toEqual([expect.objectContaining({ method: "WEBSOCKET", itemCount: 4, transport: "ws" })]);
		expect(list(db, "API/Chat.md", "feed")[0]).not.toHaveProperty("closeCode");
		db.close();
	});

	it("rolls a failing step back whole and throws, leaving the version where it was", async () => {
		const db = await emptyDb();
		db.run(MIGRATIONS[0]);
		db.run("PRAGMA user_version = 1");
		// The second step adds error_code, then transport: with transport already there, it fails halfway.
		db.run("ALTER TABLE block_run_history ADD COLUMN transport TEXT");
		expect(() => migrate(db)).toThrow(/duplicate column name: transport/);
		expect(userVersion(db)).toBe(1);
		const columns = db.exec("PRAGMA table_info(block_run_history)")[0].values.map((c) => c[1]);
		expect(columns).not.toContain("error_code");
		db.close();
	});
});

describe("the documented columns of block_run_history (docs/history.md)", () => {
	/** The rows of the doc's column table: name, type, whether it may be NULL. */
	function documented(): Array<{ name: string; type: string; nullable: boolean }> {
		const doc = readFileSync(join(__dirname, "../../../docs/history.md"), "utf8");
		const section = doc.slice(doc.indexOf("## The table `block_run_history`"));
		return [...section.matchAll(/^\| `(\w+)` \| (\w+) \| (yes|no) \|/gm)].map((m) => ({ name: m[1], type: m[2], nullable: m[3] === "yes" }));
	}

	it("are exactly the schema's columns, in order, with their types and nullability: a schema change needs its doc change", async () => {
		const db = await emptyDb();
		migrate(db);
		const schema = db.exec("SELECT name, type, \"notnull\", pk FROM pragma_table_info('block_run_history')")[0].values.map(([name, type, notnull, pk]) => ({ name: String(name), type: String(type), nullable: notnull === 0 && pk === 0 }));
		expect(documented()).toEqual(schema);
	});
});
