import { parseStreamRequest, streamProtocolOf } from "../../../src/blocks/stream-request";

describe("streamProtocolOf: the request line's first word picks the protocol", () => {
	it.each([
		["SSE https://x/events", "sse"],
		["eventsource https://x/events", "sse"],
		["WEBSOCKET ws://x/chat", "websocket"],
		["WS ws://x/chat", "websocket"],
		["WSS x/chat", "websocket"],
		["wss://x/chat", "websocket"],
		["# @name feed\n@host = x\n\nSSE https://{{host}}/e", "sse"],
		["GRAPHQL http://x/graphql\n\nsubscription { count }", "websocket"],
		["GRAPHQL http://x/graphql\n\nquery { count }", null],
		["GET https://x/events", null],
		["https://x/ws", null],
		["# only a comment", null],
	])("%j → %j", (content, protocol) => {
		expect(streamProtocolOf(content)).toBe(protocol);
	});
});

describe("parseStreamRequest", () => {
	it("reads the head as an http GET, the ws scheme written http", () => {
		const s = parseStreamRequest("# @name chat\nWEBSOCKET wss://x/chat?a=1\nAuthorization: Bearer {{token}}\n\nhello");
		expect(s.word).toBe("WEBSOCKET");
		expect(s.request.method).toBe("GET");
		expect(s.request.url).toBe("https://x/chat?a=1");
		expect(s.request.headers).toEqual([{ name: "Authorization", value: "Bearer {{token}}", line: 2 }]);
		expect(s.request.nameDirective).toBe("chat");
		expect(s.request.problems).toEqual([]);
	});

	it("a bare ws:// URL has no word; WSS without a scheme is https", () => {
		expect(parseStreamRequest("ws://x/a").request.url).toBe("http://x/a");
		expect(parseStreamRequest("ws://x/a").word).toBeNull();
		expect(parseStreamRequest("WSS x/a").request.url).toBe("https://x/a");
		expect(parseStreamRequest("WS {{base}}/a").request.url).toBe("{{base}}/a");
	});

	it("a missing URL is an error on the request line", () => {
		const s = parseStreamRequest("\nSSE");
		expect(s.request.problems).toEqual([expect.objectContaining({ code: "missing_url", line: 1, severity: "error" })]);
	});
});
