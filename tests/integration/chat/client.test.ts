import { createChatClient, type ChatClient } from "../../../src/chat/client";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { Transport } from "../../../src/runner/transport";
import { ECHO_PREFIX, MODELS, startOpenAiServer, type OpenAiServer } from "../../support/openai-server";

let server: OpenAiServer;
let keyed: OpenAiServer;
let node: Transport & { close(): void };
const user = (content: string) => [{ role: "user" as const, content }];

beforeAll(async () => {
	server = await startOpenAiServer();
	keyed = await startOpenAiServer({ apiKey: "good-key" });
	node = createNodeTransport();
});
afterAll(async () => {
	node.close();
	await server.close();
	await keyed.close();
});

const client = (s: OpenAiServer = server, apiKey: string | null = null): ChatClient => createChatClient(node, { baseUrl: s.baseUrl, apiKey });

describe("chat client over the node transport (SSE)", () => {
	it("streams an answer written 3 bytes at a time: deltas arrive one by one and join to the whole text", async () => {
		const question = "ünïcødé ✓ 𝄞 and a long enough sentence to need many events";
		const deltas: string[] = [];
		const out = await client().complete({ model: "echo", messages: user(question) }, { onDelta: (d) => deltas.push(d) });
		expect(out).toEqual({ kind: "done", text: ECHO_PREFIX + question, finishReason: "stop", streamed: true });
		expect(deltas.length).toBeGreaterThan(5);
		expect(deltas.join("")).toBe(ECHO_PREFIX + question);
		expect(deltas.join("")).not.toContain("\uFFFD");
	});

	it.each([1, 2, 5, 17, 1000])("gives the same text whatever the byte split (%i bytes per write)", async (split) => {
		const s = await startOpenAiServer({ split });
		try {
			const out = await client(s).complete({ model: "echo", messages: user("é𝄞ñ") });
			expect(out).toMatchObject({ kind: "done", text: `${ECHO_PREFIX}é𝄞ñ` });
		} finally {
			await s.close();
		}
	});

	it("sends the model, the messages, stream: true and the temperature as JSON", async () => {
		await client().complete({ model: "echo", messages: [{ role: "system", content: "be brief" }, ...user("hi")], temperature: 0.3 });
		const seen = server.requests[server.requests.length - 1];
		expect(seen.path).toBe("/v1/chat/completions");
		expect(seen.headers.accept).toBe("text/event-stream");
		expect(JSON.parse(seen.body)).toEqual({ model: "echo", messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }], stream: true, temperature: 0.3 });
	});

	it("Stop closes the connection: the server sees the client hang up, the partial text is kept", async () => {
		const controller = new AbortController();
		const closed = server.closed();
		const out = client().complete(
			{ model: "slow", messages: user("go") },
			{
				signal: controller.signal,
				onDelta: (_d, text) => {
					if (text.length >= 15) controller.abort();
				},
			},
		);
		const result = await out;
		expect(result.kind).toBe("cancelled");
		expect(result.kind === "cancelled" && result.text).toMatch(/^(tick ){3,}/);
		const seen = await closed;
		expect(seen.closedEarly).toBe(true);
		expect(JSON.parse(seen.body)).toMatchObject({ model: "slow" });
	});

	it("accepts a stream that ends with a finish reason but no [DONE]", async () => {
		expect(await client().complete({ model: "no-done-finish", messages: user("x") })).toMatchObject({ kind: "done", text: "finished without done" });
	});

	it("takes a JSON answer when the server ignores stream: true", async () => {
		expect(await client().complete({ model: "json", messages: user("plain") })).toEqual({ kind: "done", text: `${ECHO_PREFIX}plain`, finishReason: "stop", streamed: false });
	});
});

describe("chat client over a transport that cannot stream (requestUrl on mobile)", () => {
	it("asks for stream: false and gets the whole answer at once", async () => {
		const oneShot: Transport = { name: "obsidian", streams: false, send: (r, o) => node.send(r, o) };
		const deltas: string[] = [];
		const c = createChatClient(oneShot, { baseUrl: server.baseUrl, apiKey: null });
		expect(c.streams).toBe(false);
		const out = await c.complete({ model: "echo", messages: user("mobile") }, { onDelta: (d) => deltas.push(d) });
		expect(out).toEqual({ kind: "done", text: `${ECHO_PREFIX}mobile`, finishReason: "stop", streamed: false });
		expect(deltas).toEqual([`${ECHO_PREFIX}mobile`]);
		expect(JSON.parse(server.requests[server.requests.length - 1].body)).toMatchObject({ stream: false });
	});
});

describe("GET /models", () => {
	it("lists the server's model ids, sorted", async () => {
		expect(await client().models()).toEqual({ kind: "done", models: [...MODELS].sort((a, b) => a.localeCompare(b)) });
	});

	it("sends the API key as a bearer token", async () => {
		expect(await client(keyed, "good-key").models()).toMatchObject({ kind: "done" });
		expect(keyed.requests[keyed.requests.length - 1].headers.authorization).toBe("Bearer good-key");
	});
});

describe("every failure is a typed state", () => {
	it.each([
		["big-context", { code: "context_too_long", status: 400 }],
		["limited", { code: "rate_limited", status: 429, retryAfterSeconds: 7 }],
		["no-such-model", { code: "model_not_found", status: 404 }],
		["boom", { code: "server_error", status: 500, detail: "HTTP 500: internal failure" }],
		["garbage", { code: "malformed_stream" }],
		["cut", { code: "malformed_stream", detail: "the stream ended without [DONE] or a finish reason" }],
		["midstream-error", { code: "server_error", detail: expect.stringContaining("upstream overloaded") as unknown }],
		["hangup", { code: "interrupted" }],
	])("model %s → %o", async (model, failure) => {
		const out = await client().complete({ model, messages: user("x") });
		expect(out.kind).toBe("failed");
		expect(out.kind === "failed" && out.failure).toMatchObject(failure);
	});

	it("keeps what arrived before an error event", async () => {
		const out = await client().complete({ model: "midstream-error", messages: user("x") });
		expect(out).toMatchObject({ kind: "failed", text: "Hello" });
	});

	it("401 without the key, and with a wrong one", async () => {
		for (const key of [null, "wrong"]) {
			const out = await client(keyed, key).complete({ model: "echo", messages: user("x") });
			expect(out.kind === "failed" && out.failure).toMatchObject({ code: "unauthorized", status: 401, detail: "HTTP 401: Incorrect API key provided" });
		}
	});

	it("connection refused asks whether Ollama is running", async () => {
		const s = await startOpenAiServer();
		const baseUrl = s.baseUrl;
		await s.close();
		const c = createChatClient(node, { baseUrl, apiKey: null });
		for (const out of [await c.complete({ model: "echo", messages: user("x") }), await c.models()]) {
			expect(out.kind === "failed" && out.failure).toMatchObject({ code: "connection_refused", message: "Could not connect to the chat server. Is Ollama running?" });
		}
	});

	it("a base URL that is not http(s) is invalid_url, and nothing is sent", async () => {
		const before = server.requests.length;
		const out = await createChatClient(node, { baseUrl: "not a url", apiKey: null }).complete({ model: "echo", messages: user("x") });
		expect(out.kind === "failed" && out.failure.code).toBe("invalid_url");
		expect(server.requests.length).toBe(before);
	});

	it("a base URL without the API (no /v1) is endpoint_not_found, not a missing model", async () => {
		const c = createChatClient(node, { baseUrl: server.origin, apiKey: null });
		const out = await c.models();
		expect(out.kind === "failed" && out.failure.code).toBe("endpoint_not_found");
	});
});
