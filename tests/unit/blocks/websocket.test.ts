import { parseNote } from "../../../src/blocks";

const ws = (content: string, info = "") => {
	const [b] = parseNote(`\`\`\`http${info}\n${content}\n\`\`\``);
	if (b.kind !== "websocket") throw new Error(`expected websocket, got ${b.kind}`);
	return b;
};

describe("websocket blocks", () => {
	it("messages are separated by ===; wait-for-server lines wait, repeatable", () => {
		const b = ws('WEBSOCKET ws://x/chat\nOrigin: http://x\n\n{"a": {{n}}}\n===\nsecond\nline\n=== wait-for-server\n=== wait-for-server\nthird');
		expect(b.websocket.request.headers.map((h) => h.name)).toEqual(["Origin"]);
		expect(b.websocket.steps).toEqual([
			{ kind: "text", text: '{"a": {{n}}}', line: 3 },
			{ kind: "text", text: "second\nline", line: 5 },
			{ kind: "wait", line: 7 },
			{ kind: "wait", line: 8 },
			{ kind: "text", text: "third", line: 9 },
		]);
		expect(b.websocket.waits).toBe(true);
		expect(b.references.map((r) => r.inner)).toEqual(["n"]);
	});

	it("a `< file` line is one binary message; blank lines around messages are not sent", () => {
		const b = ws("WS ws://x\n\n\nhello\n\n===\n< ./ping.bin\n===\n\n");
		expect(b.websocket.steps).toEqual([
			{ kind: "text", text: "hello", line: 3 },
			{ kind: "file", path: "./ping.bin", line: 6 },
		]);
		expect(b.websocket.waits).toBe(false);
	});

	it("a `< file` line right after the headers is the first message, as it starts an http body", () => {
		const b = ws("WS ws://x\nOrigin: http://x\n< ./hello.json\n===\nbye");
		expect(b.problems).toEqual([]);
		expect(b.websocket.steps).toEqual([
			{ kind: "file", path: "./hello.json", line: 2 },
			{ kind: "text", text: "bye", line: 4 },
		]);
	});

	it("`??` lines are assertions, not messages", () => {
		const b = ws("wss://x\n\nhi\n?? messages.count >= 1");
		expect(b.websocket.steps).toEqual([{ kind: "text", text: "hi", line: 2 }]);
		expect(b.websocket.request.assertions).toEqual([{ line: 3, text: "messages.count >= 1" }]);
	});

	it("a GRAPHQL subscription is a websocket block whose operation is the body", () => {
		const b = ws('GRAPHQL http://x/graphql\n\nsubscription Count($to: Int) { count(to: $to) }\n\n{"to": 3}');
		expect(b.websocket.graphql).toBe(true);
		expect(b.websocket.steps).toEqual([]);
		expect(b.websocket.request.graphql).toEqual(expect.objectContaining({ query: "subscription Count($to: Int) { count(to: $to) }", variables: '{"to": 3}' }));
	});
});
