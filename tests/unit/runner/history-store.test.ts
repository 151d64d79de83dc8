import type { HistoryEntry } from "../../../src/runner/executor";
import { HistoryStore } from "../../../src/runner/history-store";
import { memoryStorage } from "../../support/memory-storage";

const PATH = "history.sqlite";

function entry(i: number): HistoryEntry {
	return { filePath: "api.md", alias: "login", method: "GET", url: `http://127.0.0.1:8080/?i=${i}`, status: 200, outcome: "done", errorCode: null, requestBytes: i, responseBytes: 0, durationMs: 1, timestamp: 1_700_000_000_000 + i, transport: "node" };
}

describe("HistoryStore: run history in sql.js on the calling thread", () => {
	it("opens an empty history where there is no file yet", async () => {
		const store = await HistoryStore.open(memoryStorage(), PATH);
		expect(store.list("api.md", "login")).toEqual([]);
		await store.close();
	});

	it("keeps what it recorded in the file, for the next store opened on it", async () => {
		const storage = memoryStorage();
		const first = await HistoryStore.open(storage, PATH);
		first.record(entry(1));
		first.record(entry(2));
		await first.close();
		expect(storage.files.has(PATH)).toBe(true);

		const second = await HistoryStore.open(storage, PATH);
		expect(second.list("api.md", "login").map((r) => r.requestBytes).sort()).toEqual([1, 2]);
		await second.close();
	});

	it("moves a file that is not a history aside with a notice, keeping its bytes, and starts afresh", async () => {
		const notices: string[] = [];
		const storage = memoryStorage({ [PATH]: "not a database" });
		const store = await HistoryStore.open(storage, PATH, { onNotice: (message) => notices.push(message), now: () => Date.UTC(2024, 0, 2, 3, 4, 5) });
		expect(store.list("api.md", "login")).toEqual([]);
		const aside = `${PATH}.corrupt-2024-01-02T03-04-05-000Z`;
		expect(notices).toEqual([expect.stringContaining(`it was moved to ${aside}`)]);
		expect(new TextDecoder().decode(storage.files.get(aside))).toBe("not a database");
		await store.close();
	});
});
