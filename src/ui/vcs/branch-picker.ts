import { SuggestModal, type App } from "obsidian";
import type { BranchRef } from "../../vcs";
import type { VcsStringKey } from "./strings";

/** A branch to switch to, or a new one to create from HEAD. */
export type BranchChoice = { kind: "switch"; branch: BranchRef } | { kind: "create"; name: string };

/** Subsequence match, case-insensitive; a lower score is better (gaps and a late start cost). */
export function fuzzyScore(query: string, text: string): number | null {
	const q = query.toLowerCase();
	const s = text.toLowerCase();
	if (q === "") return 0;
	let score = 0;
	let at = -1;
	for (const ch of q) {
		const next = s.indexOf(ch, at + 1);
		if (next < 0) return null;
		score += next - at - 1;
		at = next;
	}
	return score + (s.startsWith(q) ? 0 : 1) + s.length / 1000;
}

/** The picker's list: matching branches (current first when unfiltered), then "Create branch…" for a new name. */
export function branchChoices(branches: readonly BranchRef[], query: string): BranchChoice[] {
	const q = query.trim();
	const scored = branches.flatMap((b) => {
		const score = fuzzyScore(q, b.name);
		return score === null ? [] : [{ b, score: score + (b.current ? -0.5 : 0) + (b.remote ? 0.25 : 0) }];
	});
	scored.sort((x, y) => x.score - y.score);
	const choices: BranchChoice[] = scored.map(({ b }) => ({ kind: "switch", branch: b }));
	if (q && !branches.some((b) => !b.remote && b.name === q)) choices.push({ kind: "create", name: q });
	return choices;
}

/** vcs.branch: a fuzzy branch picker over local and remote branches, with create. */
export class BranchPicker extends SuggestModal<BranchChoice> {
	constructor(
		app: App,
		private readonly branches: readonly BranchRef[],
		private readonly t: (key: VcsStringKey, vars?: Record<string, string | number>) => string,
		private readonly choose: (choice: BranchChoice) => void,
	) {
		super(app);
		this.setPlaceholder(t("branchPlaceholder"));
	}

	getSuggestions(query: string): BranchChoice[] {
		return branchChoices(this.branches, query);
	}

	renderSuggestion(choice: BranchChoice, el: HTMLElement): void {
		el.addClass("rb-vcs-branch-choice");
		if (choice.kind === "create") {
			el.createDiv({ text: this.t("createBranch", { name: choice.name }) });
			return;
		}
		el.createSpan({ text: choice.branch.name });
		if (choice.branch.current) el.createSpan({ cls: "rb-vcs-tag", text: this.t("currentBranch") });
		if (choice.branch.remote) el.createSpan({ cls: "rb-vcs-tag", text: this.t("remoteBranch") });
	}

	onChooseSuggestion(choice: BranchChoice): void {
		this.choose(choice);
	}
}
