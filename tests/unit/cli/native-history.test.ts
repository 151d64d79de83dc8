import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { openNativeHistory } from "../../../src/cli/native-history";
import type { HistoryEntry } from "../../../src/runner/executor";
import { HISTORY_RETENTION, HISTORY_TABLE } from "../../../src/runner/history-store";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-native-unit-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const entry = (i: number, filePath = "api.md"): HistoryEntry => ({
	filePath,
	alias: "login",
	method: "GET",
	url: `http://127.0.0.1/?i=${i}`,
	status: 200,
	outcome: "done",
	errorCode: null,
	requestBytes: i,
	responseBytes: 0,
	durationMs: 1,
	timestamp: i,
	transport: "node",
});

const open = (path: string) => {
	const history = openNativeHistory(path);
	if (!history) throw new Error("better-sqlite3 is an optional dependency our machines build; it is missing");
	return history;
};

describe("the CLI's run history through native SQLite", () => {
	it("is unavailable without the driver, and for a file that is not a database (the sql.js store moves it aside)", () => {
		expect(openNativeHistory(join(dir, "h.sqlite"), undefined, null)).toBeNull();
		writeFileSync(join(dir, "broken.sqlite"), "not a database at all, not even close to one");
		expect(openNativeHistory(join(dir, "broken.sqlite"))).toBeNull();
	});

	it("writes nothing until close, then lists the block's runs newest first", async () => {
		const path = join(dir, "h.sqlite");
		const history = open(path);
		history.record(entry(1));
		history.record(entry(2));
		expect(existsSync(path)).toBe(false);
		expect(history.list("api.md", "login")).toEqual([]);
		await history.close();
		expect(open(path).list("api.md", "login").map((r) => r.requestBytes)).toEqual([2, 1]);
	});

	it("ignores what comes after close", async () => {
		const path = join(dir, "h.sqlite");
		const history = open(path);
		history.record(entry(1));
		await history.close();
		history.record(entry(2));
		history.renameFile("api.md", "moved.md");
		const image = new BetterSqlite3(Buffer.from(history.snapshot()));
		try {
			expect(image.prepare(`SELECT file_path, request_bytes FROM ${HISTORY_TABLE}`).raw().all()).toEqual([["api.md", 1]]);
		} finally {
			image.close();
		}
		await history.close();
		expect(open(path).list("api.md", "login")).toHaveLength(1);
	});

	it("keeps each block's newest runs, trimmed before a rename moves them", async () => {
		const path = join(dir, "h.sqlite");
		const history = open(path);
		for (let i = 1; i <= HISTORY_RETENTION + 3; i++) history.record(entry(i));
		history.renameFile("api.md", "moved.md");
		await history.close();
		const rows = open(path).list("moved.md", "login");
		expect(rows.map((r) => r.requestBytes)).toEqual(Array.from({ length: HISTORY_RETENTION }, (_, i) => HISTORY_RETENTION + 3 - i));
		expect(open(path).list("api.md", "login")).toEqual([]);
	});

	it("trims a block's runs once more after rows recorded under its new name", async () => {
		const path = join(dir, "h.sqlite");
		const history = open(path);
		for (let i = 1; i <= HISTORY_RETENTION; i++) history.record(entry(i));
		history.renameFile("api.md", "moved.md");
		history.record(entry(100, "moved.md"));
		await history.close();
		const rows = open(path).list("moved.md", "login");
		expect(rows).toHaveLength(HISTORY_RETENTION);
		expect([rows[0].requestBytes, rows.at(-1)!.requestBytes]).toEqual([100, 2]);
	});

	it("snapshots the file with this run's pending changes on top, leaving the file as it was", async () => {
		const path = join(dir, "h.sqlite");
		const first = open(path);
		first.record(entry(1));
		await first.close();
		const second = open(path);
		second.record(entry(2));
		const image = new BetterSqlite3(Buffer.from(second.snapshot()));
		try {
			expect(image.prepare(`SELECT request_bytes FROM ${HISTORY_TABLE} ORDER BY id`).raw().all()).toEqual([[1], [2]]);
		} finally {
			image.close();
		}
		expect(open(path).list("api.md", "login")).toHaveLength(1);
	});
});
