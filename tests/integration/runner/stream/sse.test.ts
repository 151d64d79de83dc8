import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { blockKey, parseNote } from "../../../../src/blocks";
import { createEngine, type EngineHistory } from "../../../../src/runner/engine";
import type { HistoryEntry } from "../../../../src/runner/executor";
import { FetchTransport } from "../../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { Transport } from "../../../../src/runner/transport";
import type { RunSnapshot } from "../../../../src/runner/result";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";

jest.setTimeout(30_000);

/** A real SSE server: each path is one scenario; `closed` counts the streams whose client hung up. */
let server: Server;
let base: string;
let closed = 0;
/** Held streams (they end only when the client goes). */
const held = new Set<ServerResponse>();

function route(req: IncomingMessage, res: ServerResponse): void {
	const path = req.url ?? "/";
	req.on("close", () => {
		if (!res.writableEnded) closed++;
		held.delete(res);
	});
	if (path === "/missing") {
		res.writeHead(404, { "content-type": "text/plain" }).end("no such stream");
		return;
	}
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	if (path === "/events") {
		res.write(": a comment line\nretry: 3000\n\n");
		res.write('id: 1\nevent: tick\ndata: {"n": 1}\n\n');
		res.write('id: 2\nevent: tick\ndata: {"n": 2}\n\n');
		// "é" (0xC3 0xA9) split across two writes, and a multi-line data field.
		const text = Buffer.from("data: caf\u00e9\ndata: second line\n\n", "utf8");
		const cut = text.indexOf(0xc3) + 1;
		res.write(text.subarray(0, cut));
		setImmediate(() => res.end(text.subarray(cut)));
		return;
	}
	if (path === "/forever") {
		// One event, then every held stream gets one more per `more()`; it never ends by itself.
		res.write("data: first\n\n");
		held.add(res);
		return;
	}
	res.end();
}

beforeAll(async () => {
	server = createServer(route);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	for (const res of held) res.destroy();
	await new Promise((resolve) => server.close(resolve));
});

function historyRows(): EngineHistory & { rows: HistoryEntry[] } {
	const rows: HistoryEntry[] = [];
	return { rows, record: (e) => rows.push(e), list: async () => [], renameFile: () => undefined, ready: async () => undefined };
}

