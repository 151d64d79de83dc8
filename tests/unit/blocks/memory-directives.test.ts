import { durationMs, parseHttpBlock, parseMemoryDirective, POLL_DEFAULT_EVERY_MS, POLL_DEFAULT_MAX } from "../../../src/blocks";

describe("@property", () => {
	it.each([
		["@property price = {{$.price}}", { name: "price", value: "{{$.price}}" }],
		["@property  last seen=  {{$.at}} ", { name: "last seen", value: "{{$.at}}" }],
		["@property status = ok {{$.code}}", { name: "status", value: "ok {{$.code}}" }],
		["@property a=b=c", { name: "a", value: "b=c" }],
	])("reads %j", (text, expected) => {
		expect(parseMemoryDirective(text, 3, 2)).toEqual({ kind: "property", directive: { ...expected, line: 3 } });
	});

	it.each([
		["@property price", "needs a name and a value"],
		["@property = 1", "has no name"],
		["@property price =", "price has no value"],
		["@property {{x}} = 1", "cannot be a property name"],
	])("refuses %j, saying why", (text, why) => {
		const found = parseMemoryDirective(text, 1, 2);
		expect(found).toMatchObject({ kind: "problem", problem: { code: "invalid_directive", severity: "error", line: 1, column: 2 } });
		expect(found?.kind === "problem" && found.problem.message).toContain(why);
	});

	it("leaves other comments alone", () => {
		expect(parseMemoryDirective("@propertyx = 1", 0, 0)).toBeNull();
		expect(parseMemoryDirective("see @poll below", 0, 0)).toBeNull();
	});
});

describe("@poll", () => {
	it.each([
		["@poll", { everyMs: POLL_DEFAULT_EVERY_MS, max: POLL_DEFAULT_MAX, unsafe: false }],
		["@poll every=5s max=20", { everyMs: 5000, max: 20, unsafe: false }],
		["@poll max=3 every=50ms unsafe", { everyMs: 50, max: 3, unsafe: true }],
		["@poll every=1.5s", { everyMs: 1500, max: POLL_DEFAULT_MAX, unsafe: false }],
		["@poll every=2m max=1", { everyMs: 120_000, max: 1, unsafe: false }],
	])("reads %j", (text, expected) => {
		expect(parseMemoryDirective(text, 0, 0)).toEqual({ kind: "poll", directive: { ...expected, line: 0 } });
	});

	it.each([
		["@poll every=5", "is not a duration"],
		["@poll every=1ms", "out of range"],
		["@poll every=61m", "out of range"],
		["@poll max=0", "from 1 to 1000"],
		["@poll max=2.5", "whole number"],
		["@poll max=1001", "from 1 to 1000"],
		["@poll max=2 max=3", "more than once"],
		["@poll forever", 'does not know "forever"'],
		["@poll unsafe=yes", 'does not know "unsafe=yes"'],
	])("refuses %j, saying why", (text, why) => {
		const found = parseMemoryDirective(text, 0, 0);
		expect(found?.kind).toBe("problem");
		expect(found?.kind === "problem" && found.problem.message).toContain(why);
	});

	it.each([
		["250ms", 250],
		["5s", 5000],
		["0.5s", 500],
		["3m", 180_000],
		["5", null],
		["5h", null],
		["-1s", null],
	])("reads the duration %j", (text, ms) => expect(durationMs(text)).toBe(ms));
});

describe("in an http block", () => {
	it("keeps each @property and the @poll, with their block lines", () => {
		const block = parseHttpBlock("# @name quote\n# @property price = {{$.price}}\nGET https://x.test/q\n// @poll every=50ms max=4\n# @property ok = {{$.ok}}\n\n?? status == 200");
		expect(block.problems).toEqual([]);
		expect(block.nameDirective).toBe("quote");
		expect(block.properties).toEqual([
			{ name: "price", value: "{{$.price}}", line: 1 },
			{ name: "ok", value: "{{$.ok}}", line: 4 },
		]);
		expect(block.poll).toEqual({ everyMs: 50, max: 4, unsafe: false, line: 3 });
	});

	it("reports a malformed directive where it is written, pointing at the @", () => {
		const block = parseHttpBlock("GET https://x.test\n  # @poll every=soon");
		expect(block.problems).toEqual([expect.objectContaining({ code: "invalid_directive", line: 1, column: 4, severity: "error" })]);
	});

	it("refuses a second @poll and a property set twice", () => {
		const block = parseHttpBlock("# @poll max=2\n# @poll max=3\n# @property a = 1\n# @property a = 2\nGET https://x.test");
		expect(block.problems.map((p) => [p.line, p.message])).toEqual([
			[1, expect.stringContaining("@poll is written more than once (first on line 1")],
			[3, expect.stringContaining("@property a is set twice")],
		]);
		expect(block.poll?.max).toBe(2);
		expect(block.properties).toEqual([{ name: "a", value: "1", line: 2 }]);
	});

	it("has neither without the directives", () => {
		expect(parseHttpBlock("GET https://x.test")).toMatchObject({ properties: [], poll: null });
	});
});
