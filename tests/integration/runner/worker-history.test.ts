import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { nodeStorage } from "../../../src/cli/node-storage";
import type { BinaryStorage } from "../../../src/runner/binary-storage";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HistoryStore } from "../../../src/runner/history-store";
import { createHistoryWorkerHandler } from "../../../src/runner/history-worker-handler";
import type { HistoryRequest, HistoryResponse } from "../../../src/runner/history-worker-protocol";
import { openWorkerHistory, type HistoryWorkerFactory } from "../../../src/runner/worker-history";

jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-worker-history-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return { filePath: "api.md", alias: "login", method: "POST", url: `http://127.0.0.1:8080/login?i=${i}`, status: 200, outcome: "done", errorCode: null, requestBytes: i, responseBytes: 10, durationMs: 1.5, timestamp: 1_700_000_000_000 + i, transport: "node", ...patch };
}

/**
 * A worker in this thread: the real history handler and sql.js, messages copied as postMessage
 * copies them and delivered in a later task. It records what the host posted and can die.
 */
function inThreadWorker(): { factory: HistoryWorkerFactory; posted: HistoryRequest[]; die(reason: string): void; terminated(): boolean } {
	const posted: HistoryRequest[] = [];
	let die: (reason: string) => void = () => undefined;
	let terminated = false;
	const factory: HistoryWorkerFactory = (events) => {
		let alive = true;
		const handle = createHistoryWorkerHandler(
			(message: HistoryResponse) => setImmediate(() => alive && events.message(structuredClone(message))),
			(wasm) => initSqlJs({ wasmBinary: wasm }),
		);
		die = (reason) => {
			alive = false;
			events.gone(reason);
		};
		return {
			post: (request) => {
				posted.push(request);
				const copy = structuredClone(request);
				setImmediate(() => alive && handle(copy));
			},
			terminate: () => {
				alive = false;
				terminated = true;
			},
		};
	};
	return { factory, posted, die: (reason) => die(reason), terminated: () => terminated };
}

describe("run history in the SQLite worker", () => {
	it("records, lists and renames in the worker; the file is the one every other writer reads", async () => {
		const path = join(dir, "history.sqlite");
		const worker = inThreadWorker();
		const store = await openWorkerHistory(worker.factory, nodeStorage, path);
		if (!store) throw new Error("no worker started");
		for (let i = 1; i <= 12; i++) store.record(entry(i));
		store.renameFile("api.md", "moved.md");
		await expect(store.list("moved.md", "login")).resolves.toHaveLength(10);
		await store.close();
		expect(readFileSync(path).subarray(0, 15).toString()).toBe("SQLite format 3");
		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("moved.md", "login").map((r) => r.requestBytes)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
		await again.close();
		expect(worker.terminated()).toBe(true);
	});

	it("hands the worker sql.js's embedded text, to decode there, not bytes decoded on this thread", async () => {
		const worker = inThreadWorker();
		const store = await openWorkerHistory(worker.factory, nodeStorage, join(dir, "history.sqlite"));
		const open = worker.posted.find((m) => m.op === "history.open");
		expect(open?.op === "history.open" && Object.keys(open.wasm)).toEqual(["deflatedBase64"]);
		await store?.close();
	});

	it("takes in rows another writer added to the file (reload)", async () => {
		const path = join(dir, "history.sqlite");
		const store = await openWorkerHistory(inThreadWorker().factory, nodeStorage, path);
		const other = await HistoryStore.open(nodeStorage, path);
		other.record(entry(7, { alias: "cli" }));
		await other.close();
		await expect(store?.list("api.md", "cli")).resolves.toEqual([]);
		await store?.reload?.();
		await expect(store?.list("api.md", "cli")).resolves.toMatchObject([{ requestBytes: 7 }]);
		await store?.close();
	});

	it("reports a write the storage refused as a notice; the file stays usable", async () => {
		const path = join(dir, "history.sqlite");
		let refuse = true;
		const storage: BinaryStorage = { ...nodeStorage, write: (p, d) => (refuse && p.includes(".tmp-") ? Promise.reject(new Error("disk full")) : nodeStorage.write(p, d)) };
		const notices: string[] = [];
		const store = await openWorkerHistory(inThreadWorker().factory, storage, path, { onNotice: (_m, n) => notices.push(n.code === "write_failed" ? n.reason : n.code) });
		store?.record(entry(1));
		await store?.close();
		expect(notices).toEqual(["disk full"]);
		refuse = false;
		const retry = await openWorkerHistory(inThreadWorker().factory, storage, path);
		retry?.record(entry(2));
		await retry?.close();
		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("api.md", "login").map((r) => r.requestBytes)).toEqual([2]);
		await again.close();
	});

	it("moves a file that is not a database aside, through the host's storage, and starts anew", async () => {
		const path = join(dir, "history.sqlite");
		await nodeStorage.write(path, new TextEncoder().encode("not a database"));
		const notices: string[] = [];
		const store = await openWorkerHistory(inThreadWorker().factory, nodeStorage, path, { onNotice: (_m, n) => notices.push(n.code) });
		store?.record(entry(1));
		await store?.close();
		expect(notices).toEqual(["moved_aside"]);
		expect((await nodeStorage.siblings(path)).filter((p) => p.includes(".corrupt-"))).toHaveLength(1);
	});

	it("resolves null where no worker can start, so the caller keeps history on its own thread", async () => {
		await expect(openWorkerHistory(() => null, nodeStorage, join(dir, "history.sqlite"))).resolves.toBeNull();
	});

	it("when the worker dies: waiting calls fail with why, and a later row is reported as not written", async () => {
		const worker = inThreadWorker();
		const notices: string[] = [];
		const store = await openWorkerHistory(worker.factory, nodeStorage, join(dir, "history.sqlite"), { onNotice: (_m, n) => notices.push(n.code === "write_failed" ? n.reason : n.code) });
		const listing = store?.list("api.md", "login");
		worker.die("out of memory");
		await expect(listing).rejects.toThrow("out of memory");
		store?.record(entry(1));
		expect(notices).toEqual(["the SQLite worker stopped (out of memory)"]);
		await store?.close();
	});
});
