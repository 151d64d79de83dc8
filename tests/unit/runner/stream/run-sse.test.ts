import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FetchTransport } from "../../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { SSE_RUNNER } from "../../../../src/runner/stream/run-sse";
import type { SseNoteBlock } from "../../../../src/runner/stream/prepare-stream";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";
import type { Transport } from "../../../../src/runner/transport";
import { manualTimers } from "../../../support/manual-timers";
import { refusedPort } from "../../../support/servers";
import { streamHarness } from "../../../support/stream-block";
import { until } from "../../../support/until";

jest.setTimeout(20_000);

/**
 * An SSE server the spec drives: `/s/<id>` waits for the spec to answer it (`waiting`), `/missing`
 * is a 404, `/json` an ordinary JSON response. `hungUp` holds the ids whose client went away.
 */
let server: Server;
let base: string;
const waiting = new Map<string, ServerResponse>();
const hungUp = new Set<string>();
const requested: string[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		const path = req.url ?? "/";
		requested.push(path);
		if (path === "/missing") return void res.writeHead(404, { "Content-Type": "text/plain" }).end("no such stream");
		if (path === "/json") return void res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
		const id = path.replace(/^\/s\//, "");
		res.on("close", () => {
			if (!res.writableEnded) hungUp.add(id);
		});
		waiting.set(id, res);
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

const transport = createNodeTransport();

afterAll(async () => {
	transport.close();
	for (const res of waiting.values()) res.destroy();
	await new Promise((r) => server.close(r));
});

/** Answers `/s/<id>` as an event stream, once the run has asked for it. */
async function opened(id: string): Promise<ServerResponse> {
	await until(() => waiting.has(id));
	const res = waiting.get(id) as ServerResponse;
	res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
	res.flushHeaders();
	return res;
}

/** An sse block's run with hand-moved timers and clock. */
function sse(markdown: string, options: { transport?: Transport; streamingTransport?: () => Transport; signal?: AbortSignal } = {}) {
	const timers = manualTimers();
	const h = streamHarness<SseNoteBlock>(
		markdown,
		{ transport: options.transport ?? transport, now: timers.now, kinds: { sse: { timers, streamingTransport: options.streamingTransport } } },
		{ env: { base }, execute: { signal: options.signal } },
	);
	const received = () => h.latest()?.counts.received ?? 0;
	return { ...h, timers, received, running: SSE_RUNNER.run(h.block, h.ctx) as Promise<StreamRun> };
}

const shown = (run: StreamRun) => run.messages.map((m) => [m.direction, m.atMs, m.event, m.id, m.data]);

describe("an sse block against a real event stream", () => {
	it("keeps events in order with their names and ids, skips comments and retry, and joins a UTF-8 character split across chunks", async () => {
		const s = sse("```http\n# @name feed\nSSE {{base}}/s/order\n\n?? messages.count == 3\n?? messages.-1.data == second line\ncafé\n?? messages.0.event == tick\n```");
		s.timers.advance(10);
		const res = await opened("order");
		await until(() => s.latest()?.head !== undefined);
		s.timers.advance(5);
		res.write(': a comment\nretry: 3000\n\nid: 1\nevent: tick\ndata: {"n": 1}\n\n');
		await until(() => s.received() === 1);
		s.timers.advance(5);
		// "é" is 0xC3 0xA9: the first byte ends this write, after a whole event the spec can wait for.
		const rest = Buffer.from("data: second line\ndata: caf\u00e9\n\n");
		const cut = rest.indexOf(0xc3) + 1;
		res.write(Buffer.concat([Buffer.from("id: 2\ndata: two\n\n"), rest.subarray(0, cut)]));
		await until(() => s.received() === 2);
		res.end(rest.subarray(cut));
		const run = await s.running;
		expect(shown(run)).toEqual([
			["received", 5, "tick", "1", '{"n": 1}'],
			["received", 10, undefined, "2", "two"],
			["received", 10, undefined, undefined, "second line\ncaf\u00e9"],
		]);
		expect(run).toMatchObject({ kind: "sse", state: "done", head: { status: 200 }, close: { code: null, reason: "", why: "server_closed" }, transport: "node" });
		expect(run.timing).toEqual({ handshake: 10, firstMessage: 15, total: 20 });
	});

	it("checks its ?? lines against the messages, on their note lines, and records one history row", async () => {
		const s = sse("```http\n# @name feed\nSSE {{base}}/s/checked\n\n?? messages.count == 2\n?? messages.1.data $.n == 3\n```");
		(await opened("checked")).end('data: {"n": 1}\n\ndata: {"n": 2}\n\n');
		const run = await s.running;
		expect(run.assertions?.map((a) => [a.line, a.text, a.ok])).toEqual([
			[5, "messages.count == 2", true],
			[6, "messages.1.data $.n == 3", false],
		]);
		expect(s.rows).toEqual([expect.objectContaining({ method: "SSE", url: `${base}/s/checked`, status: 200, outcome: "done", itemCount: 2, responseBytes: 16, transport: "node", filePath: "streams.md", alias: "feed" })]);
	});

	it("max_messages=N keeps exactly N, though more came in the same chunk, and hangs up", async () => {
		const s = sse("```http max_messages=2\nSSE {{base}}/s/max\n```");
		(await opened("max")).write("data: 1\n\ndata: 2\n\ndata: 3\n\n");
		const run = await s.running;
		expect([run.state, run.close?.why, run.messages.map((m) => m.data)]).toEqual(["done", "max_messages", ["1", "2"]]);
		await until(() => hungUp.has("max"));
	});

	it("Stop ends it cancelled, keeps what arrived, and hangs up", async () => {
		const stop = new AbortController();
		const s = sse("```http\nSSE {{base}}/s/stop\n```", { signal: stop.signal });
		(await opened("stop")).write("data: kept\n\n");
		await until(() => s.received() === 1);
		stop.abort();
		const run = await s.running;
		expect(run).toMatchObject({ state: "cancelled", error: { code: "cancelled" }, close: { why: "cancelled" } });
		expect(run.messages.map((m) => m.data)).toEqual(["kept"]);
		expect(s.rows.map((r) => r.outcome)).toEqual(["cancelled"]);
		await until(() => hungUp.has("stop"));
	});

	it("timeout= bounds each silence once open: the stream ends done with what arrived", async () => {
		const s = sse("```http timeout=100\nSSE {{base}}/s/quiet\n```");
		const res = await opened("quiet");
		await until(() => s.latest()?.head !== undefined);
		s.timers.advance(90);
		res.write("data: in time\n\n");
		await until(() => s.received() === 1);
		s.timers.advance(99);
		expect(s.latest()?.state).not.toBe("done");
		s.timers.advance(1);
		const run = await s.running;
		expect([run.state, run.close?.why, run.error, run.messages.map((m) => m.data)]).toEqual(["done", "timeout", undefined, ["in time"]]);
		await until(() => hungUp.has("quiet"));
	});

	it("timeout= bounds the handshake: no head in time ends it cancelled with [timeout], as an http block's", async () => {
		const s = sse("```http timeout=100\nSSE {{base}}/s/no-head\n```");
		await until(() => waiting.has("no-head"));
		s.timers.advance(100);
		const run = await s.running;
		expect(run).toMatchObject({ state: "cancelled", error: { code: "timeout" }, close: { why: "timeout" } });
		expect(run.head).toBeUndefined();
		await until(() => hungUp.has("no-head"));
	});

	it("duration= ends it however busy it is", async () => {
		const s = sse("```http duration=50 timeout=1000\nSSE {{base}}/s/busy\n```");
		const res = await opened("busy");
		await until(() => s.latest()?.head !== undefined);
		for (const n of [1, 2]) {
			s.timers.advance(20);
			res.write(`data: ${n}\n\n`);
			await until(() => s.received() === n);
		}
		s.timers.advance(10);
		const run = await s.running;
		expect([run.state, run.close?.why, run.messages.map((m) => m.data)]).toEqual(["done", "duration", ["1", "2"]]);
	});

	it.each([
		["/missing", 404, "no such stream"],
		["/json", 200, '{"ok":true}'],
	])("keeps a response that is not an event stream (%s) as the http response it is", async (path, status, body) => {
		const run = await sse(`\`\`\`http\nSSE {{base}}${path}\n\`\`\``).running;
		expect([run.head?.status, new TextDecoder().decode(run.body), run.messages]).toEqual([status, body, []]);
		expect(run.close?.why).toBe("server_closed");
	});
});

describe("where the host's transport cannot stream", () => {
	const cannotStream: Transport = { name: "obsidian", streams: false, send: (r, o) => transport.send(r, o) };

	it("fails with [stream_unsupported] without a request when there is no streaming transport to fall back to", async () => {
		const before = requested.length;
		const s = sse("```http\nSSE {{base}}/s/never\n```", { transport: cannotStream });
		const run = await s.running;
		expect(run).toMatchObject({ state: "failed", error: { code: "stream_unsupported", detail: "transport: obsidian" } });
		expect(requested.length).toBe(before);
		expect(s.rows.map((r) => [r.outcome, r.errorCode])).toEqual([["failed", "stream_unsupported"]]);
	});

	it("streams through the fallback (fetch) and records it as such", async () => {
		const s = sse("```http\nSSE {{base}}/s/fallback\n```", { transport: cannotStream, streamingTransport: () => new FetchTransport(globalThis.fetch) });
		(await opened("fallback")).end("data: via fetch\n\n");
		const run = await s.running;
		expect([run.state, run.transport, run.messages.map((m) => m.data), s.rows[0]?.transport]).toEqual(["done", "fetch", ["via fetch"], "fetch"]);
	});

	it("says the server must allow the app's origin when the fallback cannot connect ([stream_cors])", async () => {
		const port = await refusedPort();
		const s = sse(`\`\`\`http\nSSE http://127.0.0.1:${port}/\n\`\`\``, { transport: cannotStream, streamingTransport: () => new FetchTransport(globalThis.fetch) });
		const run = await s.running;
		expect(run).toMatchObject({ state: "failed", error: { code: "stream_cors" } });
	});
});

describe("a block that cannot start", () => {
	it("fails with its reason, before any request", async () => {
		const before = requested.length;
		const run = await sse("```http\nSSE {{nowhere}}/s/x\n```").running;
		expect(run).toMatchObject({ kind: "sse", state: "failed", error: { code: "unresolved_reference" }, messages: [] });
		expect(requested.length).toBe(before);
	});
});
