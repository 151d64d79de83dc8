import initSqlJs, { type SqlJsStatic } from "sql.js";
import type { BoundStatement } from "../../../../src/runner/db/driver";
import { createSqliteDriver, type SqliteFile } from "../../../../src/runner/db/sqlite";

let sqlJs: Promise<SqlJsStatic>;
beforeAll(() => {
	sqlJs = initSqlJs();
});
const loadSqlJs = () => sqlJs;

/** A SQLite file in memory (null: absent), with each write kept. */
async function memoryFile(sql: string | null): Promise<SqliteFile & { writes: Uint8Array[]; bytes(): Uint8Array | null }> {
	let bytes: Uint8Array | null = null;
	if (sql !== null) {
		const db = new (await sqlJs).Database();
		db.run(sql);
		bytes = db.export();
		db.close();
	}
	const writes: Uint8Array[] = [];
	return {
		path: "data/t.sqlite",
		writes,
		bytes: () => bytes,
		read: () => Promise.resolve(bytes),
		write: (b) => {
			writes.push(b);
			bytes = b;
			return Promise.resolve();
		},
	};
}

const s = (text: string, kind: BoundStatement["kind"] = "select", params: BoundStatement["params"] = []): BoundStatement => ({ text, params, kind });
const opts = { timeoutMs: 10_000, maxRows: 100 };

