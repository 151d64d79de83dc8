/**
 * The plugin's SQLite worker script, run in this thread: its global scope is a stand-in `self`
 * (what a Web Worker's is: `onmessage` and `postMessage`), and sql.js is the real one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkerRequest, WorkerResponse } from "../../../../src/runner/db/sqlite-worker-protocol";
import type { HistoryRequest, HistoryResponse } from "../../../../src/runner/history-worker-protocol";
import { sqliteImage } from "../../../support/db-engine";

type Posted = WorkerResponse | HistoryResponse;
const WASM = join(__dirname, "..", "..", "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm");

/** Loads the worker script into a fresh global scope; `send` resolves with the final reply to a request. */
function startWorker() {
	const posted: Posted[] = [];
	const waiters: Array<() => void> = [];
	const scope: { onmessage: ((e: { data: WorkerRequest | HistoryRequest }) => void) | null; postMessage(m: Posted): void } = {
		onmessage: null,
		postMessage: (m) => {
			posted.push(m);
			waiters.splice(0).forEach((w) => w());
		},
	};
	(globalThis as unknown as { self: unknown }).self = scope;
	// Loaded anew each time, after `self` is set: the script binds its handlers when it is evaluated.
	jest.isolateModules(() => void jest.requireActual<object>("../../../../src/ui/db/sqlite-worker"));
	const send = (req: WorkerRequest | HistoryRequest & { id: number }) =>
		new Promise<Posted>((resolve) => {
			const check = () => {
				const done = posted.find((p) => "id" in p && p.id === req.id && p.op !== "committed");
				if (done) resolve(done);
				else waiters.push(check);
			};
			scope.onmessage?.({ data: req });
			check();
		});
	return { scope, send, posted };
}

afterEach(() => delete (globalThis as { self?: unknown }).self);

describe("the plugin's SQLite worker script", () => {
	it("listens on its global scope as soon as it is loaded", () => {
		expect(startWorker().scope.onmessage).toEqual(expect.any(Function));
	});

	it("compiles sql.js from the bytes it is handed and runs a query on the file image sent with it", async () => {
		const w = startWorker();
		await expect(w.send({ id: 1, op: "init", wasm: { bytes: new Uint8Array(readFileSync(WASM)).buffer } })).resolves.toEqual({ id: 1, op: "ready" });
		const file = { path: "shop.sqlite", bytes: (await sqliteImage("CREATE TABLE t (id INTEGER, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, NULL);")).slice().buffer, readonly: true };
		const reply = await w.send({ id: 2, op: "run", file, statements: [{ text: "SELECT id, name FROM t ORDER BY id", params: [], kind: "select" }], timeoutMs: 10_000, maxRows: 100 });
		expect(reply).toMatchObject({ id: 2, op: "outcome", written: null, outcome: { kind: "done", rows: [{ id: 1, name: "a" }, { id: 2, name: null }], rowCount: 2 } });
	});

	it("answers a query sent before sql.js is compiled with a failed outcome, not silence", async () => {
		const w = startWorker();
		const reply = await w.send({ id: 7, op: "schema", file: { path: "x.sqlite", bytes: null, readonly: true } });
		expect(reply).toMatchObject({ id: 7, op: "outcome", written: null, outcome: { kind: "failed" } });
		expect(JSON.stringify(reply)).toContain("sql.js is not initialised");
	});

	it("hands run history's messages to the history store, not to the query handler", async () => {
		const w = startWorker();
		// Not opened yet: only the history handler answers in its own protocol.
		await expect(w.send({ id: 3, op: "history.list", filePath: "n.md", alias: "a" })).resolves.toEqual({ id: 3, op: "history.failed", message: "run history is not open" });
	});
});
