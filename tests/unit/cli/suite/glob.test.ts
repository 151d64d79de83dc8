import { globBase, globToRegExp, isGlob } from "../../../../src/cli/suite/glob";

describe("globToRegExp", () => {
	it.each([
		["notes/*.md", "notes/a.md", true],
		["notes/*.md", "notes/sub/a.md", false],
		["notes/**/*.md", "notes/a.md", true],
		["notes/**/*.md", "notes/x/y/a.md", true],
		["notes/**", "notes/x/y/a.md", true],
		["api-?.md", "api-1.md", true],
		["api-?.md", "api-10.md", false],
		["api-[ab].md", "api-b.md", true],
		["api-[!ab].md", "api-b.md", false],
		["{auth,users}/*.md", "users/list.md", true],
		["{auth,users}/*.md", "orders/list.md", false],
		["a.md", "aXmd", false],
		["notes (old)/*.md", "notes (old)/a.md", true],
	])("%s matches %s: %s", (pattern, path, expected) => expect(globToRegExp(pattern).test(path)).toBe(expected));
});

describe("isGlob and globBase", () => {
	it.each([
		["notes/*.md", true, "notes"],
		["notes/**/api/*.md", true, "notes"],
		["*.md", true, "."],
		["/abs/dir/*.md", true, "/abs/dir"],
		["notes/a.md", false, "notes/a.md"],
	])("%s: glob %s, walked from %s", (pattern, glob, base) => {
		expect(isGlob(pattern)).toBe(glob);
		expect(globBase(pattern)).toBe(base);
	});
});
