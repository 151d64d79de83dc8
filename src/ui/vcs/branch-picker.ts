import { SuggestModal, type App } from "obsidian";
import { branchChoices, type BranchChoice, type BranchRef, type GitFailure, type VcsSession } from "../../vcs";
import { t } from "../strings";
import { appendHighlighted } from "../suggest/highlight";

/** `switch`: the branches to switch to, and create for a new name; `create`: only the typed name to create. */
export type BranchPickerMode = "switch" | "create";

/** vcs.branch: a fuzzy branch picker over local and remote branches, with create. */
export class BranchPicker extends SuggestModal<BranchChoice> {
	constructor(
		app: App,
		private readonly branches: readonly BranchRef[],
		private readonly mode: BranchPickerMode,
		private readonly choose: (choice: BranchChoice) => void,
	) {
		super(app);
		this.setPlaceholder(t(mode === "create" ? "vcsNewBranchPlaceholder" : "vcsBranchPlaceholder"));
		if (mode === "create") this.emptyStateText = t("vcsNewBranchEmpty");
	}

	getSuggestions(query: string): BranchChoice[] {
		// Create offers the name even when it exists: git's refusal (branch_exists) says why, where silence would not.
		if (this.mode === "create") return query.trim() ? [{ kind: "create", name: query.trim() }] : [];
		return branchChoices(this.branches, query);
	}

	renderSuggestion(choice: BranchChoice, el: HTMLElement): void {
		el.addClass("rb-vcs-branch-choice");
		if (choice.kind === "create") {
			el.createDiv({ text: t("vcsCreateBranch", { name: choice.name }) });
			return;
		}
		appendHighlighted(el.createSpan(), choice.branch.name, choice.matches);
		if (choice.branch.current) el.createSpan({ cls: "rb-vcs-tag", text: t("vcsCurrentBranch") });
		if (choice.branch.remote) el.createSpan({ cls: "rb-vcs-tag", text: t("vcsRemoteBranch") });
	}

	onChooseSuggestion(choice: BranchChoice): void {
		this.choose(choice);
	}
}

/**
 * Opens the picker over the repository's branches; choosing switches or creates through the
 * session, and `done` runs once that has ended. Returns the failure that kept the picker closed
 * (no repository, git missing), or null.
 */
export async function pickBranch(app: App, session: VcsSession, mode: BranchPickerMode, done: () => void): Promise<GitFailure | null> {
	const list = await session.branches();
	if (!list.ok) return list.failure;
	new BranchPicker(app, list.value, mode, (choice) => {
		void (choice.kind === "create" ? session.createBranch(choice.name) : session.switchTo(choice.branch)).then(done);
	}).open();
	return null;
}
