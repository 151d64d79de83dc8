import initSqlJs, { type SqlJsStatic } from "sql.js";
import type { HistoryEntry } from "../../../src/runner/executor";
import type { HistoryNotice } from "../../../src/runner/history-schema";
import { SqlJsHistory } from "../../../src/runner/sqljs-history";
import { memoryStorage, type MemoryStorage } from "../../support/memory-storage";

const PATH = "h.sqlite";
let SQL: SqlJsStatic;
beforeAll(async () => {
	SQL = await initSqlJs();
});
afterEach(() => {
	jest.useRealTimers();
});

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return { filePath: "api.md", alias: "login", method: "GET", url: `http://127.0.0.1:8080/?i=${i}`, status: 200, outcome: "done", errorCode: null, requestBytes: i, responseBytes: 0, durationMs: 1, timestamp: 1_700_000_000_000 + i, transport: "node", ...patch };
}

/** The runs of api.md/login in the file as it is now (a second store opened on the same storage). */
async function inFile(storage: MemoryStorage, alias = "login"): Promise<number[]> {
	const reader = await SqlJsHistory.open(SQL, storage, PATH);
	const bytes = reader.list("api.md", alias).map((r) => r.requestBytes);
	await reader.close();
	return bytes;
}

/** Resolves when `storage` next renames a file onto the history's path (a write landed). */
function nextLanding(storage: MemoryStorage): Promise<void> {
	const rename = storage.rename.bind(storage);
	return new Promise((resolve) => {
		storage.rename = async (from, to) => {
			await rename(from, to);
			if (to === PATH) {
				storage.rename = rename;
				resolve();
			}
		};
	});
}

describe("SqlJsHistory", () => {
	it("lists a recorded run at once, before anything is written, and writes nothing while nothing changed", async () => {
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH);
		const fileOps = () => storage.log.filter((l) => !l.endsWith(".lock"));
		expect(fileOps()).toEqual([]);
		store.record(entry(1));
		expect(store.list("api.md", "login").map((r) => r.requestBytes)).toEqual([1]);
		expect(storage.files.has(PATH)).toBe(false);
		await store.flush();
		storage.log.length = 0;
		await store.flush();
		expect(fileOps()).toEqual([]);
		await store.close();
	});

	it("coalesces runs into one write after debounceMs", async () => {
		jest.useFakeTimers();
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH, { debounceMs: 200 });
		const landed = nextLanding(storage);
		store.record(entry(1));
		jest.advanceTimersByTime(150);
		store.record(entry(2));
		jest.advanceTimersByTime(49);
		expect(storage.log.filter((l) => l.startsWith("write"))).toEqual([]);
		jest.advanceTimersByTime(1);
		await landed;
		expect(storage.log.filter((l) => l.startsWith("write"))).toHaveLength(1);
		jest.useRealTimers();
		expect(await inFile(storage)).toEqual([2, 1]);
		await store.close();
	});

	it("ignores a run recorded after close, and writes nothing for it", async () => {
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH);
		store.record(entry(1));
		await store.close();
		const written = storage.files.get(PATH);
		store.record(entry(2));
		store.renameFile("api.md", "b.md");
		expect(storage.files.get(PATH)).toBe(written);
		expect(await inFile(storage)).toEqual([1]);
	});

	it("applies a rename to the runs it holds and to the file", async () => {
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH);
		store.record(entry(1));
		store.renameFile("api.md", "b.md");
		expect(store.list("api.md", "login")).toEqual([]);
		expect(store.list("b.md", "login")).toHaveLength(1);
		await store.close();
		expect(await inFile(storage)).toEqual([]);
	});

	it("moves an unreadable temp file aside by writing its bytes when there is no history file to rename", async () => {
		const garbage = "not a database ".repeat(50);
		const storage = memoryStorage({ [`${PATH}.tmp`]: garbage });
		const notices: HistoryNotice[] = [];
		const store = await SqlJsHistory.open(SQL, storage, PATH, { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 6), onNotice: (_m, n) => notices.push(n) });
		const aside = `${PATH}.corrupt-2026-01-02T03-04-05-006Z`;
		expect(notices).toEqual([{ code: "moved_aside", reason: expect.any(String) as string, path: aside }]);
		expect(new TextDecoder().decode(storage.files.get(aside))).toBe(garbage);
		expect(storage.log).toContain(`write ${aside}`);
		expect(store.list("api.md", "login")).toEqual([]);
		await store.close();
	});

	it("reload takes in the file and keeps its own unwritten runs on top", async () => {
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH);
		const other = await SqlJsHistory.open(SQL, storage, PATH);
		other.record(entry(1, { alias: "cli" }));
		await other.close();
		store.record(entry(2));
		await store.reload();
		expect(store.list("api.md", "cli").map((r) => r.requestBytes)).toEqual([1]);
		expect(store.list("api.md", "login").map((r) => r.requestBytes)).toEqual([2]);
		await store.close();
		expect([await inFile(storage, "cli"), await inFile(storage)]).toEqual([[1], [2]]);
	});

	it("reload keeps what it holds when the file is missing or does not open", async () => {
		const storage = memoryStorage();
		const store = await SqlJsHistory.open(SQL, storage, PATH);
		store.record(entry(1));
		await store.reload();
		storage.files.set(PATH, new TextEncoder().encode("garbage ".repeat(100)));
		await store.reload();
		expect(store.list("api.md", "login").map((r) => r.requestBytes)).toEqual([1]);
		storage.files.delete(PATH);
		await store.close();
	});

	it("keeps the runs of a failed write, says why, and writes them with the next", async () => {
		const storage = memoryStorage();
		const notices: HistoryNotice[] = [];
		const store = await SqlJsHistory.open(SQL, storage, PATH, { onNotice: (_m, n) => notices.push(n) });
		store.record(entry(1));
		storage.refusing.add("write");
		await store.flush();
		expect(notices).toEqual([{ code: "write_failed", reason: "disk full" }]);
		storage.refusing.clear();
		store.record(entry(2));
		await store.close();
		expect(await inFile(storage)).toEqual([2, 1]);
	});
});
