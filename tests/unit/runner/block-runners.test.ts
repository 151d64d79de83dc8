import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseNote } from "../../../src/blocks";
import { allSnippetFormats, BLOCK_RUNNERS, exportingKinds, httpFileLines, isExportable, prepareExport, readResult, runBlock, runnableFences, snippetFormats, writeSnippet } from "../../../src/runner/block-runners";
import type { HistoryEntry, ResultCache } from "../../../src/runner/executor";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { BlockRunContext } from "../../../src/runner/kind-runner";
import type { BlockResult, RunSnapshot } from "../../../src/runner/result";

/** A context whose transport must never be reached: these blocks fail before anything is sent. */
const ctx: BlockRunContext = {
	prepare: { env: {}, aliases: new Set(), result: () => undefined, read: readResult },
	deps: {
		transport: { name: "fetch", streams: false, send: () => Promise.reject(new Error("nothing may be sent")) },
		cacheKey: () => "k",
	},
	execute: { filePath: "n.md", historyAlias: "#L1" },
};

describe("the runner of a block's kind", () => {
	it("registers runners for http, db and the streams: textdiff is not built yet", () => {
		expect(Object.keys(BLOCK_RUNNERS)).toEqual(["http", "db", "sse", "websocket"]);
	});

	it("exports the blocks of http and the streams, each prepared by its kind; a db block has no export", () => {
		expect(exportingKinds()).toEqual(["http", "sse", "websocket"]);
		const [http, sse, ws, db] = parseNote("```http\nGET http://x.test/a\n```\n```http\nSSE http://x.test/e\n```\n```http\nWEBSOCKET ws://x.test/w\n\nhi\n```\n```db\nselect 1\n```");
		expect([http, sse, ws, db].map(isExportable)).toEqual([true, true, true, false]);
		expect(prepareExport(http, ctx.prepare)).toMatchObject({ ok: true, request: { method: "GET", url: "http://x.test/a" } });
		expect(prepareExport(sse, ctx.prepare)).toMatchObject({ ok: true, stream: { protocol: "sse" } });
		expect(prepareExport(ws, ctx.prepare)).toMatchObject({ ok: true, request: { url: "http://x.test/w" }, stream: { protocol: "websocket", steps: [{ kind: "text", text: "hi" }] } });
		expect(prepareExport(db, ctx.prepare)).toEqual({ ok: false, error: { code: "invalid_block", message: "A db block has no export" }, notRun: [] });
	});

	it("lends the http runner the streams' reader: an http response with an event-stream body is read as messages", () => {
		const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "text/event-stream"]] as Array<[string, string]>, url: "http://x.test/e", redirects: 0 };
		const result: BlockResult = { kind: "http", state: "done", receivedBytes: 0, head, body: new TextEncoder().encode("event: tick\ndata: 1\n\nevent: tock\ndata: 2\n\n") };
		const messages = (selector: string) => readResult(result, { alias: "feed", part: "response", section: "messages", selector });
		expect([messages("count"), messages("-1.event"), messages("0")]).toEqual([{ ok: true, value: "2" }, { ok: true, value: "tock" }, { ok: true, value: "1" }]);
	});

	it("names the fences whose blocks run once each: the stream kinds are written as http fences", () => {
		expect(runnableFences()).toEqual(["http", "db"]);
	});

	it("takes each kind's formats from its registry line, and the CLI's --format from all of them, each once", () => {
		expect(exportingKinds().map((k) => [k, snippetFormats(k)])).toEqual([
			["http", ["curl", "fetch", "python", "httpie", "http"]],
			["sse", ["curl", "http"]],
			["websocket", ["websocat", "ws", "http"]],
		]);
		expect(snippetFormats("db")).toEqual([]);
		expect(allSnippetFormats()).toEqual(["curl", "fetch", "python", "httpie", "http", "websocat", "ws"]);
	});

	it("writes a block with its kind's writer, and refuses a format its kind does not export to, naming the ones it has", () => {
		const note = parseNote("```http\nGET http://x.test/a\n```\n```http\nSSE http://x.test/e\n```\n```http\nWEBSOCKET ws://x.test/w\n\nhi\n```\n```db\nselect 1\n```");
		const [http, sse, ws, db] = note;
		const prepared = (b: (typeof note)[number]) => {
			const p = prepareExport(b, ctx.prepare);
			if (!p.ok) throw new Error(p.error.message);
			return p;
		};
		const python = writeSnippet(http, "python", prepared(http));
		expect(python.ok && python.text).toContain('requests.request("GET", "http://x.test/a"');
		expect(writeSnippet(sse, "curl", prepared(sse))).toEqual({ ok: true, text: "curl -N http://x.test/e -H 'Accept: text/event-stream' --location" });
		expect(writeSnippet(ws, "websocat", prepared(ws))).toEqual({ ok: true, text: "printf '%s\\n' hi | websocat -n ws://x.test/w" });
		expect(writeSnippet(ws, "python", prepared(ws))).toEqual({ ok: false, error: { code: "format_not_offered", message: "This WebSocket block exports as websocat, ws, http, not python", kind: "WebSocket", formats: ["websocat", "ws", "http"], format: "python" } });
		expect(writeSnippet(sse, "fetch", prepared(sse))).toMatchObject({ ok: false, error: { message: "This SSE block exports as curl, http, not fetch" } });
		expect(writeSnippet(http, "ws", prepared(http))).toMatchObject({ ok: false, error: { message: "This http block exports as curl, fetch, python, httpie, http, not ws" } });
		expect(writeSnippet(db, "curl", prepared(http))).toMatchObject({ ok: false, error: { code: "format_not_offered", formats: [] } });
		// A writer's own refusal stays a value too.
		expect(writeSnippet(http, "curl", { ...prepared(http), request: { ...prepared(http).request, headers: [["X", "a\nb"]] } })).toMatchObject({ ok: false, error: { code: "not_exportable" } });
	});

	it("gives a block's lines of a .http file as its kind writes them", () => {
		const [http, ws] = parseNote("```http\nGET http://x.test/a\n```\n```http\nWEBSOCKET ws://x.test/w\n\nhi\n```");
		const lines = (b: typeof http) => {
			const p = prepareExport(b, ctx.prepare);
			if (!p.ok) throw new Error(p.error.message);
			return httpFileLines(b, p, true);
		};
		expect(lines(http)).toEqual(["GET http://x.test/a"]);
		expect(lines(ws)).toEqual(["WEBSOCKET ws://x.test/w", "", "hi"]);
	});

	it("fails a db block where no database ports are given, saying so", async () => {
		const [block] = parseNote("```db\nselect 1\n```");
		await expect(runBlock(block, ctx)).resolves.toEqual({ kind: "db", state: "failed", error: { code: "driver_unavailable", message: "Database blocks are not available here" } });
	});

	it.each([
		["```textdiff mode=wide\na\n=== right ===\nb\n```", 'Line 1: mode "wide" is invalid: use split, unified'],
	])("fails a block whose kind has no runner before sending, saying why: %j", async (md, message) => {
		const [block] = parseNote(md);
		await expect(runBlock(block, ctx)).resolves.toEqual({ state: "failed", error: { code: "invalid_block", message } });
	});

	it("fails an http block that cannot be prepared, naming the reference", async () => {
		const [block] = parseNote("```http\nGET {{base_url}}/a\n```");
		const result = await runBlock(block, ctx);
		expect(result).toMatchObject({ state: "failed", error: { code: "unresolved_reference" } });
	});
});

