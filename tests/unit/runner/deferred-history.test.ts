import { DeferredHistory } from "../../../src/runner/deferred-history";
import type { HistoryEntry } from "../../../src/runner/executor";
import type { HistoryRow, RunHistoryStore } from "../../../src/runner/history-store";

const entry = (i: number, filePath = "api.md"): HistoryEntry => ({
	filePath,
	alias: "login",
	method: "GET",
	url: `http://127.0.0.1/x?i=${i}`,
	status: 200,
	outcome: "done",
	errorCode: null,
	requestBytes: i,
	responseBytes: 0,
	durationMs: 1,
	timestamp: i,
	transport: "node",
});

/** A run history in memory: what it was asked to do, in order. */
function memoryStore(options: { snapshot?: boolean } = {}): RunHistoryStore & { ops: string[]; rows: HistoryRow[] } {
	const rows: HistoryRow[] = [];
	const ops: string[] = [];
	return {
		ops,
		rows,
		record: (e) => {
			ops.push(`record ${e.requestBytes}`);
			rows.push({ ...e, id: rows.length + 1 });
		},
		renameFile: (from, to) => {
			ops.push(`rename ${from} ${to}`);
			for (const r of rows) if (r.filePath === from) r.filePath = to;
		},
		list: (filePath, alias) => rows.filter((r) => r.filePath === filePath && r.alias === alias).reverse(),
		...(options.snapshot === false ? {} : { snapshot: () => new Uint8Array([rows.length]) }),
		reload: () => {
			ops.push("reload");
			return Promise.resolve();
		},
		close: () => {
			ops.push("close");
			return Promise.resolve();
		},
	};
}

/** A `later` that runs its callbacks only when the test says so. */
function manualLater() {
	const queue: Array<() => void> = [];
	return { later: (f: () => void) => void queue.push(f), run: () => queue.splice(0).forEach((f) => f()), waiting: () => queue.length };
}

const rethrow = (e: unknown) => {
	throw e;
};

describe("run history that opens in the background", () => {
	it("records at once and opens only in a later task; what waited lands in order", async () => {
		const store = memoryStore();
		let opens = 0;
		const clock = manualLater();
		const history = new DeferredHistory(() => (opens++, Promise.resolve(store)), rethrow, clock.later);
		history.record(entry(1));
		history.renameFile("api.md", "moved.md");
		history.record(entry(2, "moved.md"));
		expect(opens).toBe(0);
		expect(clock.waiting()).toBe(1);
		clock.run();
		await expect(history.list("moved.md", "login")).resolves.toMatchObject([{ requestBytes: 2 }, { requestBytes: 1 }]);
		expect(opens).toBe(1);
		expect(store.ops).toEqual(["record 1", "rename api.md moved.md", "record 2"]);
		history.record(entry(3, "moved.md"));
		// Once open, a row goes straight to the store.
		expect(store.ops.at(-1)).toBe("record 3");
	});

	it("reports a failed open, keeps what waits, and tries again on the next use", async () => {
		const store = memoryStore();
		const errors: unknown[] = [];
		let fail = true;
		const history = new DeferredHistory(() => (fail ? Promise.reject(new Error("wasm refused")) : Promise.resolve(store)), (e) => errors.push(e), (f) => f());
		history.record(entry(1));
		await expect(history.ready()).resolves.toBeNull();
		expect(errors).toEqual([new Error("wasm refused")]);
		await expect(history.list("api.md", "login")).resolves.toEqual([]);
		fail = false;
		history.record(entry(2));
		await expect(history.ready()).resolves.toBe(store);
		expect(store.ops).toEqual(["record 1", "record 2"]);
	});

	it("on close, opens at once when rows wait (without waiting for the later task) and writes them", async () => {
		const store = memoryStore();
		const clock = manualLater();
		const history = new DeferredHistory(() => Promise.resolve(store), rethrow, clock.later);
		history.record(entry(1));
		await history.close();
		expect(store.ops).toEqual(["record 1", "close"]);
	});

	it("on close, opens nothing when nothing was recorded", async () => {
		let opens = 0;
		const history = new DeferredHistory(() => (opens++, Promise.resolve(memoryStore())), rethrow, (f) => f());
		await history.close();
		expect(opens).toBe(0);
	});

	it("hands out a snapshot of the open store, and says why when there is none", async () => {
		const history = new DeferredHistory(() => Promise.resolve(memoryStore()), rethrow, (f) => f());
		history.record(entry(1));
		await expect(history.snapshot()).resolves.toEqual(new Uint8Array([1]));
		const noSnapshot = new DeferredHistory(() => Promise.resolve(memoryStore({ snapshot: false })), rethrow, (f) => f());
		await expect(noSnapshot.snapshot()).rejects.toThrow("this run history cannot be read as a database");
		const unavailable = new DeferredHistory(() => Promise.reject(new Error("no")), () => undefined, (f) => f());
		await expect(unavailable.snapshot()).rejects.toThrow("run history is unavailable");
	});

	it("passes a reload to the open store only", async () => {
		const store = memoryStore();
		let opens = 0;
		const history = new DeferredHistory(() => (opens++, Promise.resolve(store)), rethrow, (f) => f());
		await history.reload();
		expect(opens).toBe(0);
		await history.ready();
		await history.reload();
		expect(store.ops).toEqual(["reload"]);
	});
});
