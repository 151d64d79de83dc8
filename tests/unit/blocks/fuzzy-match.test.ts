import { fuzzyScore } from "../../../src/blocks/fuzzy-match";

describe("fuzzyScore", () => {
	it("is null when the query is not a subsequence of the text", () => {
		expect(fuzzyScore("xyz", "GET /books")).toBeNull();
		expect(fuzzyScore("skoob", "GET /books")).toBeNull();
	});

	it("ignores case", () => {
		expect(fuzzyScore("BOOKS", "get /books")).not.toBeNull();
		expect(fuzzyScore("books", "GET /BOOKS")).not.toBeNull();
	});

	it("returns the matched ranges, merged into runs", () => {
		expect(fuzzyScore("books", "GET /books")?.matches).toEqual([[5, 10]]);
		expect(fuzzyScore("gb", "GET /books")?.matches).toEqual([
			[0, 1],
			[5, 6],
		]);
	});

	it("prefers a contiguous run over scattered characters", () => {
		const text = "b-o-o-k-s books";
		expect(fuzzyScore("books", text)?.matches).toEqual([[10, 15]]);
		expect(fuzzyScore("books", "xbooks")!.score).toBeGreaterThan(fuzzyScore("books", "b_o_o_k_s")!.score);
	});

	it("prefers word starts", () => {
		expect(fuzzyScore("u", "bus /users")?.matches).toEqual([[5, 6]]);
		expect(fuzzyScore("ul", "/user/list")!.score).toBeGreaterThan(fuzzyScore("ul", "/fuel")!.score);
		expect(fuzzyScore("gu", "getUser")?.matches).toEqual([
			[0, 1],
			[3, 4],
		]);
	});

	it("requires every space-separated word to match (AND), in any order", () => {
		expect(fuzzyScore("books post", "POST /books")?.matches).toEqual([
			[0, 4],
			[6, 11],
		]);
		expect(fuzzyScore("books put", "POST /books")).toBeNull();
	});

	it("matches anything with an empty or blank query", () => {
		expect(fuzzyScore("", "x")).toEqual({ score: 0, matches: [] });
		expect(fuzzyScore("   ", "x")).toEqual({ score: 0, matches: [] });
	});

	it("scores matched characters inside a boosted range higher", () => {
		const text = "GET /login · login · Auth";
		const plain = fuzzyScore("login", text)!;
		const boosted = fuzzyScore("login", text, { boost: [[13, 18]] })!;
		expect(boosted.score).toBeGreaterThan(plain.score);
		expect(boosted.matches).toEqual([[13, 18]]);
	});

	it("matches texts too long for 16-bit positions as it matches short ones", () => {
		const long = "x".repeat(70_000) + "/books";
		expect(fuzzyScore("books", long)).toEqual({ score: fuzzyScore("books", "x/books")!.score, matches: [[70_001, 70_006]] });
		// The nearest x before the b, not the word start 70,000 positions away: the gap would cost more.
		expect(fuzzyScore("xb", long)).toEqual({
			score: 35,
			matches: [
				[69_999, 70_000],
				[70_001, 70_002],
			],
		});
	});

	it("matches letters beyond ASCII and astral characters, unit by unit, ignoring case", () => {
		expect(fuzzyScore("café", "CAFÉ · Über")?.matches).toEqual([[0, 4]]);
		expect(fuzzyScore("üb", "CAFÉ · Über")?.matches).toEqual([[7, 9]]);
		expect(fuzzyScore("😀x", "a😀b😀x")?.matches).toEqual([[4, 7]]);
		expect(fuzzyScore("ö", "CAFÉ · Über")).toBeNull();
	});
});
