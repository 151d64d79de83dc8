import { SuggestModal, type App } from "obsidian";
import { branchChoices, type BranchChoice, type BranchRef } from "../../vcs";
import type { VcsStringKey } from "./strings";

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
