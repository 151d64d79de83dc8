import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeStorage } from "../../../src/cli/node-storage";
import { DeferredHistory } from "../../../src/runner/deferred-history";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HistoryStore } from "../../../src/runner/history-store";

jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-deferred-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function entry(i: number): HistoryEntry {
	return {
		filePath: "api.md",
		alias: "login",
		method: "GET",
		url: `http://127.0.0.1/x?i=${i}`,
		status: 200,
		outcome: "done",
		errorCode: null,
		requestBytes: i,
		responseBytes: 0,
		durationMs: 1,
		timestamp: 1_700_000_000_000 + i,
		transport: "node",
	};
}

/** A `later` that runs its callbacks only when the test says so. */
function manualLater(): { later: (f: () => void) => void; run(): void; waiting(): number } {
	const queue: Array<() => void> = [];
	return { later: (f) => queue.push(f), run: () => queue.splice(0).forEach((f) => f()), waiting: () => queue.length };
}

describe("deferred history (real sql.js, real files)", () => {
	it("records at once without opening the database; rows land, in order, once it opens", async () => {
		const path = join(dir, "history.sqlite");
		let opens = 0;
		const clock = manualLater();
		const history = new DeferredHistory(
			() => {
				opens++;
				return HistoryStore.open(nodeStorage, path, { debounceMs: 5 });
			},
			(e) => {
				throw e;
			},
			clock.later,
		);
		history.record(entry(1));
		history.record(entry(2));
		history.renameFile("api.md", "renamed.md");
		history.record({ ...entry(3), filePath: "renamed.md" });
		// Nothing opened synchronously: the caller's request goes out first.
		expect(opens).toBe(0);
		expect(clock.waiting()).toBe(1);
		clock.run();
		const rows = await history.list("renamed.md", "login");
		expect(opens).toBe(1);
		expect(rows.map((r) => r.requestBytes)).toEqual([3, 2, 1]);
		await history.close();
		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("renamed.md", "login")).toHaveLength(3);
		await again.close();
	});

	it("reports a failed open, keeps the rows and tries again on the next use", async () => {
		const path = join(dir, "history.sqlite");
		const errors: string[] = [];
		let fail = true;
		const history = new DeferredHistory(
			() => (fail ? Promise.reject(new Error("wasm refused")) : HistoryStore.open(nodeStorage, path)),
			(e) => errors.push(e instanceof Error ? e.message : String(e)),
		);
		history.record(entry(1));
		expect(await history.ready()).toBeNull();
		expect(errors).toEqual(["wasm refused"]);
		fail = false;
		history.record(entry(2));
		expect((await history.list("api.md", "login")).map((r) => r.requestBytes)).toEqual([2, 1]);
		await history.close();
		expect(errors).toHaveLength(1);
	});

	it("close() opens the store when rows wait, so they are written", async () => {
		const path = join(dir, "history.sqlite");
		const history = new DeferredHistory(
			() => HistoryStore.open(nodeStorage, path),
			() => undefined,
			() => undefined, // never opens by itself
		);
		history.record(entry(7));
		await history.close();
		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("api.md", "login").map((r) => r.requestBytes)).toEqual([7]);
		await again.close();
	});
});
