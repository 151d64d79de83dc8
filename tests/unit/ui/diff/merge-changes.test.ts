import fc from "fast-check";
import { mergeChanges } from "../../../../src/ui/diff/merge-changes";

/** Applies character changes to `a`: without ignore options the result must be `b`. */
function apply(a: string, b: string, changes: ReturnType<typeof mergeChanges>): string {
	let out = "";
	let i = 0;
	for (const c of changes) {
		out += a.slice(i, c.fromA) + b.slice(c.fromB, c.toB);
		i = c.toA;
	}
	return out + a.slice(i);
}

describe("merge view changes", () => {
	it("marks the changed characters inside each changed line run", () => {
		const a = "one\nthe quick brown fox\nthree";
		const changes = mergeChanges(a, "one\nthe quick red fox\nthree", {});
		expect(changes.map((c) => [c.fromA, c.toA, c.fromB, c.toB])).toEqual([[14, 19, 14, 17]]);
		expect(a.slice(14, 19)).toBe("brown");
	});

	it("is an edit script from left to right for any texts, end of text included", () => {
		const text = fc.array(fc.constantFrom("a", "b", "ab", "", " b"), { maxLength: 8 }).map((l) => l.join("\n"));
		fc.assert(
			fc.property(text, text, (a, b) => {
				const changes = mergeChanges(a, b, {});
				expect(apply(a, b, changes)).toBe(b);
				for (let k = 1; k < changes.length; k++) expect(changes[k].fromA).toBeGreaterThanOrEqual(changes[k - 1].toA);
			}),
			{ numRuns: 1000 },
		);
	});

	it("leaves lines equal under the ignore options unmarked", () => {
		const a = "  Keep\nold";
		const b = "keep\nnew";
		expect(mergeChanges(a, b, {})[0].fromA).toBe(0);
		const ignoring = mergeChanges(a, b, { ignoreWhitespace: true, ignoreCase: true });
		expect(ignoring.every((c) => c.fromA >= a.indexOf("old") && c.fromB >= b.indexOf("new"))).toBe(true);
		expect(ignoring.length).toBeGreaterThan(0);
	});
});
