import { VCS_LANGUAGES, vcsTableFor, vcsTranslator } from "../../../src/ui/vcs/strings";
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

describe("panel strings", () => {
	it("has every key in every language with the same placeholders", () => {
		const en = vcsTableFor("en");
		const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
		for (const lang of VCS_LANGUAGES) {
			const table = vcsTableFor(lang);
			for (const key of Object.keys(en) as Array<keyof typeof en>) expect([lang, key, holes(table[key] ?? "")]).toEqual([lang, key, holes(en[key])]);
		}
	});

	it("follows the language code and fills placeholders", () => {
		expect(vcsTranslator("pt-BR")("sync")).toBe("Sincronizar");
		expect(vcsTranslator("fr")("diverged", { ahead: 2, behind: 3 })).toBe("Diverged: 2 local, 3 remote commits. Nothing was merged; your commits are safe.");
	});
});
