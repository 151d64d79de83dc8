import { changeList, changeRows, rowAt } from "../../../../src/ui/vcs/change-rows";
import type { FileChange } from "../../../../src/vcs/status";

const f = (path: string, index: string, worktree: string): FileChange => ({ path, origPath: null, index, worktree });

describe("changeRows", () => {
	it("puts a head before each non-empty group, conflicted first, untracked last; a file in two groups is two rows", () => {
		const rows = changeRows([f("new.md", "?", "?"), f("both.md", "M", "M"), f("clash.md", "U", "U")]);
		expect(rows.map((r) => (r.kind === "head" ? `# ${r.group} ${r.files.length}` : `${r.group} ${r.file.path}`))).toEqual([
			"# conflicted 1",
			"conflicted clash.md",
			"# staged 1",
			"staged both.md",
			"# unstaged 1",
			"unstaged both.md",
			"# untracked 1",
			"untracked new.md",
		]);
	});

	it("is empty without changes", () => expect(changeRows([])).toEqual([]));
});

describe("changeList and rowAt", () => {
	it("place each group's head before its files and count heads and files", () => {
		const files = [f("a.md", "?", "?"), f("b.md", "?", "?"), f("c.md", "M", ".")];
		const list = changeList(files);
		expect(list.count).toBe(5);
		expect(list.sections.map((s) => [s.group, s.start])).toEqual([
			["staged", 0],
			["untracked", 2],
		]);
		expect(rowAt(list, 2)).toEqual({ kind: "head", group: "untracked", files: [files[0], files[1]] });
		expect(rowAt(list, 4)).toEqual({ kind: "file", group: "untracked", file: files[1] });
	});
});
