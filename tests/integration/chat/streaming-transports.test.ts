import { createChatClient } from "../../../src/chat/client";
import { createFallbackTransport } from "../../../src/chat/stream-fallback";
import { FetchTransport } from "../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { Transport } from "../../../src/runner/transport";
import { ECHO_PREFIX, startOpenAiServer, type OpenAiServer } from "../../support/openai-server";

/**
 * The chat without Node's own transport (mobile, a browser): answers stream through fetch, and
 * when fetch cannot reach a server that requestUrl can (a browser's CORS refusal), the chat
 * falls back to whole answers. Here the "whole" transport is the node transport told not to
 * stream, standing for requestUrl; fetch's refusal is real: Node's fetch, like a browser's,
 * refuses the Fetch standard's "bad ports", which the node transport reaches.
 */
let server: OpenAiServer;
let node: Transport & { close(): void };
const QUESTION = "𝄞 é and a sentence long enough to need many events";
const user = (content: string) => [{ role: "user" as const, content }];
const whole = (): Transport => ({ name: "obsidian", streams: false, send: (r, o) => node.send(r, o) });

beforeAll(async () => {
	server = await startOpenAiServer();
	node = createNodeTransport();
});
afterAll(async () => {
	node.close();
	await server.close();
});

/** A server on one of the ports fetch refuses (Fetch standard, "bad port"), the first one free. */
async function onBadPort(): Promise<OpenAiServer> {
	for (const port of [10080, 6665, 6666, 6667, 6668, 6669, 6697]) {
		try {
			return await startOpenAiServer({ port });
		} catch {
			// Taken: the next one.
		}
	}
	throw new Error("every bad port is taken");
}

describe("streaming through fetch", () => {
	it("streams the answer delta by delta, whatever the byte split", async () => {
		const transport = createFallbackTransport(new FetchTransport(), whole());
		const deltas: string[] = [];
		const out = await createChatClient(transport, { baseUrl: server.baseUrl, apiKey: null }).complete({ model: "echo", messages: user(QUESTION) }, { onDelta: (d) => deltas.push(d) });
		expect(out).toEqual({ kind: "done", text: `${ECHO_PREFIX}${QUESTION}`, finishReason: "stop", streamed: true });
		expect(deltas.length).toBeGreaterThan(3);
		expect(transport.fellBack).toBe(false);
		expect(JSON.parse(server.requests[server.requests.length - 1].body)).toMatchObject({ stream: true });
	});

	it("Stop aborts the fetch: the server sees the connection close, the text so far is kept", async () => {
		const controller = new AbortController();
		const closed = server.closed();
		const client = createChatClient(createFallbackTransport(new FetchTransport(), whole()), { baseUrl: server.baseUrl, apiKey: null });
		const out = await client.complete({ model: "slow", messages: user("go") }, { signal: controller.signal, onDelta: (_d, text) => text.length >= 15 && controller.abort() });
		expect(out.kind).toBe("cancelled");
		expect(out.text).toMatch(/^(tick ){3,}/);
		expect((await closed).closedEarly).toBe(true);
	});
});

describe("falling back to whole answers", () => {
	it("when fetch cannot reach the server but the whole transport can: that answer and every later one come whole", async () => {
		const bad = await onBadPort();
		try {
			const transport = createFallbackTransport(new FetchTransport(), whole());
			const client = createChatClient(transport, { baseUrl: bad.baseUrl, apiKey: null });
			expect(client.streams).toBe(true);
			const first = await client.complete({ model: "echo", messages: user("one") });
			expect(first).toMatchObject({ kind: "done", text: `${ECHO_PREFIX}one` });
			expect(transport.fellBack).toBe(true);
			expect(client.streams).toBe(false);
			// fetch never reached the server: the one request it saw came through the fallback.
			expect(bad.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(1);
			const second = await client.complete({ model: "echo", messages: user("two") });
			expect(second).toEqual({ kind: "done", text: `${ECHO_PREFIX}two`, finishReason: "stop", streamed: false });
			expect(JSON.parse(bad.requests[bad.requests.length - 1].body)).toMatchObject({ stream: false });
		} finally {
			await bad.close();
		}
	});

	it("not when the server is down: connection refused, and the next request tries streaming again", async () => {
		const gone = await startOpenAiServer();
		await gone.close();
		const transport = createFallbackTransport(new FetchTransport(), whole());
		const out = await createChatClient(transport, { baseUrl: gone.baseUrl, apiKey: null }).complete({ model: "echo", messages: user("x") });
		expect(out.kind === "failed" && out.failure.code).toBe("connection_refused");
		expect(transport.fellBack).toBe(false);
		expect(transport.streams).toBe(true);
	});
});

describe("[chat] timeout: the time the server may stay silent", () => {
	it("a server that never answers fails as timeout after it, and the connection is closed", async () => {
		const quiet = await startOpenAiServer();
		try {
			const closed = quiet.closed();
			const client = createChatClient(node, { baseUrl: quiet.baseUrl, apiKey: null }, { idleTimeoutMs: 300 });
			const out = await client.complete({ model: "silent", messages: user("hello?") });
			expect(out.kind === "failed" && out.failure).toMatchObject({ code: "timeout", message: "The server did not answer in time", detail: `nothing from ${quiet.baseUrl}/chat/completions for 0.3 s` });
			expect(JSON.parse((await closed).body)).toMatchObject({ model: "silent" });
		} finally {
			await quiet.close();
		}
	});

	it("the same through fetch", async () => {
		const client = createChatClient(createFallbackTransport(new FetchTransport(), whole()), { baseUrl: server.baseUrl, apiKey: null }, { idleTimeoutMs: 300 });
		const out = await client.complete({ model: "silent", messages: user("hello?") });
		expect(out.kind === "failed" && out.failure.code).toBe("timeout");
	});

	it("a stream that keeps coming is not cut by it, however long it runs", async () => {
		const controller = new AbortController();
		const client = createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }, { idleTimeoutMs: 1000 });
		// 60 ticks, one every 20 ms: longer in all than the timeout, never silent for as long.
		const out = await client.complete({ model: "slow", messages: user("go") }, { signal: controller.signal, onDelta: (_d, text) => text.length >= 60 * 5 && controller.abort() });
		expect(out.kind).toBe("cancelled");
		expect(out.text.length).toBeGreaterThanOrEqual(300);
	});
});
