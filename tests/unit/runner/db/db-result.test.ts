import { parseAliasPath } from "../../../../src/blocks";
import { readResult } from "../../../../src/runner/block-runners";
import { readDbPath } from "../../../../src/runner/db/db-result";
import type { BlockResult } from "../../../../src/runner/result";

describe("reading a db result through references", () => {
	const result: BlockResult = {
		kind: "db",
		state: "done",
		db: { connection: "lite", dialect: "sqlite", columns: [{ name: "id", type: "INTEGER" }], rows: [{ id: 7 }, { id: 9 }], rowCount: 2, truncated: false, statements: [{ kind: "select", rowCount: 2 }] },
	};
	const read = (inner: string) => readResult(result, parseAliasPath(inner) ?? (undefined as never));

	it("reads rows as an array of objects and the row count", () => {
		expect(read("q.response.body.$[0].id")).toEqual({ ok: true, value: "7" });
		expect(read("q.response.body.*")).toEqual({ ok: true, value: '[{"id":7},{"id":9}]' });
		expect(read("q.response.rowCount")).toEqual({ ok: true, value: "2" });
		const headers = readDbPath(result, { alias: "q", part: "response", section: "headers", selector: "x" });
		expect(!headers.ok && headers.message).toMatch(/has no headers/);
	});

	it("says an http result has no rowCount", () => {
		const http: BlockResult = { kind: "http", state: "done", receivedBytes: 0, head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: "http://x", redirects: 0 }, body: new Uint8Array() };
		expect(readResult(http, parseAliasPath("h.response.rowCount") ?? (undefined as never))).toMatchObject({ ok: false });
	});
});
