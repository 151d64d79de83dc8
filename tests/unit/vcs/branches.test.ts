import { branchChoices, type BranchChoice, type BranchRef } from "../../../src/vcs";

const b = (name: string, extra: Partial<BranchRef> = {}): BranchRef => ({ name, remote: false, current: false, upstream: null, ...extra });
const names = (choices: BranchChoice[]) => choices.map((c) => (c.kind === "switch" ? c.branch.name : `+${c.name}`));

describe("branch picker", () => {
	it("keeps the branches whose name holds the query as a subsequence, case-insensitively", () => {
		const branches = [b("feature/login"), b("fix-typo"), b("Release")];
		expect(names(branchChoices(branches, "ftr"))).toEqual(["feature/login", "+ftr"]);
		expect(names(branchChoices(branches, "REL"))).toEqual(["Release", "feature/login", "+REL"]);
		expect(names(branchChoices(branches, "xyz"))).toEqual(["+xyz"]);
	});

	it("ranks as Mod+K does: word starts and runs before scattered letters, whatever the list's order", () => {
		const branches = [b("stem-oak"), b("topic-merge-old"), b("tmo")];
		expect(names(branchChoices(branches, "tmo"))).toEqual(["tmo", "topic-merge-old", "stem-oak"]);
	});

	it("marks the matched characters of each name", () => {
		const [first] = branchChoices([b("feature/login")], "flog");
		expect(first.kind === "switch" && first.matches).toEqual([
			[0, 1],
			[8, 11],
		]);
	});

	it("lists the current branch first, then local ones, then remote ones; offers create for a new name only", () => {
		const branches = [b("origin/main", { remote: true }), b("main"), b("drafts", { current: true })];
		expect(names(branchChoices(branches, ""))).toEqual(["drafts", "main", "origin/main"]);
		expect(names(branchChoices(branches, "main"))).toEqual(["main", "origin/main"]);
		expect(names(branchChoices(branches, "new-idea"))).toEqual(["+new-idea"]);
	});
});
