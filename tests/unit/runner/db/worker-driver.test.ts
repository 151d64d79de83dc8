import initSqlJs from "sql.js";
import type { SqliteFile } from "../../../../src/runner/db/sqlite";
import { createSqliteWorkerHandler } from "../../../../src/runner/db/sqlite-worker-handler";
import { createWorkerSqliteDriver, SqliteWorkers, type WorkerEvents, type WorkerFactory } from "../../../../src/runner/db/worker-driver";

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

const statement = (text: string, kind: "select" | "insert" | "transaction" = text === "BEGIN" ? "transaction" : "select") => ({ text, params: [], kind });
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

/**
 * A worker in this thread: the real handler and sql.js behind the driver's worker interface. With
 * `hang`, a run's outcome is held back as if its last statement never ended (what the handler
 * posted before it, its commits, still arrives); `onHang` hears when that happens.
 */
function inThreadWorker(options: { hang: boolean; onHang?: () => void }): { factory: WorkerFactory; terminated(): number; started: WorkerEvents[] } {
	let terminated = 0;
	const started: WorkerEvents[] = [];
	const factory: WorkerFactory = (events) => {
		started.push(events);
		let alive = true;
		const handle = createSqliteWorkerHandler(
			(message) => {
				if (!alive) return;
				if (options.hang && message.op === "outcome") return options.onHang?.();
				queueMicrotask(() => events.message(message));
			},
			(wasm) => initSqlJs({ wasmBinary: wasm }),
		);
		return {
			post: (request) => queueMicrotask(() => handle(request)),
			terminate: () => {
				alive = false;
				terminated++;
			},
		};
	};
	return { factory, terminated: () => terminated, started };
}

describe("the SQLite driver over a worker it can terminate", () => {
	it("runs in the worker and saves what it wrote", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);");
		const worker = inThreadWorker({ hang: false });
		const driver = createWorkerSqliteDriver(new SqliteWorkers(worker.factory), file, { readonly: false });
		await expect(driver.run([statement("INSERT INTO t (name) VALUES ('x')", "insert"), statement("SELECT name FROM t")], opts)).resolves.toMatchObject({ kind: "done", rows: [{ name: "x" }] });
		expect(file.writes).toHaveLength(1);
		expect(worker.terminated()).toBe(0);
	});

	it("reuses its idle worker, but not one that died while idle: the next query starts a new one", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);");
		const worker = inThreadWorker({ hang: false });
		const driver = createWorkerSqliteDriver(new SqliteWorkers(worker.factory), file, { readonly: true });
		await expect(driver.run([statement("SELECT 1 AS one")], opts)).resolves.toMatchObject({ kind: "done" });
		await expect(driver.run([statement("SELECT 1 AS one")], opts)).resolves.toMatchObject({ kind: "done" });
		expect(worker.started).toHaveLength(1);
		worker.started[0].gone("out of memory");
		await expect(driver.run([statement("SELECT 1 AS one")], opts)).resolves.toMatchObject({ kind: "done", rows: [{ one: 1 }] });
		expect(worker.started).toHaveLength(2);
	});

	it("terminates the worker of a statement that does not end, and saves what the run committed before it", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);");
		const abort = new AbortController();
		const worker = inThreadWorker({ hang: true, onHang: () => abort.abort() });
		const driver = createWorkerSqliteDriver(new SqliteWorkers(worker.factory), file, { readonly: false });
		const out = await driver.run([statement("INSERT INTO t (name) VALUES ('kept')", "insert"), statement("SELECT 1")], { ...opts, signal: abort.signal });
		expect(out).toMatchObject({ kind: "cancelled", reason: "user" });
		expect(worker.terminated()).toBe(1);
		expect(file.writes).toHaveLength(1);
		const SQL = await initSqlJs();
		const saved = new SQL.Database(file.writes[0]);
		expect(saved.exec("SELECT name FROM t")[0].values).toEqual([["kept"]]);
		saved.close();
	});

	it("leaves the file alone when nothing was committed before the timeout (a transaction still open is not)", async () => {
		const file = await memoryFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);");
		const worker = inThreadWorker({ hang: true });
		const driver = createWorkerSqliteDriver(new SqliteWorkers(worker.factory), file, { readonly: false });
		const out = await driver.run([statement("BEGIN"), statement("INSERT INTO t (name) VALUES ('lost')", "insert"), statement("SELECT 1")], { ...opts, timeoutMs: 20 });
		expect(out).toMatchObject({ kind: "cancelled", reason: "timeout" });
		expect(worker.terminated()).toBe(1);
		expect(file.writes).toHaveLength(0);
	});
});
