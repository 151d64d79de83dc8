/**
 * The CLI writes history through native SQLite (better-sqlite3), the plugin through sql.js:
 * both must read and extend each other's file. better-sqlite3 is an optional dependency that
 * our machines build on `npm ci`; these tests fail (rather than skip) when it is missing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openNativeHistory } from "../../../src/cli/native-history";
import { nodeStorage } from "../../../src/cli/node-storage";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HISTORY_RETENTION, HistoryStore, loadSqlJs, MIGRATIONS } from "../../../src/runner/history-store";

jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-native-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return {
		filePath: "api.md",
		alias: "login",
		method: "POST",
		url: `http://127.0.0.1/login?i=${i}`,
		status: 200,
		outcome: "done",
		errorCode: null,
		requestBytes: i,
		responseBytes: 10 * i,
		durationMs: 1.5,
		timestamp: 1_700_000_000_000 + i,
		transport: "node",
		...patch,
	};
}

describe("native history (better-sqlite3) and the plugin's sql.js store share one file", () => {
	it("rows written natively are read by sql.js, field for field", async () => {
		const path = join(dir, "sub", "history.sqlite");
		const native = openNativeHistory(path);
		expect(native).not.toBeNull();
		native?.record(entry(1, { errorCode: "timeout", outcome: "failed", status: null }));
		native?.record(entry(2));
		await native?.close();
		const js = await HistoryStore.open(nodeStorage, path);
		const rows = js.list("api.md", "login");
		expect(rows.map(({ id: _id, ...r }) => r)).toEqual([entry(2), entry(1, { errorCode: "timeout", outcome: "failed", status: null })]);
		await js.close();
	});

	it("extends a file sql.js wrote, keeps retention, and sql.js reads the result", async () => {
		const path = join(dir, "history.sqlite");
		const js = await HistoryStore.open(nodeStorage, path);
		for (let i = 0; i < 8; i++) js.record(entry(i));
		js.record(entry(100, { alias: "other" }));
		await js.close();

		const native = openNativeHistory(path);
		for (let i = 8; i < 13; i++) native?.record(entry(i));
		native?.renameFile("api.md", "moved.md");
		await native?.close();
		expect(openNativeHistory(path)?.list("moved.md", "login").map((r) => r.requestBytes)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);

		const again = await HistoryStore.open(nodeStorage, path);
		expect(again.list("moved.md", "login")).toHaveLength(HISTORY_RETENTION);
		expect(again.list("moved.md", "other").map((r) => r.requestBytes)).toEqual([100]);
		await again.close();
	});

	it("migrates a file of an older schema version, as sql.js does", async () => {
		const path = join(dir, "history.sqlite");
		const SQL = await loadSqlJs();
		const old = new SQL.Database();
		old.run(MIGRATIONS[0]);
		old.run("PRAGMA user_version = 1");
		old.run("INSERT INTO block_run_history (file_path, alias, method, url, status, outcome, request_bytes, response_bytes, duration_ms, timestamp) VALUES ('api.md', 'login', 'GET', 'u', 200, 'done', 1, 2, 3, 4)");
		writeFileSync(path, old.export());
		old.close();

		const native = openNativeHistory(path);
		native?.record(entry(5));
		await native?.close();
		const rows = openNativeHistory(path)?.list("api.md", "login") ?? [];
		expect(rows.map((r) => [r.requestBytes, r.transport])).toEqual([
			[5, "node"],
			[1, "node"],
		]);
		const check = new SQL.Database(readFileSync(path));
		expect(check.exec("PRAGMA user_version")[0].values[0][0]).toBe(MIGRATIONS.length);
		check.close();
	});

	it("upgrades a history file of the previous schema (version 3), keeping every row", async () => {
		const path = join(dir, "history.sqlite");
		writeFileSync(path, readFileSync(join(__dirname, "../../fixtures/history/history-v3.sqlite")));
		const native = openNativeHistory(path);
		native?.record(entry(5, { alias: "feed", method: "WEBSOCKET", closeCode: 1000, sentCount: 3 }));
		await native?.close();
		const SQL = await loadSqlJs();
		const check = new SQL.Database(readFileSync(path));
		expect(check.exec("PRAGMA user_version")[0].values[0][0]).toBe(MIGRATIONS.length);
		expect(check.exec("SELECT alias, method, close_code, sent_count FROM block_run_history ORDER BY id")[0].values).toEqual([
			["list", "GET", null, null],
			["feed", "WEBSOCKET", null, null],
			["ticks", "SSE", null, null],
			["q", "SELECT", null, null],
			["feed", "WEBSOCKET", 1000, 3],
		]);
		check.close();
	});

	it("declines a file that is not a database (the sql.js store then moves it aside)", async () => {
		const path = join(dir, "history.sqlite");
		writeFileSync(path, "this is not sqlite, it is a note someone pasted here".repeat(100));
		expect(openNativeHistory(path)).toBeNull();
		expect(readFileSync(path, "utf8")).toContain("this is not sqlite");
		const js = await HistoryStore.open(nodeStorage, path);
		js.record(entry(1));
		await js.close();
		expect(openNativeHistory(path)?.list("api.md", "login")).toHaveLength(1);
	});
});
