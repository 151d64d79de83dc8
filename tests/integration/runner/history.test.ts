import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeStorage } from "../../../src/cli/node-storage";
import type { BinaryStorage } from "../../../src/runner/binary-storage";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HistoryStore, loadSqlJs, MIGRATIONS } from "../../../src/runner/history-store";
import { maskSecrets } from "../../../src/runner/mask-secrets";

jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-history-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return {
		filePath: "notes/api.md",
		alias: "login",
		method: "POST",
		url: `http://127.0.0.1:8080/login?i=${i}`,
		status: 200,
		outcome: "done",
		errorCode: null,
		requestBytes: 100 + i,
		responseBytes: 1000 + i,
		durationMs: 12.5,
		timestamp: 1_700_000_000_000 + i,
		transport: "node",
		...patch,
	};
}

/** Real storage that counts writes. */
function counting(storage: BinaryStorage): BinaryStorage & { writes: number } {
	const c = { ...storage, writes: 0 };
	c.write = async (p, d) => {
		c.writes++;
		await storage.write(p, d);
	};
	return c;
}

describe("history store (sql.js, real files)", () => {
	it("keeps exactly the last 10 runs of a block after 25 runs, newest first", async () => {
		const path = join(dir, "history.sqlite");
		const store = await HistoryStore.open(nodeStorage, path, { debounceMs: 10 });
		for (let i = 0; i < 25; i++) store.record(entry(i));
		store.record(entry(99, { alias: "other" }));
		await store.close();
		const again = await HistoryStore.open(nodeStorage, path);
		const rows = again.list("notes/api.md", "login");
		expect(rows).toHaveLength(10);
		expect(rows.map((r) => r.requestBytes)).toEqual([124, 123, 122, 121, 120, 119, 118, 117, 116, 115]);
		expect(again.list("notes/api.md", "other")).toHaveLength(1);
		await again.close();
	});

	it("stores no body and no header value anywhere in the file", async () => {
		const path = join(dir, "history.sqlite");
		const store = await HistoryStore.open(nodeStorage, path, { debounceMs: 10 });
		// The entry type has no body or header fields; the marker could only arrive through the URL, which we mask.
		store.record(entry(1, { url: maskSecrets("http://h/?token=BODY-MARKER-42", ["BODY-MARKER-42"]) }));
		await store.close();
		const raw = readFileSync(path).toString("utf8");
		expect(raw).toContain("block_run_history");
		expect(raw).not.toContain("BODY-MARKER-42");
		expect(raw).toContain("http://h/?token=•••");
	});

	it("moves a note's history on rename", async () => {
		const store = await HistoryStore.open(nodeStorage, join(dir, "h.sqlite"));
		store.record(entry(1));
		store.renameFile("notes/api.md", "archive/api.md");
		expect(store.list("notes/api.md", "login")).toEqual([]);
		expect(store.list("archive/api.md", "login")).toHaveLength(1);
		await store.close();
	});

	it("debounces writes and writes atomically (no temp file left)", async () => {
		const path = join(dir, "history.sqlite");
		const storage = counting(nodeStorage);
		const store = await HistoryStore.open(storage, path, { debounceMs: 50 });
		for (let i = 0; i < 20; i++) store.record(entry(i));
		// Wait for the write and its lock to finish (a loaded machine is slow), then past another debounce.
		for (let waited = 0; (storage.writes === 0 || readdirSync(dir).length > 1) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
		await new Promise((r) => setTimeout(r, 150));
		expect(storage.writes).toBe(1);
		expect(readdirSync(dir)).toEqual(["history.sqlite"]);
		await store.close();
	});

	it("moves a corrupt file aside with a message and starts a fresh history", async () => {
		const path = join(dir, "history.sqlite");
		writeFileSync(path, "this is not a database, it is garbage ".repeat(100));
		const notices: string[] = [];
		const store = await HistoryStore.open(nodeStorage, path, { onNotice: (m) => notices.push(m), now: () => Date.UTC(2026, 0, 2) });
		expect(notices).toHaveLength(1);
		expect(notices[0]).toContain("history.sqlite.corrupt-2026-01-02T00-00-00-000Z");
		const files = readdirSync(dir);
		expect(files).toEqual(["history.sqlite.corrupt-2026-01-02T00-00-00-000Z"]);
		expect(readFileSync(join(dir, files[0]), "utf8")).toContain("garbage");
		store.record(entry(1));
		await store.close();
		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("notes/api.md", "login")).toHaveLength(1);
		await again.close();
	});

	it("recovers from a temp file left by an interrupted write", async () => {
		const path = join(dir, "history.sqlite");
		const store = await HistoryStore.open(nodeStorage, `${path}-src`, { debounceMs: 1 });
		store.record(entry(7));
		await store.close();
		writeFileSync(`${path}.tmp`, readFileSync(`${path}-src`));
		const recovered = await HistoryStore.open(nodeStorage, path);
		expect(recovered.list("notes/api.md", "login").map((r) => r.requestBytes)).toEqual([107]);
		await recovered.close();
	});

	it("migrates a version 1 database, keeping its rows", async () => {
		const SQL = await loadSqlJs();
		const v1 = new SQL.Database();
		v1.run(MIGRATIONS[0]);
		v1.run("PRAGMA user_version = 1");
		v1.run("INSERT INTO block_run_history (file_path, alias, method, url, status, outcome, request_bytes, response_bytes, duration_ms, timestamp) VALUES ('a.md','x','GET','http://h/',200,'done',1,2,3,4)");
		const path = join(dir, "history.sqlite");
		writeFileSync(path, v1.export());
		v1.close();
		const store = await HistoryStore.open(nodeStorage, path);
		const [row] = store.list("a.md", "x");
		expect(row).toMatchObject({ method: "GET", status: 200, errorCode: null, transport: "node" });
		store.record(entry(1, { filePath: "a.md", alias: "x", errorCode: "timeout", outcome: "cancelled" }));
		expect(store.list("a.md", "x")[0]).toMatchObject({ errorCode: "timeout", outcome: "cancelled" });
		await store.close();
	});

	it("upgrades a history file of the previous schema (version 3): every row kept, a stream's close code recorded after", async () => {
		const path = join(dir, "history.sqlite");
		writeFileSync(path, readFileSync(join(__dirname, "../../fixtures/history/history-v3.sqlite")));
		const store = await HistoryStore.open(nodeStorage, path, { debounceMs: 0 });
		expect(store.list("API/Chat.md", "feed")).toEqual([expect.objectContaining({ id: 2, method: "WEBSOCKET", url: "ws://127.0.0.1:8080/feed?token=•••", itemCount: 4 })]);
		store.record(entry(1, { filePath: "API/Chat.md", alias: "feed", method: "WEBSOCKET", transport: "ws", itemCount: 2, closeCode: 4001, sentCount: 1 }));
		await store.close();
		const SQL = await loadSqlJs();
		const file = new SQL.Database(readFileSync(path));
		expect(file.exec("PRAGMA user_version")[0].values[0][0]).toBe(MIGRATIONS.length);
		expect(file.exec("SELECT id, alias, method, row_count, close_code, sent_count FROM block_run_history ORDER BY id")[0].values).toEqual([
			[1, "list", "GET", null, null, null],
			[2, "feed", "WEBSOCKET", 4, null, null],
			[3, "ticks", "SSE", 3, null, null],
			[4, "q", "SELECT", 2, null, null],
			[5, "feed", "WEBSOCKET", 2, 4001, 1],
		]);
		file.close();
	});
});