describe("SQLite through sql.js", () => {
	it("reads rows, naming each column by the storage class of its first non-NULL value", async () => {
		const file = await memoryFile("CREATE TABLE t (a, b, c, d); INSERT INTO t VALUES (NULL, 1.5, 'x', x'00ff'), (7, 2, 'y', NULL);");
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: true }).run([s("SELECT a, b, c, d FROM t ORDER BY rowid")], opts);
		expect(out).toMatchObject({
			kind: "done",
			columns: [{ name: "a", type: "INTEGER" }, { name: "b", type: "REAL" }, { name: "c", type: "TEXT" }, { name: "d", type: "BLOB" }],
			rowCount: 2,
		});
		expect(out.kind === "done" && out.rows[0]).toMatchObject({ a: null, b: 1.5, c: "x" });
	});

	it("keeps integers beyond 2^53 exact", async () => {
		const file = await memoryFile(null);
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: false }).run([s("SELECT 9007199254740993 AS big")], opts);
		expect(out.kind === "done" && out.rows[0].big).toBe("9007199254740993");
	});

	it("binds parameters", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b');");
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: true }).run([s("SELECT name FROM t WHERE id = ?", "select", [2])], opts);
		expect(out.kind === "done" && out.rows).toEqual([{ name: "b" }]);
	});

	it("refuses to open a missing file read-only, and creates it when writable", async () => {
		const missing = await memoryFile(null);
		await expect(createSqliteDriver(loadSqlJs, missing, { readonly: true }).run([s("SELECT 1")], opts)).resolves.toMatchObject({
			kind: "failed",
			code: "connect_failed",
			detail: "data/t.sqlite: no such file (a read-only connection does not create it)",
		});
		const out = await createSqliteDriver(loadSqlJs, missing, { readonly: false }).run([s("CREATE TABLE t (id INTEGER)", "ddl")], opts);
		expect(out.kind).toBe("done");
		expect(missing.writes).toHaveLength(1);
	});

	it("reports a file that cannot be read as a failed connect naming the file", async () => {
		const file: SqliteFile = { path: "gone.sqlite", read: () => Promise.reject(new Error("EACCES")), write: () => Promise.resolve() };
		await expect(createSqliteDriver(loadSqlJs, file, { readonly: false }).run([s("SELECT 1")], opts)).resolves.toMatchObject({ kind: "failed", code: "connect_failed", detail: "gone.sqlite: EACCES" });
	});

	it("saves only what changed the file, and never on a read-only connection", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		const writable = createSqliteDriver(loadSqlJs, file, { readonly: false });
		await writable.run([s("SELECT * FROM t")], opts);
		await writable.run([s("DELETE FROM t WHERE id = 1", "delete")], opts);
		expect(file.writes).toHaveLength(0);
		await writable.run([s("INSERT INTO t VALUES (1)", "insert")], opts);
		expect(file.writes).toHaveLength(1);
		const readonly = createSqliteDriver(loadSqlJs, file, { readonly: true });
		await expect(readonly.run([s("INSERT INTO t VALUES (2)", "insert")], opts)).resolves.toMatchObject({ kind: "failed", message: "attempt to write a readonly database" });
		expect(file.writes).toHaveLength(1);
	});

	it("keeps what earlier statements committed when a later one fails", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: false }).run([s("INSERT INTO t VALUES (1)", "insert"), s("INSERT INTO nowhere VALUES (2)", "insert")], opts);
		expect(out).toMatchObject({ kind: "failed", message: "no such table: nowhere" });
		const check = await createSqliteDriver(loadSqlJs, file, { readonly: true }).run([s("SELECT count(*) AS n FROM t")], opts);
		expect(check.kind === "done" && check.rows).toEqual([{ n: 1 }]);
	});

	it("rolls back a transaction the run leaves open, as closing the connection would", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		await createSqliteDriver(loadSqlJs, file, { readonly: false }).run([s("BEGIN", "transaction"), s("INSERT INTO t VALUES (1)", "insert")], opts);
		const check = await createSqliteDriver(loadSqlJs, file, { readonly: true }).run([s("SELECT count(*) AS n FROM t")], opts);
		expect(check.kind === "done" && check.rows).toEqual([{ n: 0 }]);
	});

	it("reports each commit while later statements are to come, and none inside an open transaction", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		const commits: Uint8Array[] = [];
		const driver = createSqliteDriver(loadSqlJs, file, { readonly: false, onCommitted: (b) => commits.push(b) });
		await driver.run([s("INSERT INTO t VALUES (1)", "insert"), s("INSERT INTO t VALUES (2)", "insert"), s("SELECT 1")], opts);
		expect(commits).toHaveLength(2);
		commits.length = 0;
		await driver.run([s("BEGIN", "transaction"), s("INSERT INTO t VALUES (3)", "insert"), s("COMMIT", "transaction")], opts);
		// Only the last statement ends the transaction, and nothing comes after it.
		expect(commits).toHaveLength(0);
	});

	it("points a syntax error at the token SQLite read last, not an earlier occurrence", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		const text = "SELECT id FROM t FROM t";
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: true }).run([s("SELECT 1"), s(text)], opts);
		expect(out).toMatchObject({ kind: "failed", code: "sql_error", position: { statement: 1, offset: text.lastIndexOf("FROM") } });
	});

	it("stops before the next statement once cancelled", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER);");
		const controller = new AbortController();
		controller.abort();
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: false }).run([s("INSERT INTO t VALUES (1)", "insert")], { ...opts, signal: controller.signal });
		expect(out).toMatchObject({ kind: "cancelled", reason: "user" });
		expect(file.writes).toHaveLength(0);
	});

	it("gives the query plan as a tree, and its raw rows", async () => {
		const file = await memoryFile("CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (id INTEGER, a_id INTEGER);");
		const out = await createSqliteDriver(loadSqlJs, file, { readonly: true }).explain(s("SELECT * FROM a WHERE id IN (SELECT a_id FROM b)"), opts);
		expect(out).toMatchObject({
			kind: "done",
			plan: [
				{ label: "SEARCH a USING INTEGER PRIMARY KEY (rowid=?)", children: [] },
				{ label: "LIST SUBQUERY 1", children: [{ label: "SCAN b", children: [] }] },
			],
		});
		expect(out.kind === "done" && out.raw.split("\n")).toHaveLength(3);
	});

	it("describes tables and views: nullability, primary keys and foreign keys", async () => {
		const file = await memoryFile("CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE b (id INTEGER, a_id INTEGER REFERENCES a(id)); CREATE VIEW v AS SELECT id FROM a;");
		await expect(createSqliteDriver(loadSqlJs, file, { readonly: true }).schema()).resolves.toMatchObject({
			kind: "done",
			tables: [
				{ name: "a", kind: "table", columns: [{ name: "id", primaryKey: true, nullable: false }, { name: "name", type: "TEXT", nullable: false, primaryKey: false }] },
				{ name: "b", kind: "table", columns: [{ name: "id", nullable: true }, { name: "a_id", references: "a.id" }] },
				{ name: "v", kind: "view" },
			],
		});
	});
});
