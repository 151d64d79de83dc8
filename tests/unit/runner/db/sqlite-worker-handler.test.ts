import { readFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { sqliteFile } from "../../../support/sqlite-image";
import type { BoundStatement } from "../../../../src/runner/db/driver";
import { createSqliteWorkerHandler } from "../../../../src/runner/db/sqlite-worker-handler";
import type { WorkerRequest, WorkerResponse } from "../../../../src/runner/db/sqlite-worker-protocol";

const WASM = join(__dirname, "..", "..", "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm");
const wasmBytes = () => new Uint8Array(readFileSync(WASM)).buffer;

/** The handler with what it posts kept, and a way to wait for the reply to a request. */
function worker(load = (wasm: ArrayBuffer) => initSqlJs({ wasmBinary: wasm })) {
	const posted: Array<{ message: WorkerResponse; transfer: ArrayBuffer[] }> = [];
	const waiters: Array<() => void> = [];
	const handle = createSqliteWorkerHandler((message, transfer) => {
		posted.push({ message, transfer });
		waiters.splice(0).forEach((w) => w());
	}, load);
	/** Sends a request and resolves with its final reply (`ready`, `failed` or `outcome`). */
	const send = (req: WorkerRequest) =>
		new Promise<WorkerResponse>((resolve) => {
			const check = () => {
				const done = posted.find((p) => p.message.id === req.id && p.message.op !== "committed");
				if (done) resolve(done.message);
				else waiters.push(check);
			};
			handle(req);
			check();
		});
	return { send, posted };
}

const s = (text: string, kind: BoundStatement["kind"] = "select"): BoundStatement => ({ text, params: [], kind });
const limits = { timeoutMs: 10_000, maxRows: 100 };

describe("the SQLite worker's message handler", () => {
	it("compiles sql.js from the bytes the host sends, and says ready", async () => {
		const w = worker();
		await expect(w.send({ id: 1, op: "init", wasm: { bytes: wasmBytes() } })).resolves.toEqual({ id: 1, op: "ready" });
	});

	it("decodes the plugin's embedded text (raw-deflated base64) before compiling", async () => {
		let compiled: ArrayBuffer | null = null;
		const w = worker((wasm) => ((compiled = wasm), initSqlJs({ wasmBinary: wasm })));
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest maps it to the text esbuild embeds
		const embedded = require("sql.js/dist/sql-wasm.wasm") as string;
		await expect(w.send({ id: 1, op: "init", wasm: { deflatedBase64: embedded } })).resolves.toEqual({ id: 1, op: "ready" });
		expect(new Uint8Array(compiled!)).toEqual(new Uint8Array(wasmBytes()));
	});

	it("reports a compile that fails as `failed` with its message", async () => {
		const w = worker(() => Promise.reject(new Error("out of memory")));
		await expect(w.send({ id: 4, op: "init", wasm: { bytes: new ArrayBuffer(0) } })).resolves.toEqual({ id: 4, op: "failed", message: "out of memory" });
	});

	it("answers a query before init with a failed connect, not a crash", async () => {
		const w = worker();
		const reply = await w.send({ id: 2, op: "run", file: { path: "t.sqlite", bytes: null, readonly: false }, statements: [s("SELECT 1")], ...limits });
		expect(reply).toMatchObject({ op: "outcome", outcome: { kind: "failed", code: "connect_failed", detail: "t.sqlite: sql.js is not initialised" }, written: null });
	});

	it("runs on the image it is sent, read-only when it says so, and hands back nothing when nothing was written", async () => {
		const w = worker();
		await w.send({ id: 1, op: "init", wasm: { bytes: wasmBytes() } });
		const file = { path: "t.sqlite", bytes: await sqliteFile("CREATE TABLE t (id INTEGER); INSERT INTO t VALUES (1), (2);"), readonly: true };
		const reply = await w.send({ id: 2, op: "run", file, statements: [s("SELECT id FROM t ORDER BY id")], ...limits });
		expect(reply).toMatchObject({ id: 2, op: "outcome", outcome: { kind: "done", rows: [{ id: 1 }, { id: 2 }] }, written: null });
		const write = await w.send({ id: 3, op: "run", file, statements: [s("INSERT INTO t VALUES (3)", "insert")], ...limits });
		expect(write).toMatchObject({ outcome: { kind: "failed", message: "attempt to write a readonly database" }, written: null });
	});

	it("hands back (transferred) what a writable run wrote, and posts each commit while statements remain", async () => {
		const w = worker();
		await w.send({ id: 1, op: "init", wasm: { bytes: wasmBytes() } });
		const file = { path: "t.sqlite", bytes: await sqliteFile("CREATE TABLE t (id INTEGER);"), readonly: false };
		const reply = await w.send({ id: 3, op: "run", file, statements: [s("INSERT INTO t VALUES (1)", "insert"), s("INSERT INTO t VALUES (2)", "insert")], ...limits });
		const committed = w.posted.filter((p) => p.message.op === "committed");
		expect(committed).toHaveLength(1);
		expect(committed[0].transfer).toEqual([(committed[0].message as { bytes: ArrayBuffer }).bytes]);
		expect(reply.op === "outcome" && reply.written).toBeInstanceOf(ArrayBuffer);
		const last = w.posted.at(-1)!;
		expect(last.transfer).toEqual([(reply as { written: ArrayBuffer }).written]);
		const check = await w.send({ id: 4, op: "run", file: { path: "t.sqlite", bytes: (reply as { written: ArrayBuffer }).written, readonly: true }, statements: [s("SELECT count(*) AS n FROM t")], ...limits });
		expect(check).toMatchObject({ outcome: { rows: [{ n: 2 }] } });
	});

	it("answers explain and schema requests with the driver's outcomes", async () => {
		const w = worker();
		await w.send({ id: 1, op: "init", wasm: { bytes: wasmBytes() } });
		const file = { path: "t.sqlite", bytes: await sqliteFile("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);"), readonly: true };
		await expect(w.send({ id: 2, op: "explain", file, statement: s("SELECT * FROM t"), ...limits })).resolves.toMatchObject({ op: "outcome", outcome: { kind: "done", plan: [{ label: "SCAN t" }] } });
		await expect(w.send({ id: 3, op: "schema", file })).resolves.toMatchObject({ op: "outcome", outcome: { kind: "done", tables: [{ name: "t", columns: [{ name: "id" }, { name: "name" }] }] } });
	});
});
