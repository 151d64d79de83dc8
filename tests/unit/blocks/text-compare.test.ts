import { compareTexts } from "../../../src/blocks";

describe("compareTexts", () => {
	it("compares lines, not line breaks: a CRLF pane equals its LF twin", () => {
		const c = compareTexts("a\r\nb\r\nc", "a\nb\nc");
		expect(c.count.changes).toBe(0);
		expect(c.left).toEqual(["a", "b", "c"]);
	});

	it("counts the one changed line of CRLF panes, not every line but the last", () => {
		const c = compareTexts("a\r\nb\r\nc", "a\r\nB\r\nc");
		expect(c.count.changes).toBe(1);
		expect(c.right).toEqual(["a", "B", "c"]);
	});

	it("normalises JSON written with CRLF breaks and says it did", () => {
		const c = compareTexts('{"b":1,\r\n"a":2}', '{"a":2,"b":1}', { normalize: "json" });
		expect(c.count.changes).toBe(0);
		expect(c.normalized).toBe(true);
		expect(c.notJson).toEqual([]);
	});
});
