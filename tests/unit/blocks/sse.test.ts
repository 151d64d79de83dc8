import { parseNote } from "../../../src/blocks";

describe("sse blocks in http fences", () => {
	it("an SSE request line makes an sse block with its tokens, alias and assertions", () => {
		const [b] = parseNote("```http max_messages=3 duration=5000 timeout=200\n# @name feed\nSSE http://x/events\nAccept: text/event-stream\n\n?? messages.count == 3\n```");
		if (b.kind !== "sse") throw new Error(`expected sse, got ${b.kind}`);
		expect(b.info.tokens).toEqual({ max_messages: 3, duration: 5000, timeout: 200 });
		expect(b.alias).toBe("feed");
		expect(b.sse.request.url).toBe("http://x/events");
		expect(b.sse.request.assertions).toEqual([{ line: 4, text: "messages.count == 3" }]);
		expect(b.runnable).toBe(true);
		expect(b.canonicalFenceLine).toBe("```http timeout=200 max_messages=3 duration=5000");
	});

	it("a bad max_messages is an error naming what is expected", () => {
		const [b] = parseNote("```http max_messages=0\nSSE http://x\n```");
		expect(b.problems).toEqual([expect.objectContaining({ code: "invalid_token_value", severity: "error" })]);
		expect(b.problems[0].message).toMatch(/positive whole number of messages/);
	});

	it("http blocks of the same note stay http, and stream tokens are unknown to them", () => {
		const blocks = parseNote("```http\nGET http://x\n```\n\n```http\nEVENTSOURCE http://x/e\n```\n\n```http max_messages=2\nGET http://x\n```");
		expect(blocks.map((b) => b.kind)).toEqual(["http", "sse", "http"]);
		expect(blocks.map((b) => b.index)).toEqual([0, 1, 2]);
		expect(blocks[2].problems).toEqual([expect.objectContaining({ code: "unknown_token" })]);
	});
});
