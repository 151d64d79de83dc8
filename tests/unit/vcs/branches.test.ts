import { branchChoices, fuzzyScore, type BranchRef } from "../../../src/vcs";

const b = (name: string, extra: Partial<BranchRef> = {}): BranchRef => ({ name, remote: false, current: false, upstream: null, ...extra });

describe("branch picker", () => {
	it("matches subsequences, prefers prefixes and tight matches", () => {
		expect(fuzzyScore("ftr", "feature")).not.toBeNull();
		expect(fuzzyScore("xyz", "feature")).toBeNull();
		expect(fuzzyScore("fea", "feature")!).toBeLessThan(fuzzyScore("fea", "old-feature")!);
	});

	it("lists the current branch first, then others; offers create for a new name only", () => {
		const branches = [b("main"), b("drafts", { current: true }), b("origin/main", { remote: true })];
		expect(branchChoices(branches, "").map((c) => (c.kind === "switch" ? c.branch.name : `+${c.name}`))).toEqual(["drafts", "main", "origin/main"]);
		expect(branchChoices(branches, "main").map((c) => (c.kind === "switch" ? c.branch.name : `+${c.name}`))).toEqual(["main", "origin/main"]);
		expect(branchChoices(branches, "new-idea").map((c) => (c.kind === "switch" ? c.branch.name : `+${c.name}`))).toEqual(["+new-idea"]);
	});
});
