import fc from "fast-check";
import { fuzzyScore, packTexts, prepareText, queryWords } from "../../../src/blocks/fuzzy-match";
import { isTypedFurther, narrow, narrowedScore, type Narrowed } from "../../../src/blocks/search-narrowing";

/** What a narrowing says, by text: which match, with which score. */
const outcome = (texts: string[], n: Narrowed) => Array.from({ length: n.count }, (_, c) => [texts[n.orders[c]], narrowedScore(n, c)]);

describe("isTypedFurther: when the next query can start from the last one", () => {
	it.each([
		[[], ["a"], true],
		[["sv"], ["svc"], true],
		[["svc"], ["svc"], true],
		[["svc"], ["svc", "o"], true],
		[["svc", "o"], ["svc", "op"], true],
		[["svc"], ["sv"], false],
		[["svc"], ["svx"], false],
		[["svc", "o"], ["svcx", "o"], false],
		[["svc", "op"], ["svc"], false],
	])("%j → %j: %s", (from, to, expected) => expect(isTypedFurther(from, to)).toBe(expected));
});

describe("narrow", () => {
	const texts = ["GET {{base_url}}/services/4/items/2 · svc4_op2 · Service 4", "POST /login · login · Auth", "{{service_token}} · prod · secret", "getUser camelCase"];
	const prepared = packTexts(texts.map((t) => prepareText(t))).packed;

	it("keeps the texts every word matches, in their order, each scored as fuzzyScore scores it", () => {
		const n = narrow(prepared, null, queryWords("se to"));
		expect(outcome(texts, n)).toEqual(texts.filter((t) => fuzzyScore("se to", t) !== null).map((t) => [t, fuzzyScore("se to", t)?.score]));
		expect(n.count).toBe(2);
	});

	it("typed further, gives what a fresh narrowing gives (characters added, words added, nothing added)", () => {
		const word = fc.stringMatching(/^[a-z_{}/ ]{0,6}$/);
		fc.assert(
			fc.property(word, word, fc.boolean(), (first, more, space) => {
				const before = queryWords(first);
				const after = queryWords(first + (space ? " " : "") + more);
				fc.pre(before.length > 0 && after.length > 0 && isTypedFurther(before, after));
				const step = narrow(prepared, narrow(prepared, null, before), after);
				expect(outcome(texts, step)).toEqual(outcome(texts, narrow(prepared, null, after)));
			}),
		);
	});
});
