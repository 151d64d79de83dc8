import { Modal, type App } from "obsidian";
import { conflictSides, type VcsSession } from "../../vcs";
import type { DiffPanes } from "../diff/diff-panes";
import { diffPanesClass } from "../diff/lazy-diff";
import { t } from "../strings";

/** Plain line comparison: conflicts are about what the lines say, whitespace included. */
const OPTIONS = { mode: "split", ignoreWhitespace: false, ignoreCase: false, language: null, normalize: null } as const;

/** A later task: the merge view's code is evaluated, and its editors built, each in a task of its own. */
const nextTask = () => new Promise<void>((resolve) => window.setTimeout(resolve, 0));

/**
 * The conflicts of a merge or rebase, one file at a time, in the merge view (docs/vcs.md): on the
 * left one side as git holds it (ours or theirs, read-only by intent), on the right the file as it
 * is in the vault, editable. Ours, theirs and both write that side into the file; "Mark resolved"
 * saves an edit and stages the file, then the next conflict opens; with none left, Continue and
 * Abort finish or undo the merge or rebase.
 */
export class ConflictModal extends Modal {
	private panes: DiffPanes | null = null;
	/** The right pane's text once the user typed in it, not yet written. */
	private edited: string | null = null;
	private compareWith: "ours" | "theirs" = "theirs";
	/** Counts draws (and the close): a draw that awaited finishes only if no later one began. */
	private shown = 0;

	constructor(
		app: App,
		private readonly session: VcsSession,
		private path: string | null,
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("rb-vcs-conflict-modal");
		void this.show();
	}

	override onClose(): void {
		this.shown++;
		this.panes?.destroy();
		this.panes = null;
		this.contentEl.empty();
	}

	private conflicts(): string[] {
		const s = this.session.state;
		return s.kind === "ready" ? s.conflicts : [];
	}

	/** Draws the current file, or the finish step when none is left. */
	private async show(): Promise<void> {
		const shown = ++this.shown;
		const conflicts = this.conflicts();
		if (this.path === null || !conflicts.includes(this.path)) this.path = conflicts[0] ?? null;
		this.panes?.destroy();
		this.panes = null;
		this.edited = null;
		this.contentEl.empty();
		const repo = this.session.repository;
		const s = this.session.state;
		const operation = s.kind === "ready" ? s.snapshot.operation : null;
		if (!repo || this.path === null) return this.drawFinish(operation !== null);
		const path = this.path;
		this.titleEl.setText(t("vcsConflictTitle", { path, n: conflicts.indexOf(path) + 1, count: conflicts.length }));
		const sides = await conflictSides(repo, path);
		const work = (await repo.fileInWorktree(path).catch(() => null)) ?? "";
		if (!sides.ok || this.path !== path) return;
		// The first conflict view evaluates the merge view's code (a text module): not in the task that builds the panes.
		await nextTask();
		const Panes = diffPanesClass();
		await nextTask();
		// Meanwhile another show() (a click on "Compare with", "Mark resolved") or closing may have drawn or emptied the modal.
		if (this.path !== path || this.shown !== shown) return;
		// In a rebase git's "ours" is the remote being rebased onto and "theirs" the commit replayed.
		const rebase = operation === "rebase";
		const label = (side: "ours" | "theirs") => t(side === "ours" ? (rebase ? "vcsSideRemote" : "vcsSideYours") : rebase ? "vcsSideYours" : "vcsSideRemote");
		const bar = this.contentEl.createDiv({ cls: "rb-vcs-conflict-bar" });
		const pick = bar.createDiv({ cls: "rb-vcs-conflict-compare" });
		pick.createSpan({ text: t("vcsCompareWith") });
		for (const side of ["ours", "theirs"] as const) {
			const b = pick.createEl("button", { text: label(side), cls: side === this.compareWith ? "mod-cta" : "", attr: { "data-compare": side } });
			b.addEventListener("click", () => {
				this.compareWith = side;
				void this.show();
			});
		}
		const take = bar.createDiv({ cls: "rb-vcs-conflict-take" });
		const resolve = (kind: "ours" | "theirs" | "both", text: string) => {
			const b = take.createEl("button", { text, attr: { "data-resolve": kind } });
			b.addEventListener("click", () => void this.session.resolve(path, { kind }).then(() => this.refreshRight(path)));
		};
		resolve("ours", t("vcsTake", { side: label("ours") }));
		resolve("theirs", t("vcsTake", { side: label("theirs") }));
		resolve("both", t("vcsTakeBoth"));
		const left = (this.compareWith === "ours" ? sides.value.ours : sides.value.theirs) ?? "";
		const labels = this.contentEl.createDiv({ cls: "rb-vcs-diff-labels" });
		labels.createSpan({ text: label(this.compareWith) });
		labels.createSpan({ text: t("vcsResultInVault") });
		this.panes = new Panes(this.contentEl.createDiv({ cls: "rb-vcs-conflict-panes" }), { left, right: work, options: OPTIONS, editable: true });
		this.panes.onEdit = (pane, text) => {
			if (pane === "right") this.edited = text;
		};
		const done = this.contentEl.createDiv({ cls: "rb-vcs-conflict-actions" });
		const mark = done.createEl("button", { text: t("vcsMarkResolved"), cls: "mod-cta", attr: { "data-action": "mark-resolved" } });
		mark.addEventListener("click", () => void this.markResolved(path));
		this.finishButtons(done);
	}

	/** After ours/theirs/both: the right pane shows the file as written. */
	private async refreshRight(path: string): Promise<void> {
		const repo = this.session.repository;
		const panes = this.panes;
		if (!repo || !panes || this.path !== path) return;
		const sides = await conflictSides(repo, path);
		const work = (await repo.fileInWorktree(path).catch(() => null)) ?? "";
		// "Mark resolved" may have moved on to the next file meanwhile.
		if (this.panes !== panes) return;
		const left = sides.ok ? ((this.compareWith === "ours" ? sides.value.ours : sides.value.theirs) ?? "") : "";
		this.edited = null;
		panes.setTexts(left, work);
	}

	private async markResolved(path: string): Promise<void> {
		if (this.edited !== null) await this.session.resolve(path, { kind: "edit", text: this.edited });
		await this.session.markResolved(path);
		const s = this.session.state;
		if (s.kind === "ready" && s.problem) return;
		this.path = null;
		await this.show();
	}

	private drawFinish(inProgress: boolean): void {
		this.titleEl.setText(t(inProgress ? "vcsAllResolved" : "vcsNoConflicts"));
		if (inProgress) this.finishButtons(this.contentEl.createDiv({ cls: "rb-vcs-conflict-actions" }));
	}

	private finishButtons(el: HTMLElement): void {
		const next = async (run: () => Promise<void>) => {
			await run();
			const s = this.session.state;
			// A rebase may stop again at its next commit: show that conflict.
			if (s.kind === "ready" && s.conflicts.length && !s.problem) return this.show();
			this.close();
		};
		const cont = el.createEl("button", { text: t("vcsContinue"), attr: { "data-action": "continue" } });
		cont.addEventListener("click", () => void next(() => this.session.continueIntegration()));
		const abort = el.createEl("button", { text: t("vcsAbort"), cls: "mod-warning", attr: { "data-action": "abort" } });
		abort.addEventListener("click", () => void next(() => this.session.abortIntegration()));
	}
}
