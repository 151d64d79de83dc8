import { MAX_LINE_CHARS, MAX_MESSAGE_LINES, messageHeight, messageLines, prettyJson, prettyLineCount } from "../../../../src/ui/stream/message-text";
import type { StreamMessage } from "../../../../src/ui/stream/stream-model";

const text = (data: string, binary = false): StreamMessage => ({ direction: "received", atMs: 0, data, binary, size: data.length });

describe("prettyJson", () => {
	it.each([
		['{"a":1,"b":[2]}', '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}'],
		[" [1] ", "[\n  1\n]"],
		["42", null],
		['"a string"', null],
		["{not json", null],
		["hello", null],
	])("pretty-prints %j only when it is a JSON object or array", (data, expected) => expect(prettyJson(data)).toBe(expected));
});

describe("messageLines", () => {
	it("shows JSON pretty-printed and marks it for highlighting", () => {
		expect(messageLines(text('{"n":1}'))).toEqual({ lines: ["{", '  "n": 1', "}"], more: 0, json: true });
	});

	it("shows other text as received, split at LF and CRLF", () => {
		expect(messageLines(text("one\r\ntwo\nthree"))).toEqual({ lines: ["one", "two", "three"], more: 0, json: false });
	});

	it("shows binary as its base64, never parsed as JSON", () => {
		expect(messageLines(text("W10=", true))).toEqual({ lines: ["W10="], more: 0, json: false });
	});

	it("keeps the first lines of a long message and counts the rest", () => {
		const long = Array.from({ length: MAX_MESSAGE_LINES + 5 }, (_, i) => `line ${i}`).join("\n");
		const shown = messageLines(text(long));
		expect(shown.lines).toHaveLength(MAX_MESSAGE_LINES);
		expect(shown.more).toBe(5);
		expect(messageHeight(text(long))).toBe(1 + MAX_MESSAGE_LINES + 1);
	});

	it("cuts a very long line", () => {
		const [line] = messageLines(text("x".repeat(MAX_LINE_CHARS + 10))).lines;
		expect(line).toBe(`${"x".repeat(MAX_LINE_CHARS)}…`);
	});
});

describe("messageHeight", () => {
	it.each([
		["ping", 2],
		['{"a":1}', 4],
		["", 2],
		["a\r\nb", 3],
		["x\n".repeat(MAX_MESSAGE_LINES - 1) + "x", 1 + MAX_MESSAGE_LINES],
		["x\n".repeat(MAX_MESSAGE_LINES) + "x", 1 + MAX_MESSAGE_LINES + 1],
	])("gives %j a header line plus its lines: %i", (data, lines) => expect(messageHeight(text(data))).toBe(lines));

	it("agrees with the lines the list draws", () => {
		for (const data of ["one", '{"a":{"b":[1,2]}}', "a\nb\nc", "x\n".repeat(100)]) {
			const { lines, more } = messageLines(text(data));
			expect(messageHeight(text(data))).toBe(1 + lines.length + (more > 0 ? 1 : 0));
		}
	});
});

describe("prettyLineCount", () => {
	const printed = (v: unknown) => JSON.stringify(v, null, 2).split("\n").length;

	it.each([
		[{}],
		[[]],
		[{ a: 1 }],
		[[1, 2, 3]],
		[{ a: {}, b: [], c: "x\ny" }],
		[{ seq: 1, symbol: "RB", price: 100.1, side: "buy" }],
		[[{ a: [1, { b: null }] }, [], [[]], { c: { d: { e: true } } }]],
		[{ toJSON: "not a function", "": [0] }],
	])("counts the lines JSON.stringify prints for %j", (value) => {
		const parsed = JSON.parse(JSON.stringify(value)) as unknown;
		expect(prettyLineCount(parsed, 1000)).toBe(printed(parsed));
	});

	it("stops counting past the cap (a huge message is not walked)", () => {
		const big = Array.from({ length: 10_000 }, (_, i) => ({ i }));
		expect(prettyLineCount(big, MAX_MESSAGE_LINES)).toBeGreaterThan(MAX_MESSAGE_LINES);
		expect(prettyLineCount(big, MAX_MESSAGE_LINES)).toBeLessThan(printed(big));
	});

	it("gives JSON messages the height of what the list draws", () => {
		for (const data of ['{"seq":1,"symbol":"RB","side":"buy"}', "[]", '[{"a":[]},{"b":{"c":1}}]', JSON.stringify(Array.from({ length: 60 }, (_, i) => i)), '{"a":1', "[1,]"]) {
			const { lines, more } = messageLines(text(data));
			expect(messageHeight(text(data))).toBe(1 + lines.length + (more > 0 ? 1 : 0));
		}
	});
});
