import { commitMessage, noteName } from "../../../src/vcs/message";
import { parseBranches } from "../../../src/vcs/branches";
import { parseLog } from "../../../src/vcs/log";

const at = new Date(2026, 10, 25, 9, 5);

describe("commit message template", () => {
	it.each([
		["Vault update {date}: {notes}", ["a/Alpha.md", "Beta.md"], "Vault update 2026-11-25 09:05: Alpha, Beta"],
		["{count} files", ["a.md", "b.canvas"], "2 files"],
		["{notes}", ["1.md", "2.md", "3.md", "4.md", "5.md", "6.md", "7.md"], "1, 2, 3, 4, 5 and 2 more"],
		["{notes}", ["x/Same.md", "y/Same.md"], "Same"],
		["{notes}", [], "no files"],
		["Backup {oops}", ["a.md"], "Backup {oops}"],
	])("%j over %j gives %j", (template, paths, expected) => expect(commitMessage(template, paths, at)).toBe(expected));

	it("names a note by its file name without .md", () => expect(noteName("deep/dir/My note.md")).toBe("My note"));
});

describe("branch and log output", () => {
	it("reads for-each-ref lines, dropping origin/HEAD", () => {
		const out = ["refs/heads/main\0main\0*\0origin/main", "refs/remotes/origin/HEAD\0origin\0 \0", "refs/remotes/origin/x y\0origin/x y\0 \0", ""].join("\n");
		expect(parseBranches(out)).toEqual([
			{ name: "main", remote: false, current: true, upstream: "origin/main" },
			{ name: "origin/x y", remote: true, current: false, upstream: null },
		]);
	});

	it("reads log records split by NUL, fields by US", () => {
		expect(parseLog("h1\x1fs1\x1fAna\x1f100\x1fFirst: a\tb\0\nh2\x1fs2\x1fBo\x1f200\x1f\0")).toEqual([
			{ hash: "h1", shortHash: "s1", author: "Ana", time: 100, subject: "First: a\tb" },
			{ hash: "h2", shortHash: "s2", author: "Bo", time: 200, subject: "" },
		]);
	});
});
