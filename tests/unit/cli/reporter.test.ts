import type { HttpResult } from "../../../src/runner/http/http-run";
import { parseNote } from "../../../src/blocks";
import { bodyPreview, describeResult, errorText, isErrorStatus, problemLines, Reporter } from "../../../src/cli/reporter";
import { PLAIN } from "../../../src/cli/terminal";
import type { BlockResult } from "../../../src/runner/result";

const request = { method: "GET" as const, url: "http://127.0.0.1/x", headers: [], body: "", followRedirects: true, timeoutMs: 5000 };
const rich = { rich: true, colour: false, progress: false };

function done(status: number, contentType: string, body: string | Uint8Array): HttpResult {
	const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
	return { kind: "http", state: "done", receivedBytes: bytes.byteLength, request, head: { status, statusText: status === 200 ? "OK" : "Not Found", httpVersion: "1.1", headers: [["Content-Type", contentType]], url: request.url, redirects: 0 }, body: bytes, timing: { total: 12.345 } };
}

describe("a block's line", () => {
	const [block] = parseNote("```http alias=me\nGET http://127.0.0.1/x\n```");

	it("says, under the line, where scripts the peers run are not run", () => {
		const [withScript] = parseNote("# API\n```http alias=me\nGET http://127.0.0.1/x\n\n> {% client.global.set('t', 1) %}\n```");
		expect(describeResult(withScript, done(200, "text/plain", "ok"), PLAIN, "api.md").split("\n")).toEqual([
			"✓ me  GET http://127.0.0.1/x  → 200 OK  12 ms  2 B",
			"    api.md:5: Scripts are not run: this line stays in the note and is never sent",
		]);
	});

	it("says, under the line, that kulala's run and import lines are not read", () => {
		const [kulala] = parseNote("```http alias=me\nimport ./a.http\nrun #Login\nGET http://127.0.0.1/x\n```");
		expect(describeResult(kulala, done(200, "text/plain", "ok"), PLAIN, "api.md").split("\n")).toEqual([
			"✓ me  GET http://127.0.0.1/x  → 200 OK  12 ms  2 B",
			'    api.md:2: Import lines (kulala) are not read: bring that file\'s requests into a note with the command "Import .http file"',
			"    api.md:3: Run lines (kulala) are not read: run that request yourself first; a {{alias.response…}} reference to it says when it has not run",
		]);
	});

	it("says status, time and size, and a timeout's limit", () => {
		expect(describeResult(block, done(200, "application/json", "{}"))).toBe("✓ me  GET http://127.0.0.1/x  → 200 OK  12 ms  2 B");
		const timedOut: BlockResult = { kind: "http", state: "cancelled", receivedBytes: 0, request, error: { code: "timeout", message: "Request cancelled" }, timing: { total: 5000 } };
		expect(errorText(timedOut)).toBe("Request cancelled (timeout 5000 ms)");
		expect(describeResult(block, timedOut)).toBe("⊘ me  GET http://127.0.0.1/x  5.00 s  Request cancelled (timeout 5000 ms)");
	});

	it("says how old a cached response is, as the panel does", () => {
		const cached: BlockResult = { ...done(200, "application/json", "{}"), state: "cached", startedAt: 100_000, cachedAt: 40_000 };
		expect(describeResult(block, cached)).toBe("✓ me  GET http://127.0.0.1/x  → 200 OK  (cached, 1 min ago)  2 B");
	});

	it("colours only when asked", () => {
		expect(describeResult(block, done(404, "text/plain", "no"), { rich: true, colour: true, progress: false })).toContain("\u001b[33m→ 404 Not Found\u001b[0m");
		expect(describeResult(block, done(404, "text/plain", "no"), rich)).not.toContain("\u001b");
	});

	it("places every error of an invalid block at file:line:column", () => {
		const [bad] = parseNote("# t\n```http timeout=x\n  G@T http://a\nBad Name: 1\n```");
		expect(problemLines("n.md", bad)).toEqual([
			'n.md:2:9: timeout "x" is invalid: use a positive whole number of milliseconds',
			'n.md:3:3: Invalid method "G@T": use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
			'n.md:4:1: Invalid HTTP token: header name "Bad Name"',
		]);
		const failed: BlockResult = { kind: "http", state: "failed", receivedBytes: 0, error: { code: "invalid_block", message: "Line 2: …" } };
		expect(describeResult(bad, failed, PLAIN, "n.md").split("\n")).toEqual([
			'✗ line 2  G@T http://a  n.md:2:9: timeout "x" is invalid: use a positive whole number of milliseconds',
			'    n.md:3:3: Invalid method "G@T": use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
			'    n.md:4:1: Invalid HTTP token: header name "Bad Name"',
		]);
	});

	it("counts 4xx and 5xx as error statuses (for --fail-on-status), never a failed run", () => {
		expect([200, 302, 404, 503].map((s) => isErrorStatus(done(s, "text/plain", "")))).toEqual([false, false, true, true]);
		expect(isErrorStatus({ kind: "http", state: "failed", receivedBytes: 0 })).toBe(false);
	});
});

