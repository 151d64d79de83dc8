import { discardableChange, groupChanges, groupsOf, parseStatus, parseStatusInSlices } from "../../../src/vcs/status";

const z = (...entries: string[]) => entries.map((e) => `${e}\0`).join("");
const OID = "a".repeat(40);

describe("parseStatus (porcelain v2 -z)", () => {
	it("reads the branch headers", () => {
		const s = parseStatus(z(`# branch.oid ${OID}`, "# branch.head main", "# branch.upstream origin/main", "# branch.ab +2 -3"));
		expect(s.branch).toEqual({ oid: OID, head: "main", upstream: "origin/main", ahead: 2, behind: 3, upstreamGone: false });
	});

	it.each([
		[["# branch.oid (initial)", "# branch.head main"], { oid: null, head: "main", upstream: null }],
		[[`# branch.oid ${OID}`, "# branch.head (detached)"], { oid: OID, head: null }],
		[[`# branch.oid ${OID}`, "# branch.head topic", "# branch.upstream origin/topic"], { upstream: "origin/topic", upstreamGone: true, ahead: 0 }],
	])("reads %j", (lines, expected) => expect(parseStatus(z(...lines)).branch).toMatchObject(expected));

	it("keeps paths verbatim: spaces, unicode, newlines; renames carry their original path", () => {
		const s = parseStatus(
			z(
				`1 .M N... 100644 100644 100644 ${OID} ${OID} a note with  two spaces.md`,
				`1 A. N... 000000 100644 100644 ${OID} ${OID} 日本語 ✓.md`,
				`2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new\nname.md`,
				"old name.md",
				`u UU N... 100644 100644 100644 100644 ${OID} ${OID} ${OID} both edited.md`,
				"? untracked file.md",
				"! ignored.md",
			),
		);
		expect(s.files).toEqual([
			{ path: "a note with  two spaces.md", origPath: null, index: ".", worktree: "M" },
			{ path: "日本語 ✓.md", origPath: null, index: "A", worktree: "." },
			{ path: "new\nname.md", origPath: "old name.md", index: "R", worktree: "." },
			{ path: "both edited.md", origPath: null, index: "U", worktree: "U" },
			{ path: "untracked file.md", origPath: null, index: "?", worktree: "?" },
		]);
	});

	it.each([
		[".M", ["unstaged"]],
		["M.", ["staged"]],
		["MM", ["staged", "unstaged"]],
		["A.", ["staged"]],
		[".D", ["unstaged"]],
		["UU", ["conflicted"]],
		["AA", ["conflicted"]],
		["DU", ["conflicted"]],
		["??", ["untracked"]],
	])("puts %s in %j", (xy, groups) => expect(groupsOf({ path: "x", origPath: null, index: xy[0], worktree: xy[1] })).toEqual(groups));

	it("groups every file once per group it belongs to", () => {
		const g = groupChanges(parseStatus(z(`1 MM N... 100644 100644 100644 ${OID} ${OID} a.md`, "? b.md")).files);
		expect([g.staged.length, g.unstaged.length, g.untracked.length, g.conflicted.length]).toEqual([1, 1, 1, 0]);
	});
});

describe("parseStatusInSlices", () => {
	const many = (n: number) => z(`# branch.oid ${OID}`, "# branch.head main", ...Array.from({ length: n }, (_, i) => `? note ${i}.md`), `2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new.md`, "old.md");

	it("reads what parseStatus reads, pausing between slices", async () => {
		let pauses = 0;
		const sliced = await parseStatusInSlices(many(2500), async () => void pauses++, 1000);
		expect(sliced).toEqual(parseStatus(many(2500)));
		expect(sliced.files).toHaveLength(2501);
		expect(sliced.files[2500]).toEqual({ path: "new.md", origPath: "old.md", index: "R", worktree: "." });
		// 2,504 entries in slices of 1,000: two pauses before the last slice.
		expect(pauses).toBe(2);
	});

	it("does not pause for output shorter than a slice (and reads output without a final NUL)", async () => {
		let pauses = 0;
		const s = await parseStatusInSlices("# branch.head main\0? a.md", async () => void pauses++, 1000);
		expect(s.files).toEqual([{ path: "a.md", origPath: null, index: "?", worktree: "?" }]);
		expect(s.branch.head).toBe("main");
		expect(pauses).toBe(0);
	});
});

describe("discardableChange (the palette's Discard changes on one note)", () => {
	it.each([
		[".M", { ok: true, untracked: false }],
		["MM", { ok: true, untracked: false }],
		[".D", { ok: true, untracked: false }],
		["??", { ok: true, untracked: true }],
		["M.", { ok: false, why: "staged" }],
		["A.", { ok: false, why: "staged" }],
		["UU", { ok: false, why: "conflicted" }],
	])("a file whose status is %s: %j", (xy, expected) => expect(discardableChange([{ path: "Note.md", origPath: null, index: xy[0], worktree: xy[1] }], "Note.md")).toEqual(expected));

	it("a file git does not list has nothing to discard", () => {
		expect(discardableChange([{ path: "Other.md", origPath: null, index: ".", worktree: "M" }], "Note.md")).toEqual({ ok: false, why: "unchanged" });
	});
});
