import { readEventStreamMessages, readMessages, streamAssertions } from "../../../../src/runner/stream/read-messages";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";

const messages = [
	{ data: '{"price": 3, "tags": ["a"]}', event: "quote", id: "7" },
	{ data: "plain" },
	{ data: '{"price": 5}' },
];

describe("readMessages", () => {
	it.each([
		["count", "3"],
		["0", '{"price": 3, "tags": ["a"]}'],
		["-2", "plain"],
		["-1.data", '{"price": 5}'],
		["0.data.$.price", "3"],
		["-1.data.$.price", "5"],
		["0.event", "quote"],
		["0.id", "7"],
	])("%s → %s", (selector, value) => {
		expect(readMessages(messages, selector, "feed.response")).toEqual({ ok: true, value });
	});

	it.each([
		["3", /has no message 3 \(3 received\)/],
		["-4", /has no message -4/],
		["1.event", /message 1 of feed.response has no event/],
		["1.data.$.x", /not JSON|cannot/i],
	])("%s fails saying why", (selector, message) => {
		const found = readMessages(messages, selector, "feed.response");
		expect(found.ok).toBe(false);
		if (!found.ok) expect(found.message).toMatch(message);
	});
});

describe("readEventStreamMessages", () => {
	const body = new TextEncoder().encode('event: quote\nid: 7\ndata: {"price": 3}\n\n: a comment\ndata: plain\n\ndata: cut');

	it.each([
		["count", { ok: true, value: "2" }],
		["0.data.$.price", { ok: true, value: "3" }],
		["0.id", { ok: true, value: "7" }],
		["-1", { ok: true, value: "plain" }],
		["2", { ok: false, message: "feed.response.messages has no message 2 (2 received)" }],
	])("reads a whole event-stream body's events as messages (the last, unended, is none): %s", (selector, found) => {
		expect(readEventStreamMessages(body, selector, "feed.response")).toEqual(found);
	});
});

describe("streamAssertions", () => {
	const run = {
		kind: "websocket",
		state: "done",
		head: { status: 101, statusText: "", httpVersion: "1.1", headers: [["upgrade", "websocket"]], url: "", redirects: 0 },
		messages: [
			{ direction: "sent", atMs: 0, data: "hi", binary: false, size: 2 },
			...messages.map((m, k) => ({ direction: "received" as const, atMs: k, binary: false, size: m.data.length, ...m })),
		],
		counts: { received: 3, sent: 1, receivedBytes: 0, sentBytes: 2 },
	} as StreamRun;

	it("reads received messages, JSONPath as its own word, and the handshake's status", () => {
		const lines = ["messages.count == 3", "messages.-1.data $.price > 4", "messages.0.event == quote", "status == 101", "messages.1 == nope", "messages.9 exists"].map((text, line) => ({ line, text }));
		expect(streamAssertions(lines, run).map((a) => [a.text, a.ok])).toEqual([
			["messages.count == 3", true],
			["messages.-1.data $.price > 4", true],
			["messages.0.event == quote", true],
			["status == 101", true],
			["messages.1 == nope", false],
			["messages.9 exists", false],
		]);
	});
});
