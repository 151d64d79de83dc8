import { parseNote } from "../../../src/blocks";
import type { HttpResult } from "../../../src/runner/http/http-run";
import type { BlockResult } from "../../../src/runner/result";
import { resultToJson, roundTiming } from "../../../src/cli/result-json";

const [block] = parseNote("# API\n\n```http alias=me\nGET http://127.0.0.1/x\n```");
const request = { method: "GET" as const, url: "http://127.0.0.1/x", headers: [], body: "", followRedirects: true, timeoutMs: 5000 };
const done = (contentType: string, body: Uint8Array): HttpResult => ({
	kind: "http",
	state: "done",
	receivedBytes: body.byteLength,
	request,
	head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", contentType]], url: request.url, redirects: 0 },
	body,
	timing: { total: 12.345 },
});

describe("--json timings", () => {
	it("are rounded to 0.1 ms, other fields kept", () => {
		expect(roundTiming({ total: 12.3456, dns: 0.04, ttfb: 7.25, connectionReused: true })).toEqual({ total: 12.3, dns: 0, ttfb: 7.3, connectionReused: true });
	});
});


describe("resultToJson", () => {
	it("writes a block's run in the documented shape", () => {
		expect(resultToJson(block, done("text/plain; charset=utf-8", new TextEncoder().encode("héllo")), true)).toEqual({
			alias: "me",
			line: 3,
			state: "done",
			status: 200,
			headers: [["Content-Type", "text/plain; charset=utf-8"]],
			body: "héllo",
			size: 6,
			timing: { total: 12.3 },
			error: null,
			dependency: true,
		});
	});

	it("gives a body that is binary, or text that does not decode, as base64", () => {
		const png = resultToJson(block, done("image/png", new Uint8Array([0x89, 0x50, 0x4e, 0x47])), false);
		expect([png.body, png.bodyBase64]).toEqual([undefined, "iVBORw=="]);
		const broken = resultToJson(block, done("text/plain; charset=utf-8", new Uint8Array([0x61, 0xff, 0x62])), false);
		expect([broken.body, broken.bodyBase64]).toEqual([undefined, "Yf9i"]);
	});

	it("carries the error with a timeout's limit, and the assertions", () => {
		const timedOut: BlockResult = { kind: "http", state: "cancelled", receivedBytes: 0, request, error: { code: "timeout", message: "Request cancelled" } };
		expect(resultToJson(block, timedOut, false)).toMatchObject({ state: "cancelled", status: null, headers: [], size: 0, timing: null, error: { code: "timeout", message: "Request cancelled", detail: "timeout 5000 ms" } });
		const checked = { ...done("text/plain", new Uint8Array()), assertions: [{ line: 5, text: "status == 201", ok: false, actual: "200", message: "expected 201" }] };
		expect(resultToJson(block, checked, false).assertions).toEqual([{ line: 5, text: "status == 201", ok: false, actual: "200", message: "expected 201" }]);
		expect(resultToJson(block, done("text/plain", new Uint8Array()), false)).not.toHaveProperty("assertions");
	});

	it("adds a db block's rows", () => {
		const db = {
			kind: "db",
			state: "done",
			db: { connection: "shop", dialect: "sqlite", columns: [{ name: "n", type: "INTEGER" }], rows: [{ n: 1 }], rowCount: 1, truncated: false, statements: [{ kind: "select", rowCount: 1 }] },
		} as BlockResult;
		expect(resultToJson(block, db, false)).toMatchObject({ status: null, db: { connection: "shop", rows: [{ n: 1 }], rowCount: 1 } });
	});
});
