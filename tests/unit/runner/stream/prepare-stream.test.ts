import { parseNote, type Entropy } from "../../../../src/blocks";
import { readResult } from "../../../../src/runner/block-runners";
import type { PrepareContext } from "../../../../src/runner/prepare";
import { hasHeader, prepareStream, websocketUrl, type StreamNoteBlock } from "../../../../src/runner/stream/prepare-stream";

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
