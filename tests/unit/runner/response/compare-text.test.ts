import { httpFields } from "../../../../src/runner/http/http-run";
import { comparableBodies, headersText } from "../../../../src/runner/response/compare-text";
import type { HttpRun } from "../../../../src/runner/http/http-run";
import { NoteSession } from "../../../../src/runner/session";

const enc = new TextEncoder();
function run(type: string, body: string | Uint8Array, startedAt = 1, state: HttpRun["state"] = "done"): HttpRun {
	const bytes = typeof body === "string" ? enc.encode(body) : body;
	return { kind: "http", state, receivedBytes: bytes.byteLength, startedAt, head: { status: 200, statusText: "OK", headers: [["Content-Type", type], ["X-Run", String(startedAt)]] } as HttpRun["head"], body: bytes };
}

describe("response comparison text", () => {
	it("pretty-prints two JSON bodies, keeping key order", () => {
		expect(comparableBodies(run("application/json", '{"b":1,"a":[1]}'), run("application/json", '{"a":[1],"b":1}'))).toEqual({
			left: '{\n  "b": 1,\n  "a": [\n    1\n  ]\n}',
			right: '{\n  "a": [\n    1\n  ],\n  "b": 1\n}',
			json: true,
		});
	});

	it("compares as text when either side is not JSON, and describes a binary body instead of showing it", () => {
		expect(comparableBodies(run("application/json", "{}"), run("text/plain", "hello"))).toEqual({ left: "{}", right: "hello", json: false });
		const png = comparableBodies(run("image/png", new Uint8Array([137, 80, 78, 71, 0, 1])), run("text/plain", "x"));
		expect(png.left).toBe("(image body, image/png, 6 B)");
	});

	it("writes the status line, then headers in wire order", () => {
		expect(headersText(run("text/plain", "x", 7))).toBe("200 OK\nContent-Type: text/plain\nX-Run: 7");
		expect(headersText({})).toBe("");
	});
});

describe("previous run of a block", () => {
	it("keeps the finished run before the latest, in memory, for runs with a response only", () => {
		const s = new NoteSession();
		s.update("@a", run("text/plain", "one", 1));
		expect(s.previousRun("@a")).toBeUndefined();
		s.update("@a", { kind: "http", state: "running", receivedBytes: 0, startedAt: 2 });
		s.update("@a", { kind: "http", state: "failed", receivedBytes: 0, startedAt: 2 });
		expect(s.previousRun("@a")).toBeUndefined();
		s.update("@a", run("text/plain", "two", 3));
		s.update("@a", run("text/plain", "two", 3)); // the same run published again
		expect(new TextDecoder().decode(httpFields(s.previousRun("@a") ?? { state: "idle" }).body)).toBe("one");
		s.update("@a", run("text/plain", "three", 4, "cached"));
		expect(new TextDecoder().decode(httpFields(s.previousRun("@a") ?? { state: "idle" }).body)).toBe("two");
		expect(s.previousRun("@b")).toBeUndefined();
	});
});
