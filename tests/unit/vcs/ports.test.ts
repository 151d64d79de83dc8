import { resolveFrom } from "../../../src/vcs/ports";

describe("resolveFrom", () => {
	it.each([
		["/vault", "notes/a.md", "/vault/notes/a.md"],
		["/vault/", "a.md", "/vault/a.md"],
		["/vault//", "a.md", "/vault/a.md"],
		["C:\\Users\\ana\\vault\\", "a.md", "C:\\Users\\ana\\vault/a.md"],
		["/vault", ".git/index.lock", "/vault/.git/index.lock"],
	])("joins a relative path onto the directory: %s + %s", (cwd, path, expected) => expect(resolveFrom(cwd, path)).toBe(expected));

	it.each([
		["/vault", "/elsewhere/repo/.git"],
		["/vault", "C:/repo/.git"],
		["/vault", "D:\\repo\\.git"],
	])("keeps an absolute path as git printed it: %s, %s", (cwd, path) => expect(resolveFrom(cwd, path)).toBe(path));

	it("treats a drive letter without a separator as relative (C:file is not absolute)", () => {
		expect(resolveFrom("/vault", "C:notes.md")).toBe("/vault/C:notes.md");
	});
});