describe("history store: several writers on one file", () => {
	it("merges on write: two stores open on one file keep each other's rows", async () => {
		const path = join(dir, "history.sqlite");
		const a = await HistoryStore.open(nodeStorage, path, { debounceMs: 10_000 });
		const b = await HistoryStore.open(nodeStorage, path, { debounceMs: 10_000 });
		a.record(entry(1, { alias: "from-a" }));
		b.record(entry(2, { alias: "from-b" }));
		await a.flush();
		await b.flush();
		// b re-read the file under the lock before writing: a's row survived, and b now lists it.
		expect(b.list("notes/api.md", "from-a").map((r) => r.requestBytes)).toEqual([101]);
		await a.close();
		await b.close();
		const check = await HistoryStore.open(nodeStorage, path);
		expect(check.list("notes/api.md", "from-a")).toHaveLength(1);
		expect(check.list("notes/api.md", "from-b")).toHaveLength(1);
		await check.close();
	});

	it("reload takes in another writer's rows and keeps its own unwritten ones on top", async () => {
		const path = join(dir, "history.sqlite");
		const plugin = await HistoryStore.open(nodeStorage, path, { debounceMs: 10_000 });
		plugin.record(entry(1, { alias: "mine" }));
		const cli = await HistoryStore.open(nodeStorage, path);
		cli.record(entry(2, { alias: "theirs" }));
		await cli.close();
		expect(plugin.list("notes/api.md", "theirs")).toHaveLength(0);
		await plugin.reload();
		expect(plugin.list("notes/api.md", "theirs")).toHaveLength(1);
		expect(plugin.list("notes/api.md", "mine")).toHaveLength(1);
		await plugin.close();
		const check = await HistoryStore.open(nodeStorage, path);
		expect([...check.list("notes/api.md", "mine"), ...check.list("notes/api.md", "theirs")]).toHaveLength(2);
		await check.close();
	});

	it("keeps unwritten rows when a write fails and writes them on the next try", async () => {
		const path = join(dir, "history.sqlite");
		const notices: string[] = [];
		const store = await HistoryStore.open(nodeStorage, path, { debounceMs: 10_000, onNotice: (m) => notices.push(m), lock: { owner: { pid: process.pid, host: "h" }, timeoutMs: 50 } });
		writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: "h", time: Date.now() }));
		store.record(entry(1));
		await store.flush();
		expect(notices.join()).toContain("could not be written");
		rmSync(`${path}.lock`);
		store.record(entry(2));
		await store.close();
		const check = await HistoryStore.open(nodeStorage, path);
		expect(check.list("notes/api.md", "login").map((r) => r.requestBytes)).toEqual([102, 101]);
		await check.close();
	});
});
