import initSqlJs from "sql.js";
import type { SqliteFile } from "../../../../src/runner/db/sqlite";
import { createWorkerSqliteDriver, SqliteWorkers } from "../../../../src/ui/db/worker-driver";

/** A SQLite file in memory: its bytes, and each write kept. */
async function memoryFile(sql: string): Promise<SqliteFile & { writes: Uint8Array[] }> {
	const SQL = await initSqlJs();
	const db = new SQL.Database();
	db.run(sql);
	let bytes: Uint8Array | null = db.export();
	db.close();
	const writes: Uint8Array[] = [];
	return {
		path: "data/t.sqlite",
		writes,
		read: () => Promise.resolve(bytes),
		write: (b) => {
			writes.push(b);
			bytes = b;
			return Promise.resolve();
		},
	};
}

const statement = (text: string, kind: "select" | "insert" = "select") => ({ text, params: [], kind });
const opts = { timeoutMs: 10_000, maxRows: 100 };

describe("the plugin's SQLite driver where no worker can start", () => {
	it("runs on the main thread instead, and says so once for good (no worker is tried again)", async () => {
		let tried = 0;
		const workers = new SqliteWorkers(() => (tried++, null));
		const file = await memoryFile("CREATE TABLE t (id INTEGER, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, NULL);");
		const driver = createWorkerSqliteDriver(workers, file, { readonly: true });
		const out = await driver.run([statement("SELECT id, name FROM t ORDER BY id")], opts);
		expect(out).toMatchObject({ kind: "done", columns: [{ name: "id", type: "INTEGER" }, { name: "name", type: "TEXT" }], rows: [{ id: 1, name: "a" }, { id: 2, name: null }], rowCount: 2 });
		await driver.run([statement("SELECT 1")], opts);
		expect(workers.available).toBe(false);
		expect(tried).toBe(1);
	});

	it("writes back only for a writable connection, and EXPLAIN and schema work the same", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);");
		const readonly = createWorkerSqliteDriver(new SqliteWorkers(() => null), file, { readonly: true });
		await expect(readonly.run([statement("INSERT INTO t (name) VALUES ('x')", "insert")], opts)).resolves.toMatchObject({ kind: "failed", message: "attempt to write a readonly database" });
		expect(file.writes).toHaveLength(0);
		const writable = createWorkerSqliteDriver(new SqliteWorkers(() => null), file, { readonly: false });
		await expect(writable.run([statement("INSERT INTO t (name) VALUES ('x')", "insert")], opts)).resolves.toMatchObject({ kind: "done" });
		expect(file.writes).toHaveLength(1);
		const plan = await writable.explain(statement("SELECT * FROM t WHERE name = 'x'"), opts);
		expect(plan.kind === "done" ? plan.plan.map((n) => n.label) : plan).toEqual(["SCAN t"]);
		await expect(writable.schema()).resolves.toMatchObject({ kind: "done", tables: [{ name: "t", columns: [{ name: "id", primaryKey: true }, { name: "name" }] }] });
	});
});
