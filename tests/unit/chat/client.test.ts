/**
 * The spec of src/chat/client.ts: what is sent, and how every end of an answer becomes an
 * outcome. The failure table over the node transport and the SSE byte splits are in
 * tests/integration/chat/client.test.ts; this spec holds the client's own edges.
 */
import { completionBody, completionHeaders, createChatClient } from "../../../src/chat/client";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { Transport } from "../../../src/runner/transport";
import { answering } from "../../support/answering-transport";
import { ECHO_PREFIX, RETRY_AFTER_DATE, startOpenAiServer, type OpenAiServer } from "../../support/openai-server";

let server: OpenAiServer;
let node: Transport & { close(): void };
const user = (content: string) => [{ role: "user" as const, content }];
const last = () => server.requests[server.requests.length - 1];

beforeAll(async () => {
	server = await startOpenAiServer();
	node = createNodeTransport();
});
afterAll(async () => {
	node.close();
	await server.close();
});

describe("completionHeaders", () => {
	it.each([
		[true, null, false, [["Content-Type", "application/json"], ["Accept", "text/event-stream"]]],
		[false, null, false, [["Content-Type", "application/json"], ["Accept", "application/json"]]],
		[true, "sk-1", false, [["Content-Type", "application/json"], ["Accept", "text/event-stream"], ["Authorization", "Bearer sk-1"]]],
		[true, "sk-1", true, [["Content-Type", "application/json"], ["Accept", "text/event-stream"], ["Authorization", "Bearer •••"]]],
	])("stream %s, key %s, masked %s", (stream, apiKey, mask, expected) => {
		expect(completionHeaders({ baseUrl: "http://127.0.0.1/v1", apiKey }, stream, mask)).toEqual(expected);
	});
});

describe("completionBody", () => {
	it("sends the temperature only when one is set, and keeps 0", () => {
		const messages = user("hi");
		expect(completionBody({ model: "m", messages }, true)).toEqual({ model: "m", messages, stream: true });
		expect(completionBody({ model: "m", messages, temperature: 0 }, false)).toEqual({ model: "m", messages, stream: false, temperature: 0 });
	});
});

describe("createChatClient", () => {
	it("joins the paths to a base URL written with trailing slashes", async () => {
		const client = createChatClient(node, { baseUrl: `${server.baseUrl}//`, apiKey: null });
		await expect(client.models()).resolves.toMatchObject({ kind: "done" });
		expect(last().path).toBe("/v1/models");
		await expect(client.complete({ model: "echo", messages: user("x") })).resolves.toMatchObject({ kind: "done" });
		expect(last().path).toBe("/v1/chat/completions");
	});

	it("asks for a stream as the transport streams at each call (a fallback may stop streaming)", async () => {
		const flipping = { name: "node" as const, streams: true, send: node.send.bind(node) };
		const client = createChatClient(flipping, { baseUrl: server.baseUrl, apiKey: null });
		await expect(client.complete({ model: "echo", messages: user("a") })).resolves.toMatchObject({ kind: "done", streamed: true });
		flipping.streams = false;
		expect(client.streams).toBe(false);
		await expect(client.complete({ model: "echo", messages: user("b") })).resolves.toEqual({ kind: "done", text: `${ECHO_PREFIX}b`, finishReason: "stop", streamed: false });
		expect(JSON.parse(last().body)).toMatchObject({ stream: false });
	});

	it("calls onDelta with each non-empty piece and the text so far", async () => {
		const calls: Array<[string, string]> = [];
		const out = await createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }).complete({ model: "echo", messages: user("hello there") }, { onDelta: (d, text) => calls.push([d, text]) });
		expect(out).toMatchObject({ kind: "done", text: `${ECHO_PREFIX}hello there` });
		expect(calls.length).toBeGreaterThan(1);
		expect(calls.every(([d]) => d !== "")).toBe(true);
		expect(calls.map(([, text]) => text)).toEqual(calls.map((_, i) => calls.slice(0, i + 1).map(([d]) => d).join("")));
	});

	it("fails as a timeout when the server stays silent past the idle time, and hangs up", async () => {
		const closed = server.closed();
		const client = createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }, { idleTimeoutMs: 100 });
		const out = await client.complete({ model: "silent", messages: user("x") });
		expect(out).toEqual({ kind: "failed", text: "", failure: { code: "timeout", message: "The server did not answer in time", detail: `nothing from ${server.baseUrl}/chat/completions for 0.1 s` } });
		const seen = await closed;
		expect([seen.closedEarly, JSON.parse(seen.body)]).toEqual([true, expect.objectContaining({ model: "silent" })]);
	});

	it("keeps the text that arrived when a stream goes silent", async () => {
		const out = await createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }, { idleTimeoutMs: 300 }).complete({ model: "stall", messages: user("x") });
		expect(out).toMatchObject({ kind: "failed", text: "Hel", failure: { code: "timeout" } });
	});

	it("is cancelled without an answer when Stop came before the call", async () => {
		const stopped = AbortSignal.abort();
		const client = createChatClient(node, { baseUrl: server.baseUrl, apiKey: null });
		await expect(client.complete({ model: "echo", messages: user("x") }, { signal: stopped })).resolves.toEqual({ kind: "cancelled", text: "" });
		await expect(client.models(stopped)).resolves.toEqual({ kind: "cancelled" });
	});

	it("reads a Retry-After date against its own clock", async () => {
		const now = () => Date.parse(RETRY_AFTER_DATE) - 30_000;
		const out = await createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }, { now }).complete({ model: "limited-until", messages: user("x") });
		expect(out).toMatchObject({ kind: "failed", failure: { code: "rate_limited", status: 429, retryAfterSeconds: 30 } });
	});

	it.each([
		["json-error", "server_error", "HTTP 500: the model crashed"],
		["bad-content", "malformed_stream", 'unexpected event data: {"choices":[{"index":0,"delta":{"content":42},"finish_reason":null}]}'],
	])("model %s fails as %s, with what the server said", async (model, code, detail) => {
		const out = await createChatClient(node, { baseUrl: server.baseUrl, apiKey: null }).complete({ model, messages: user("x") });
		expect(out).toMatchObject({ kind: "failed", failure: { code, detail } });
	});

	it.each([
		['{"object":"list"}', 'GET /models: {"object":"list"}'],
		['{"data":[{"id":"a"},{"id":1}]}', 'GET /models: {"data":[{"id":"a"},{"id":1}]}'],
		["not json", "GET /models: not json"],
	])("a /models answer %s is malformed, not an empty list", async (body, detail) => {
		const client = createChatClient(answering({ "http://127.0.0.1:1/v1/models": body }), { baseUrl: "http://127.0.0.1:1/v1", apiKey: null });
		await expect(client.models()).resolves.toEqual({ kind: "failed", failure: { code: "malformed_stream", message: "The server's answer is not a chat-completions response", detail } });
	});
});
