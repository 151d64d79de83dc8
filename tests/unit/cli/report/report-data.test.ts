import { parseNote } from "../../../../src/blocks";
import { notRunBlock, reportBlock, reportTotals, type ReportData } from "../../../../src/cli/report/report-data";
import type { BlockResult } from "../../../../src/runner/result";

const [login, bad] = parseNote("```http alias=login\nPOST http://127.0.0.1:9/login?k={{key}}\n```\n\n```http\nG@T http://127.0.0.1/x\n```\n");
const head = (status: number) => ({ status, statusText: "", httpVersion: "1.1", headers: [], url: "http://127.0.0.1/", redirects: 0 });
const done = (extra: object = {}): BlockResult => ({ kind: "http", state: "done", receivedBytes: 0, startedAt: 1_000_250, timing: { total: 12.34 }, head: head(200), ...extra });
const opts = { partStart: 1_000_000, failOnStatus: false, dependency: false };

describe("reportBlock", () => {
	it("names the block, its request as written before it was prepared, and its place on the part's clock", () => {
		expect(reportBlock(login, done(), opts)).toEqual({
			name: "login",
			line: 1,
			kind: "http",
			request: "POST http://127.0.0.1:9/login?k={{key}}",
			httpStatus: 200,
			status: "passed",
			state: "done",
			error: null,
			offsetMs: 250,
			durationMs: 12.3,
			dependency: false,
			assertions: [],
			pinDiff: null,
		});
	});

	it.each<[string, BlockResult, boolean, string]>([
		["a failed assertion", done({ assertions: [{ line: 3, text: "status == 201", ok: false, actual: "200", message: "expected 201" }] }), false, "failed"],
		["a 404 under --fail-on-status", done({ head: head(404) }), true, "failed"],
		["a 404 without it", done({ head: head(404) }), false, "passed"],
		["a cached answer", done({ state: "cached" }), false, "passed"],
		["no answer", { kind: "http", state: "failed", receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect" } }, false, "failed"],
		["a cancel", { state: "cancelled", error: { code: "cancelled", message: "[cancelled]" } }, false, "cancelled"],
		["a failed dependency", { state: "failed", error: { code: "dependency_failed", message: "skipped: depends on login, which failed" } }, false, "skipped"],
		["an invalid block", { state: "failed", error: { code: "invalid_block", message: "Invalid method" } }, false, "invalid"],
	])("reads %s", (_what, result, failOnStatus, status) => {
		expect(reportBlock(login, result, { ...opts, failOnStatus }).status).toBe(status);
	});

	it("keeps assertions, the error with its detail, and a pin diff when there is one", () => {
		const b = reportBlock(bad, { kind: "http", state: "failed", receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED" } }, { ...opts, pinDiff: "-a\n+b" });
		expect(b).toMatchObject({ name: "line 5", request: "G@T http://127.0.0.1/x", error: "Failed to connect (ECONNREFUSED)", offsetMs: null, durationMs: null, pinDiff: "-a\n+b" });
		const a = reportBlock(login, done({ assertions: [{ line: 3, text: "status == 200", ok: true, actual: "200" }] }), opts);
		expect(a.assertions).toEqual([{ line: 3, text: "status == 200", ok: true, actual: "200", message: null }]);
	});
});

describe("notRunBlock and reportTotals", () => {
	it("lists a block that never started, and counts notes and blocks by status over every part", () => {
		const data: ReportData = {
			version: 1,
			parts: [
				{ label: "shard 1/2", startedAt: 0, wallMs: 1, stopped: "deadline", notes: [{ path: "a.md", status: "not-run", error: null, offsetMs: null, durationMs: null, blocks: [notRunBlock(login)] }] },
				{ label: "shard 2/2", startedAt: 0, wallMs: 1, stopped: null, notes: [{ path: "b.md", status: "passed", error: null, offsetMs: 0, durationMs: 1, blocks: [reportBlock(login, done(), opts)] }] },
			],
		};
		expect(notRunBlock(login)).toMatchObject({ name: "login", status: "not-run", offsetMs: null });
		expect(reportTotals(data)).toEqual({ notes: { passed: 1, failed: 0, error: 0, "not-run": 1 }, blocks: { passed: 1, failed: 0, cancelled: 0, skipped: 0, invalid: 0, "not-run": 1 } });
	});
});
