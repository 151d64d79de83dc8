import { canonicalInfo, httpKind, parseInfo, withToken } from "../../../src/blocks";

/** The info schema these rules are written for: the http kind's. */
const schema = httpKind.tokens;

describe("info string tokens", () => {
	it.each([
		["alias=login", { alias: "login" }],
		["alias=a_b-9", { alias: "a_b-9" }],
		["timeout=500", { timeout: 500 }],
		["display=input", { display: "input" }],
		["display=output", { display: "output" }],
		["display=split", { display: "split" }],
		["mode=raw", { mode: "raw" }],
		["mode=form", { mode: "form" }],
		["mode=form   alias=x\ttimeout=1", { mode: "form", alias: "x", timeout: 1 }],
		["", {}],
	])("parses %j", (info, tokens) => {
		const parsed = parseInfo(info, schema);
		expect(parsed.tokens).toEqual(tokens);
		expect(parsed.problems).toEqual([]);
	});

	it.each([
		["timeout=abc", "invalid_token_value", /timeout "abc" is invalid/],
		["timeout=0", "invalid_token_value", /positive whole number/],
		["timeout=-5", "invalid_token_value", /timeout "-5"/],
		["timeout=1.5", "invalid_token_value", /timeout "1.5"/],
		["timeout=", "invalid_token_value", /timeout ""/],
		["display=wide", "invalid_token_value", /display "wide" is invalid: use input, output, split/],
		["mode=table", "invalid_token_value", /mode "table"/],
		["alias=has.dot", "invalid_token_value", /alias "has.dot" is invalid/],
		["alias={{name}}", "invalid_token_value", /alias "\{\{name\}\}" is invalid/],
		["alias=", "invalid_token_value", /alias ""/],
		["alias=a alias=b", "duplicate_token", /"alias" is written more than once/],
		["timeout=1 timeout=1", "duplicate_token", /"timeout"/],
	])("rejects %j as an error", (info, code, message) => {
		const { problems } = parseInfo(info, schema, 7);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatchObject({ code, severity: "error", line: 7 });
		expect(problems[0].message).toMatch(message);
	});

	it.each([["foo"], ["foo=bar"], ["=x"], ["ALIAS=x"], ["{{base_url}}"]])("keeps and warns about the unknown token %j", (word) => {
		const { problems, words } = parseInfo(`alias=a ${word}`, schema);
		expect(problems).toEqual([expect.objectContaining({ code: "unknown_token", severity: "warning" })]);
		expect(words.map((w) => w.text)).toEqual(["alias=a", word]);
	});

	it.each([
		["mode=form display=output timeout=5 alias=x", "alias=x timeout=5 display=output mode=form"],
		["zed=1 mode=raw foo alias=y", "alias=y mode=raw zed=1 foo"],
		["display=input", "display=input"],
		["unknown2 unknown1", "unknown2 unknown1"],
		["", ""],
	])("rewrites %j canonically as %j, adding nothing", (info, canonical) => {
		expect(canonicalInfo(parseInfo(info, schema).words, schema)).toBe(canonical);
	});

	it("changes one token with withToken, keeping the rest in canonical order", () => {
		const { words } = parseInfo("foo display=output alias=a", schema);
		expect(withToken(words, schema, "mode", "form")).toBe("alias=a display=output mode=form foo");
		expect(withToken(words, schema, "display", null)).toBe("alias=a foo");
		expect(withToken(words, schema, "alias", "b")).toBe("alias=b display=output foo");
	});
});