describe("a block with # @poll, against a real server", () => {
	// /ready answers 503 until its 4th request, then 200 {"ready":true}; every request is counted.
	let server: Server;
	let base = "";
	let served = 0;
	beforeAll(async () => {
		server = createServer((req, res) => {
			served++;
			const ready = served >= 4;
			res.writeHead(ready ? 200 : 503, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ ready }));
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	beforeEach(() => (served = 0));
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	async function poll(block: string, sleep: (ms: number, signal?: AbortSignal) => Promise<boolean> = async () => true, signal?: AbortSignal, cache?: ResultCache) {
		const transport = createNodeTransport();
		const rows: HistoryEntry[] = [];
		const snapshots: RunSnapshot[] = [];
		const [parsed] = parseNote(block.replace("{{base}}", base));
		const result = await runBlock(parsed, {
			prepare: { env: {}, aliases: new Set(), result: () => undefined, read: readResult },
			deps: { transport, cacheKey: () => "k", history: { record: (e) => rows.push(e) }, sleep, cache },
			execute: { filePath: "n.md", historyAlias: "ready", signal, onUpdate: (s) => snapshots.push(s) },
		});
		transport.close();
		return { result, rows, snapshots };
	}

	it("sends exactly 4 requests to a server that turns ready on the 4th, one history row each", async () => {
		const { result, rows, snapshots } = await poll("```http\n# @poll every=50ms max=10\nGET {{base}}/ready\n\n?? status == 200\n?? body $.ready == true\n```");
		expect(served).toBe(4);
		expect(rows.map((r) => r.status)).toEqual([503, 503, 503, 200]);
		expect(result).toMatchObject({ state: "done", poll: { phase: "passed", attempt: 4, max: 10 } });
		expect(snapshots.filter((s) => s.poll?.phase === "waiting").map((s) => s.poll?.attempt)).toEqual([1, 2, 3]);
	});

	it("stops at max, the server asked max times", async () => {
		const { result } = await poll("```http\n# @poll every=50ms max=2\nGET {{base}}/ready\n\n?? status == 200\n```");
		expect(served).toBe(2);
		expect(result).toMatchObject({ state: "done", poll: { phase: "exhausted", attempt: 2 } });
	});

	it("Stop during the wait: no request after it", async () => {
		const stop = new AbortController();
		const { result } = await poll(
			"```http\n# @poll every=5s max=20\nGET {{base}}/ready\n\n?? status == 200\n```",
			async (_ms, signal) => {
				stop.abort();
				return !signal?.aborted;
			},
			stop.signal,
		);
		expect(served).toBe(1);
		expect(result.poll).toMatchObject({ phase: "stopped", attempt: 1 });
	});

	it("refuses a POST without unsafe: the server gets nothing, the reason is on the block", async () => {
		const { result, rows } = await poll("```http\n# @poll every=50ms max=3\nPOST {{base}}/ready\n\n?? status == 200\n```");
		expect(served).toBe(0);
		expect(rows).toEqual([]);
		expect(result).toMatchObject({ state: "failed", error: { code: "poll_unsafe", message: "@poll does not repeat POST without unsafe: each attempt would send it again" } });
	});

	it("never serves an attempt from the cache: a cached 200 does not end the poll", async () => {
		const cached = { kind: "http" as const, state: "done" as const, receivedBytes: 0, head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: base, redirects: 0 } };
		const { result } = await poll("```http\n# @poll every=50ms max=10\nGET {{base}}/ready\n\n?? status == 200\n```", undefined, undefined, { size: 1, get: () => cached, set: () => undefined, deleteWhere: () => 0 });
		expect(served).toBe(4);
		expect(result.poll?.attempt).toBe(4);
	});
});
