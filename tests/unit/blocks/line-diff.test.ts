import fc from "fast-check";
import { compareTexts, countChanges, describeCount, diffLines, paneLines, unifiedDiff, type LineChange } from "../../../src/blocks";

/** Applies the changes to `a`, which must give `b`: the diff is a correct edit script. */
function apply(a: readonly string[], b: readonly string[], changes: readonly LineChange[]): string[] {
	const out: string[] = [];
	let i = 0;
	for (const c of changes) {
		out.push(...a.slice(i, c.fromA), ...b.slice(c.fromB, c.toB));
		i = c.toA;
	}
	return [...out, ...a.slice(i)];
}

describe("line diff", () => {
	it("finds runs of changed lines and counts them", () => {
		const a = paneLines("one\ntwo\nthree\nfour\nfive");
		const b = paneLines("one\n2\nthree\nfour\nfive\nsix\nseven");
		const changes = diffLines(a, b);
		expect(changes).toEqual([
			{ fromA: 1, toA: 2, fromB: 1, toB: 2 },
			{ fromA: 5, toA: 5, fromB: 5, toB: 7 },
		]);
		expect(countChanges(changes)).toEqual({ changes: 2, added: 3, removed: 1 });
		expect(describeCount(countChanges(changes))).toBe("2 changes, +3 \u22121 lines");
	});

	it.each([
		[{ changes: 0, added: 0, removed: 0 }, "No changes"],
		[{ changes: 1, added: 1, removed: 0 }, "1 change, +1 \u22120 line"],
		[{ changes: 3, added: 12, removed: 4 }, "3 changes, +12 \u22124 lines"],
	])("words %j as %j", (count, text) => {
		expect(describeCount(count)).toBe(text);
	});

	it("is an edit script from left to right for any lines", () => {
		const lines = fc.array(fc.constantFrom("a", "b", "c", "", " a", "A"), { maxLength: 30 });
		fc.assert(
			fc.property(lines, lines, (a, b) => {
				expect(apply(a, b, diffLines(a, b))).toEqual(b);
			}),
			{ numRuns: 500 },
		);
	});

	it("ignores whitespace (all of it, as diff -w) and case only when asked", () => {
		const a = ["  if (x)  {", "Return Y;", "end\r"];
		const b = ["if(x){", "return y;", "end"];
		expect(countChanges(diffLines(a, b)).changes).toBe(1);
		expect(diffLines(a, b, { ignoreWhitespace: true })).toEqual([{ fromA: 1, toA: 2, fromB: 1, toB: 2 }]);
		expect(diffLines(a, b, { ignoreCase: true })).toEqual([{ fromA: 0, toA: 1, fromB: 0, toB: 1 }, { fromA: 2, toA: 3, fromB: 2, toB: 3 }]);
		expect(diffLines(a, b, { ignoreWhitespace: true, ignoreCase: true })).toEqual([]);
	});

	it("tells apart more distinct lines than a string has code units", () => {
		const a = Array.from({ length: 70_000 }, (_, i) => `line ${i}`);
		const b = [...a.slice(0, 100), "inserted", ...a.slice(100, 69_000), ...a.slice(69_001)];
		expect(diffLines(a, b)).toEqual([
			{ fromA: 100, toA: 100, fromB: 100, toB: 101 },
			{ fromA: 69_000, toA: 69_001, fromB: 69_001, toB: 69_001 },
		]);
	}, 30_000); // 140,000 lines: about a second alone, more on a shared machine
});

describe("unified diff", () => {
	const a = paneLines(Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n"));

	it("prints hunks as diff -u does, merging changes whose context overlaps", () => {
		const b = [...a];
		b[1] = "L2";
		b[4] = "L5";
		b.splice(15, 1);
		expect(unifiedDiff(a, b, diffLines(a, b), { labelA: "left", labelB: "right" })).toBe(
			["--- left", "+++ right", "@@ -1,8 +1,8 @@", " l1", "-l2", "+L2", " l3", " l4", "-l5", "+L5", " l6", " l7", " l8", "@@ -13,7 +13,6 @@", " l13", " l14", " l15", "-l16", " l17", " l18", " l19", ""].join("\n"),
		);
	});

	it("names the line before an empty side, and says nothing when equal", () => {
		const b = ["new", ...a];
		expect(unifiedDiff(a, b, diffLines(a, b), { labelA: "x", labelB: "y", context: 0 })).toBe("--- x\n+++ y\n@@ -0,0 +1 @@\n+new\n");
		expect(unifiedDiff(a, a, diffLines(a, a), { labelA: "x", labelB: "y" })).toBe("");
	});
});

describe("compareTexts", () => {
	it("compares normalised JSON when both sides parse", () => {
		const c = compareTexts('{"b":1,"a":2}', '{\n  "a": 2,\n  "b": 3\n}', { normalize: "json" });
		expect(c.normalized).toBe(true);
		expect(c.count).toEqual({ changes: 1, added: 1, removed: 1 });
		expect(c.left).toEqual(["{", '  "a": 2,', '  "b": 1', "}"]);
		expect(c.notJson).toEqual([]);
	});

	it("compares a side that is not JSON as written, and says so", () => {
		const c = compareTexts("{}", "not json", { normalize: "json" });
		expect(c.rightText).toBe("not json");
		expect(c.notJson).toEqual([{ pane: "right", reason: expect.stringMatching(/JSON|token/i) as unknown }]);
	});

	it("compares as written without normalize", () => {
		const c = compareTexts('{"b":1,"a":2}', '{"a":2,"b":1}');
		expect(c.normalized).toBe(false);
		expect(c.count.changes).toBe(1);
	});
});