function engineFor(history = historyRows()) {
	const transport = createNodeTransport();
	const engine = createEngine({
		transport: () => transport,
		history: () => history,
		environment: () => ({ name: "local", variables: { base }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 5000,
		close: async () => transport.close(),
	});
	return { engine, history };
}

/** Resolves once `check` holds, polled on each snapshot of the block. */
function until(engine: ReturnType<typeof engineFor>["engine"], key: string, check: (s: RunSnapshot) => boolean): Promise<RunSnapshot> {
	return new Promise((resolve) => {
		const off = engine.sessions.note("s.md").subscribe(key, (s) => {
			if (check(s)) {
				queueMicrotask(() => off());
				resolve(s);
			}
		});
	});
}

describe("sse blocks against a real event stream", () => {
	it("reads named events with ids, skips comments and retry, joins a UTF-8 sequence split across chunks", async () => {
		const { engine, history } = engineFor();
		const note = parseNote("```http\n# @name feed\nSSE {{base}}/events\n\n?? messages.count == 3\n?? messages.-1.data startsWith café\n?? messages.1.data $.n == 2\n?? messages.0.event == tick\n?? status == 200\n```");
		const [run] = await engine.run("s.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ kind: "sse", state: "done", close: { code: null, why: "server_closed" } });
		expect(r.messages.map((m) => [m.direction, m.event, m.id, m.data])).toEqual([
			["received", "tick", "1", '{"n": 1}'],
			["received", "tick", "2", '{"n": 2}'],
			["received", undefined, undefined, "caf\u00e9\nsecond line"],
		]);
		expect(r.counts).toMatchObject({ received: 3, sent: 0 });
		expect(r.assertions?.map((a) => [a.text, a.ok, a.message])).toEqual([
			["messages.count == 3", true, undefined],
			["messages.-1.data startsWith café", true, undefined],
			["messages.1.data $.n == 2", true, undefined],
			["messages.0.event == tick", true, undefined],
			["status == 200", true, undefined],
		]);
		expect(history.rows).toEqual([expect.objectContaining({ method: "SSE", url: `${base}/events`, status: 200, outcome: "done", itemCount: 3, requestBytes: 0 })]);
		expect(history.rows[0].responseBytes).toBe(r.counts.receivedBytes);
		await engine.close();
	});

	it("a later block reads the messages by reference: index, negative index, .data, JSONPath, count, .id", async () => {
		const { engine } = engineFor();
		const note = parseNote(
			"```http\n# @name feed\nSSE {{base}}/events\n```\n\n```http\nPOST {{base}}/echo\n\n{{feed.response.messages.count}} {{feed.response.messages.0.data.$.n}} {{feed.response.messages.-2.id}} {{feed.response.messages.-1}}\n```",
		);
		await engine.run("s.md", note, [note[0]]);
		const prepared = engine.prepare("s.md", note, note[1]);
		expect(prepared.ok && prepared.request.body).toBe("3 1 2 caf\u00e9\nsecond line");
		await engine.close();
	});

	it("max_messages=N ends the stream once N arrived, and the server sees it close", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http max_messages=3\nSSE {{base}}/forever\n```");
		const before = closed;
		const running = engine.run("s.md", note, note);
		await until(engine, blockKey(note[0]), (s) => s.state === "streaming" && (s as StreamRun).counts.received === 1);
		for (const res of held) res.write("data: two\n\n");
		for (const res of held) res.write("data: three\n\ndata: four\n\n");
		const [run] = await running;
		expect(run.result).toMatchObject({ state: "done", close: { why: "max_messages" }, counts: { received: 3 } });
		await waitFor(() => closed > before);
		await engine.close();
	});

	it("Stop keeps what arrived, ends cancelled and closes the connection", async () => {
		const { engine, history } = engineFor();
		const note = parseNote("```http\nSSE {{base}}/forever\n```");
		const before = closed;
		const running = engine.run("s.md", note, note);
		await until(engine, blockKey(note[0]), (s) => s.state === "streaming" && (s as StreamRun).counts.received === 1);
		engine.sessions.note("s.md").cancel(blockKey(note[0]));
		const [run] = await running;
		expect(run.result).toMatchObject({ state: "cancelled", error: { code: "cancelled", message: "[cancelled]" }, close: { why: "cancelled" } });
		expect((run.result as StreamRun).messages.map((m) => m.data)).toEqual(["first"]);
		expect(history.rows).toEqual([expect.objectContaining({ outcome: "cancelled", itemCount: 1 })]);
		await waitFor(() => closed > before);
		await engine.close();
	});

	it("timeout= bounds the silence between messages: the stream ends done with what arrived", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http timeout=300\nSSE {{base}}/forever\n```");
		const [run] = await engine.run("s.md", note, note);
		expect(run.result).toMatchObject({ state: "done", close: { why: "timeout" }, counts: { received: 1 } });
		await engine.close();
	});

	it("duration= ends the stream however busy it is", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http duration=300 timeout=10000\nSSE {{base}}/forever\n```");
		const [run] = await engine.run("s.md", note, note);
		expect(run.result).toMatchObject({ state: "done", close: { why: "duration" } });
		await engine.close();
	});

	it("a response that is not an event stream is kept as the http response it is", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\nSSE {{base}}/missing\n\n?? status == 404\n```");
		const [run] = await engine.run("s.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ state: "done", head: { status: 404 }, counts: { received: 0 } });
		expect(Buffer.from(r.body ?? new Uint8Array()).toString()).toBe("no such stream");
		expect(r.assertions?.[0].ok).toBe(true);
		await engine.close();
	});

	it("an http block whose response is text/event-stream is read by messages too", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\n# @name plain\nGET {{base}}/events\n```\n\n```http\nPOST {{base}}/echo\n\n{{plain.response.messages.count}}/{{plain.response.messages.0.event}}\n```");
		await engine.run("s.md", note, [note[0]]);
		const prepared = engine.prepare("s.md", note, note[1]);
		expect(prepared.ok && prepared.request.body).toBe("3/tick");
		await engine.close();
	});
});

describe("sse blocks where the host's transport cannot stream (the mobile app's requestUrl)", () => {
	/** The mobile app's ports: a transport that cannot stream, and fetch for SSE. */
	function mobileEngine(fetchBase: string) {
		const history = historyRows();
		const cannotStream: Transport = { name: "obsidian", streams: false, send: () => Promise.reject(new Error("an SSE block must not use the transport that cannot stream")) };
		const engine = createEngine({
			transport: () => cannotStream,
			history: () => history,
			environment: () => ({ name: "local", variables: { base: fetchBase }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
			defaultTimeoutMs: () => 5000,
			kinds: () => ({ sse: { streamingTransport: () => new FetchTransport() } }),
		});
		return { engine, history };
	}

	it("streams through the host's streaming transport (fetch), recorded as such", async () => {
		const { engine, history } = mobileEngine(base);
		const note = parseNote("```http\nSSE {{base}}/events\n```");
		const [run] = await engine.run("s.md", note, note);
		expect(run.result).toMatchObject({ kind: "sse", state: "done", transport: "fetch" });
		expect((run.result as StreamRun).messages.map((m) => m.data)).toEqual(['{"n": 1}', '{"n": 2}', "caf\u00e9\nsecond line"]);
		expect(history.rows).toEqual([expect.objectContaining({ method: "SSE", transport: "fetch", itemCount: 3 })]);
		await engine.close();
	});

	it("says the server must allow the app's origin (CORS) when fetch cannot reach the stream", async () => {
		const gone = createServer();
		await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
		const closedBase = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
		await new Promise((resolve) => gone.close(resolve));
		const { engine } = mobileEngine(closedBase);
		const note = parseNote("```http\nSSE {{base}}/events\n```");
		const [run] = await engine.run("s.md", note, note);
		expect(run.result).toMatchObject({ state: "failed", error: { code: "stream_cors" } });
		expect(run.result.error?.message).toContain("CORS");
		await engine.close();
	});

	it("keeps the host's transport when it streams", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\nSSE {{base}}/events\n```");
		const [run] = await engine.run("s.md", note, note);
		expect(run.result).toMatchObject({ state: "done", transport: "node" });
		await engine.close();
	});
});

async function waitFor(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