describe("body preview", () => {
	it("pretty-prints JSON and keeps the first lines", () => {
		const body = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => i) });
		const lines = bodyPreview(done(200, "application/json", body), rich);
		expect(lines.slice(0, 3)).toEqual(["  │ {", '  │   "items": [', "  │     0,"]);
		expect(lines).toHaveLength(11);
		expect(lines[10]).toBe("  … 61 B in all");
	});

	it("describes binary bodies and decodes text by its charset", () => {
		expect(bodyPreview(done(200, "image/png", new Uint8Array([137, 80, 78, 71, 0, 1])), rich)).toEqual(["  (image, image/png, 6 B)"]);
		expect(bodyPreview(done(200, "text/plain; charset=iso-8859-1", new Uint8Array([0x63, 0x61, 0x66, 0xe9])), rich)).toEqual(["  │ café"]);
	});

	/** 50 MiB: `head` once, then `unit` over and over. */
	function huge(head: string, unit: string): Uint8Array {
		const bytes = new Uint8Array(50 * 1024 * 1024);
		const pattern = new TextEncoder().encode(unit.repeat(4096));
		for (let at = 0; at < bytes.length; at += pattern.length) bytes.set(pattern.subarray(0, bytes.length - at), at);
		bytes.set(new TextEncoder().encode(head));
		return bytes;
	}

	it.each([
		["text/plain", () => huge("", "a"), `  │ ${"a".repeat(159)}…`],
		["application/json", () => huge("[1", ",1"), "  │ ["],
	])("reads only the first 16 KiB of a huge %s body", (type, body, first) => {
		// What is decoded, counted by TextDecoder's own calls (passed through): the cost is the bytes read.
		const decode = jest.spyOn(TextDecoder.prototype, "decode");
		try {
			const lines = bodyPreview(done(200, type, body()), rich);
			expect(lines[0]).toBe(first);
			expect(lines.at(-1)).toBe("  … 50.0 MiB in all");
			const decoded = decode.mock.calls.map(([input]) => (input as Uint8Array | undefined)?.byteLength ?? 0);
			expect(decoded.length).toBeGreaterThan(0);
			expect(Math.max(...decoded)).toBeLessThanOrEqual(16 * 1024);
		} finally {
			decode.mockRestore();
		}
	});
});

describe("the Reporter's order", () => {
	const blocks = parseNote(["a", "b", "c"].map((a) => `\`\`\`http alias=${a}\nGET http://127.0.0.1/${a}\n\`\`\``).join("\n"));
	const [a, b, c] = blocks;
	const reporter = () => {
		const lines: string[] = [];
		return { lines, r: new Reporter((s) => lines.push(...s.trimEnd().split("\n")), () => undefined, PLAIN, 3, "api.md") };
	};
	const names = (lines: string[]) => lines.map((l) => l.split("  ")[0]);

	it("prints blocks that end out of order in the plan's order, each as soon as those above it have printed", () => {
		const { lines, r } = reporter();
		r.plan(blocks);
		r.done(c, done(200, "text/plain", "c"));
		r.done(b, done(200, "text/plain", "b"));
		expect(lines).toEqual([]);
		r.done(a, done(200, "text/plain", "a"));
		expect(names(lines)).toEqual(["✓ a", "✓ b", "✓ c"]);
	});

	it("prints each block as it ends without a plan, and what waits when the run ends early (flush)", () => {
		const unplanned = reporter();
		unplanned.r.done(b, done(200, "text/plain", "b"));
		expect(names(unplanned.lines)).toEqual(["✓ b"]);
		const early = reporter();
		early.r.plan(blocks);
		early.r.done(c, done(200, "text/plain", "c"));
		early.r.flush();
		expect(names(early.lines)).toEqual(["✓ c"]);
	});
});
