import { BLOCK_KINDS, canonicalInfo, declaredBy, enumToken, flagToken, httpKind, kindOf, parseInfo, parseNote, timeoutToken, withToken } from "../../../src/blocks";

describe("the block kind list", () => {
	it("names each fence language once, in lower case", () => {
		const languages = BLOCK_KINDS.map((k) => k.language);
		expect(new Set(languages).size).toBe(languages.length);
		for (const l of languages) expect(l).toBe(l.toLowerCase());
	});

	it.each([
		["http", "http"],
		["db", "db"],
		["textdiff", "textdiff"],
		["mermaid", undefined],
		["js", undefined],
		["", undefined],
	])("finds the kind of the fence language %j", (language, found) => {
		expect(kindOf(language)?.language).toBe(found);
	});

	it("parses a block through its kind: the model sits under the kind's language", () => {
		const [b] = parseNote("```HTTP\nGET https://x.test\n```");
		expect(b.kind).toBe("http");
		if (b.kind !== "http") throw new Error("not http");
		expect(b.http).toEqual(httpKind.parse("GET https://x.test").model);
	});

	it("hands a block's kind its model, to ask what the kind declares of it", () => {
		const [http, db] = parseNote("```http\nGET https://x.test\n```\n```db\nSELECT 1\n```");
		expect(declaredBy(http)).toEqual({ kind: httpKind, model: (http as Extract<typeof http, { kind: "http" }>).http });
		expect(declaredBy(db)?.kind.language).toBe("db");
		expect(declaredBy({ kind: "mermaid" })).toBeUndefined();
	});
});

describe("an info schema given by a kind", () => {
	// A kind with a flag and other values than http's: the rules below come from the schema alone.
	const schema = [enumToken("mode", ["unified", "split"]), flagToken("ignore_case"), timeoutToken] as const;

	it("reads flags written bare and values from the kind's own lists", () => {
		const parsed = parseInfo("ignore_case mode=unified", schema);
		expect(parsed.tokens).toEqual({ ignore_case: true, mode: "unified" });
		expect(parsed.problems).toEqual([]);
	});

	it.each([
		["ignore_case=yes", /ignore_case "yes" is invalid: write ignore_case alone/],
		["mode=form", /mode "form" is invalid: use unified, split/],
	])("rejects %j with the kind's expectation", (info, message) => {
		const { problems } = parseInfo(info, schema);
		expect(problems).toEqual([expect.objectContaining({ code: "invalid_token_value", severity: "error" })]);
		expect(problems[0].message).toMatch(message);
	});

	it("names the kind's tokens when one is unknown, and keeps it", () => {
		const { problems, words } = parseInfo("alias=a", schema);
		expect(problems[0].message).toBe('Unknown token "alias=a" is kept but ignored (known: mode, ignore_case, timeout)');
		expect(words).toEqual([{ text: "alias=a", key: null }]);
	});

	it("orders the info string as the kind lists its tokens, and writes flags bare", () => {
		const { words } = parseInfo("x timeout=5 ignore_case mode=split", schema);
		expect(canonicalInfo(words, schema)).toBe("mode=split ignore_case timeout=5 x");
		expect(withToken(parseInfo("timeout=5", schema).words, schema, "ignore_case", "")).toBe("ignore_case timeout=5");
	});
});
