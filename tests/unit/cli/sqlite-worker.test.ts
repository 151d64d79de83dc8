import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import initSqlJs from "sql.js";
import { sqliteFile } from "../../support/sqlite-image";
import type { WorkerRequest, WorkerResponse } from "../../../src/runner/db/sqlite-worker-protocol";
import { nextMessage, startThread } from "../../support/node-thread";

// A thread bundles its code with esbuild and compiles sql.js: seconds on a busy 2-core machine.
jest.setTimeout(30_000);

const SQL_JS = join(__dirname, "..", "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.js");
const wasmBytes = () => new Uint8Array(readFileSync(join(SQL_JS, "..", "sql-wasm.wasm"))).buffer;
const limits = { timeoutMs: 10_000, maxRows: 100 };
const select = (text: string) => ({ text, params: [], kind: "select" as const });

/** Posts a request to the thread and resolves with its reply. */
async function send(thread: Worker, request: WorkerRequest): Promise<WorkerResponse> {
	const reply = nextMessage<WorkerResponse>(thread);
	thread.postMessage(request);
	return reply;
}

describe("the CLI's SQLite worker thread", () => {
	let thread: Worker;
	beforeEach(() => {
		// As src/cli/sqlite-thread.ts starts it: sql.js by the path the CLI resolved.
		thread = startThread({ file: "src/cli/sqlite-worker.ts" }, { sqlJs: SQL_JS });
	});
	afterEach(() => thread.terminate());

	it("compiles sql.js from the bytes it is sent, then runs a query on the file image it is sent", async () => {
		await expect(send(thread, { id: 1, op: "init", wasm: { bytes: wasmBytes() } })).resolves.toEqual({ id: 1, op: "ready" });
		const file = { path: "shop.sqlite", bytes: await sqliteFile("CREATE TABLE t (id INTEGER); INSERT INTO t VALUES (1), (2);"), readonly: true };
		await expect(send(thread, { id: 2, op: "run", file, statements: [select("SELECT id FROM t ORDER BY id")], ...limits })).resolves.toMatchObject({
			id: 2,
			op: "outcome",
			outcome: { kind: "done", rows: [{ id: 1 }, { id: 2 }] },
			written: null,
		});
	});

	it("hands back the new bytes after a write on a writable connection", async () => {
		await send(thread, { id: 1, op: "init", wasm: { bytes: wasmBytes() } });
		const file = { path: "new.sqlite", bytes: null, readonly: false };
		const reply = await send(thread, { id: 2, op: "run", file, statements: [{ text: "CREATE TABLE t (id INTEGER)", params: [], kind: "ddl" }], ...limits });
		if (reply.op !== "outcome" || !reply.written) throw new Error(`expected written bytes, got ${JSON.stringify(reply)}`);
		const db = new (await initSqlJs()).Database(new Uint8Array(reply.written));
		expect(db.exec("SELECT name FROM sqlite_master")[0].values).toEqual([["t"]]);
		db.close();
	});

	it("answers a query before init with a failed connect, and stays up for the next request", async () => {
		const file = { path: "shop.sqlite", bytes: null, readonly: true };
		await expect(send(thread, { id: 1, op: "run", file, statements: [select("SELECT 1")], ...limits })).resolves.toMatchObject({
			op: "outcome",
			outcome: { kind: "failed", code: "connect_failed", detail: "shop.sqlite: sql.js is not initialised" },
		});
		await expect(send(thread, { id: 2, op: "init", wasm: { bytes: wasmBytes() } })).resolves.toEqual({ id: 2, op: "ready" });
	});

	it("refuses to start anywhere but a worker thread", () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the module is what is specified
		expect(() => void require("../../../src/cli/sqlite-worker")).toThrow("the SQLite worker runs in a worker thread");
	});
});
