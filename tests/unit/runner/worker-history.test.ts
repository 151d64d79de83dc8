import type { HistoryRequest, HistoryResponse } from "../../../src/runner/history-worker-protocol";
import { openWorkerHistory, type HistoryWorkerFactory } from "../../../src/runner/worker-history";
import type { WorkerEvents } from "../../../src/runner/db/worker-driver";
import { memoryStorage } from "../../support/memory-storage";

/** A worker stand-in, as a plain object: keeps what it is sent and answers as `reply` says. */
function scripted(reply: (r: HistoryRequest) => HistoryResponse | null) {
	const posted: HistoryRequest[] = [];
	let events: WorkerEvents<HistoryResponse> | null = null;
	let terminated = 0;
	const factory: HistoryWorkerFactory = (e) => {
		events = e;
		return {
			post: (r) => {
				posted.push(r);
				const answer = reply(r);
				if (answer) queueMicrotask(() => events?.message(answer));
			},
			terminate: () => void terminated++,
		};
	};
	return { factory, posted, events: () => events, terminated: () => terminated };
}

const done = (r: HistoryRequest): HistoryResponse | null => ("id" in r ? { id: r.id, op: "history.done" } : null);

describe("openWorkerHistory", () => {
	it("rejects with the worker's reason and ends the worker when it cannot open", async () => {
		const w = scripted((r) => ("id" in r ? { id: r.id, op: "history.failed", message: "no sql.js" } : null));
		await expect(openWorkerHistory(w.factory, memoryStorage(), "h.sqlite")).rejects.toThrow("no sql.js");
		expect(w.terminated()).toBe(1);
	});

	it("hands the worker sql.js in a later task than the one that started it (two shorter tasks, not one long one)", async () => {
		const w = scripted(done);
		const opened = openWorkerHistory(w.factory, memoryStorage(), "h.sqlite");
		for (let i = 0; i < 20; i++) await Promise.resolve();
		expect(w.events()).not.toBeNull();
		expect(w.posted).toEqual([]);
		await opened;
		expect(w.posted.map((r) => r.op)).toEqual(["history.open"]);
	});

	it("posts records and renames with fresh ids without waiting, and lists the rows the worker answers", async () => {
		const w = scripted((r) => (r.op === "history.list" ? { id: r.id, op: "history.done" } : done(r)));
		const store = await openWorkerHistory(w.factory, memoryStorage(), "h.sqlite");
		store?.renameFile("a.md", "b.md");
		await expect(store?.list("b.md", "x")).resolves.toEqual([]);
		expect(w.posted.map((r) => ("id" in r ? [r.op, r.id] : r.op))).toEqual([["history.open", 1], ["history.rename", 2], ["history.list", 3]]);
		await store?.close();
		expect(w.terminated()).toBe(1);
	});

	it("serves the worker's storage calls and reports a refused one by its message", async () => {
		const storage = memoryStorage({ "h.sqlite": "x" });
		const w = scripted(done);
		await openWorkerHistory(w.factory, storage, "h.sqlite");
		w.events()?.message({ op: "storage", call: 7, method: "rename", args: ["h.sqlite", "g.sqlite"] });
		storage.refusing.add("read");
		w.events()?.message({ op: "storage", call: 8, method: "read", args: ["g.sqlite"] });
		await new Promise((r) => setImmediate(r));
		expect(w.posted.filter((r) => r.op.startsWith("storage."))).toEqual([{ op: "storage.result", call: 7, value: undefined }, { op: "storage.failed", call: 8, message: "disk full" }]);
		expect(storage.files.has("g.sqlite")).toBe(true);
	});
});
