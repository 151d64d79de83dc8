import { parseNote, type Entropy } from "../../../../src/blocks";
import { httpFileLines, readResult } from "../../../../src/runner/block-runners";
import type { PrepareContext } from "../../../../src/runner/prepare";
import { requestForFile } from "../../../../src/runner/request";
import { toHttpFile } from "../../../../src/runner/snippets/generators";
import { hasHeader, prepareStream, prepareStreamExport, streamForFile, websocketUrl, type PreparedStream, type StreamNoteBlock } from "../../../../src/runner/stream/prepare-stream";

const entropy: Entropy = { now: () => new Date(0), random: () => 0, uuid: () => "u-u-i-d" };
const ctx: PrepareContext = { env: { host: "127.0.0.1:9", token: "T", user: "ana" }, aliases: new Set(), result: () => undefined, read: readResult, entropy, defaultTimeoutMs: 1234 };

function streamBlock(...lines: string[]): StreamNoteBlock {
	const block = parseNote(["```http", ...lines, "```"].join("\n"))[0];
	if (block?.kind !== "sse" && block?.kind !== "websocket") throw new Error(`not a stream block: ${block?.kind}`);
	return block;
}

describe("prepareStream", () => {
	it("prepares an SSE block's head as an http GET, references resolved", () => {
		const p = prepareStream(streamBlock("SSE http://{{host}}/events", "Authorization: Bearer {{token}}"), ctx);
		expect(p).toMatchObject({ ok: true, request: { method: "GET", url: "http://127.0.0.1:9/events", headers: [["Authorization", "Bearer T"]], body: "", timeoutMs: 1234 } });
	});

	it("prepares a WebSocket's handshake with its ws scheme as http, and leaves its messages out of the body", () => {
		const p = prepareStream(streamBlock("WEBSOCKET ws://{{host}}/chat", "", '{"hello": "{{user}}"}', "===", "second"), ctx);
		expect(p).toMatchObject({ ok: true, request: { method: "GET", url: "http://127.0.0.1:9/chat", body: "" } });
	});

	it("carries a GraphQL subscription's operation as the body", () => {
		const p = prepareStream(streamBlock("GRAPHQL ws://{{host}}/graphql", "", "subscription { tick }"), ctx);
		expect(p.ok).toBe(true);
		if (p.ok) expect(p.request.body).toContain("subscription { tick }");
	});

	it("fails on an unresolved reference as an http block does", () => {
		expect(prepareStream(streamBlock("SSE http://{{nowhere}}/e"), ctx)).toMatchObject({ ok: false });
	});
});

describe("a stream block in a .http file (Export note as .http)", () => {
	const SECRET = "s3cr&t it's";
	const withSecret: PrepareContext = { ...ctx, env: { ...ctx.env, key: SECRET, wrapped: "k={{key}}" }, secretNames: new Set(["key"]) };

	/** What "Export note as .http" writes for the block: the request and the stream as a vault file holds them. */
	function fileOf(block: StreamNoteBlock, context: PrepareContext): string {
		const prepared = prepareStreamExport(block, context);
		if (!prepared.ok) throw new Error(prepared.error.message);
		const forFile = { ...prepared, request: requestForFile(prepared.request) };
		return toHttpFile([{ request: forFile.request, name: "feed", lines: httpFileLines(block, forFile, true) }]);
	}

	it("writes a WebSocket in the peers' syntax with each secret as its reference, in URL, headers and messages", () => {
		const block = streamBlock("WEBSOCKET ws://{{host}}/chat?key={{key}}", "Authorization: Bearer {{key}}", "X-User: {{user}}", "", '{"auth": "{{key}}", "user": "{{user}}"}', "=== wait-for-server", "then {{wrapped}}", "===", "plain");
		const file = fileOf(block, withSecret);
		expect(file).toBe(
			[
				"### feed",
				"# @name feed",
				"WEBSOCKET ws://127.0.0.1:9/chat?key={{key}}",
				"Authorization: Bearer {{key}}",
				"X-User: ana",
				"",
				'{"auth": "{{key}}", "user": "ana"}',
				"=== wait-for-server",
				"then k={{key}}",
				"===",
				"plain",
				"",
			].join("\n"),
		);
		expect(file).not.toContain("s3cr");
	});

	it("writes an SSE block's secrets as references, keeping the Accept header Run adds", () => {
		const file = fileOf(streamBlock("SSE http://{{host}}/events?k={{key}}", "X-Key: {{key}}"), withSecret);
		expect(file).toBe("### feed\n# @name feed\nSSE http://127.0.0.1:9/events?k={{key}}\nX-Key: {{key}}\nAccept: text/event-stream\n");
	});

	it("keeps an auth token in a message as its reference", () => {
		const auth = { lookup: () => ({ ok: true as const, value: "tok-123" }) } as unknown as PrepareContext["auth"];
		const file = fileOf(streamBlock("WEBSOCKET ws://{{host}}/chat", "", 'token {{$auth.token("api")}}'), { ...ctx, auth });
		expect(file).toContain('token {{$auth.token("api")}}');
		expect(file).not.toContain("tok-123");
	});

	it("leaves a stream that uses no secret as Run sends it", () => {
		const prepared = prepareStreamExport(streamBlock("WEBSOCKET ws://{{host}}/chat", "", "hi {{user}}"), withSecret);
		if (!prepared.ok) throw new Error(prepared.error.message);
		const stream = prepared.stream as PreparedStream;
		expect(stream).not.toHaveProperty("stepsForFile");
		expect(streamForFile(stream)).toEqual(stream);
		expect(stream.steps).toEqual([{ kind: "text", text: "hi ana" }]);
	});

	it("still sends the real values: only the file's copy keeps references", () => {
		const prepared = prepareStreamExport(streamBlock("WEBSOCKET ws://{{host}}/chat", "", "{{key}}"), withSecret);
		if (!prepared.ok) throw new Error(prepared.error.message);
		expect((prepared.stream as PreparedStream).steps).toEqual([{ kind: "text", text: SECRET }]);
	});
});

describe("websocketUrl", () => {
	it.each([
		["http://h/x?a=1", "ws://h/x?a=1"],
		["https://h/x", "wss://h/x"],
		["ws://h/x", "ws://h/x"],
	])("dials %s as %s", (url, expected) => {
		expect(websocketUrl({ url })).toBe(expected);
	});
});

describe("hasHeader", () => {
	it("finds a header by name in any case", () => {
		const request = { headers: [["Sec-WebSocket-Protocol", "graphql-transport-ws"]] as Array<[string, string]> };
		expect(hasHeader(request, "sec-websocket-protocol")).toBe(true);
		expect(hasHeader(request, "Authorization")).toBe(false);
	});
});
