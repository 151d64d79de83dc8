import { Modal, type App } from "obsidian";
import { noteHistory, versionText, type NoteVersion, type VcsSession } from "../../vcs";
import type { DiffPanes } from "../diff/diff-panes";
import { diffPanesClass } from "../diff/lazy-diff";
import { notify } from "../notify";
import { t } from "../strings";

const OPTIONS = { mode: "split", ignoreWhitespace: false, ignoreCase: false, language: null, normalize: null } as const;

/**
 * "Show history of this note" (docs/vcs.md): the commits that touched the note, renames followed;
 * choosing one opens that version against the current text in the merge view, with "Restore this
 * version", which writes it as a new change (never a reset).
 */
export class HistoryModal extends Modal {
	private panes: DiffPanes | null = null;

	constructor(
		app: App,
		private readonly session: VcsSession,
		/** The note's repository-relative path now. */
		private readonly path: string,
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("rb-vcs-history-modal");
		void this.showList();
	}

	override onClose(): void {
		this.panes?.destroy();
		this.panes = null;
		this.contentEl.empty();
	}

	private async showList(): Promise<void> {
		this.panes?.destroy();
		this.panes = null;
		this.contentEl.empty();
		this.titleEl.setText(t("vcsNoteHistoryTitle", { path: this.path }));
		const repo = this.session.repository;
		if (!repo) return;
		const history = await noteHistory(repo, this.path);
		if (!history.ok) {
			this.contentEl.createEl("p", { cls: "rb-vcs-problem", text: `${history.failure.message}: ${history.failure.detail}` });
			return;
		}
		if (history.value.length === 0) this.contentEl.createEl("p", { cls: "rb-vcs-empty", text: t("vcsNoteHistoryEmpty") });
		const list = this.contentEl.createDiv({ cls: "rb-vcs-history" });
		for (const v of history.value) {
			const row = list.createEl("button", { cls: "rb-vcs-history-row", attr: { "data-hash": v.commit.hash, title: `${v.commit.hash}\n${v.commit.author}` } });
			row.createEl("code", { text: v.commit.shortHash });
			row.createSpan({ text: ` ${new Date(v.commit.time * 1000).toLocaleString()} · ${v.commit.subject}` });
			if (v.renamedFrom) row.createSpan({ cls: "rb-vcs-renamed", text: ` (${t("vcsRenamedFrom", { path: v.renamedFrom })})` });
			row.addEventListener("click", () => void this.showVersion(v));
		}
	}

	/** The version (left) against the note as it is now (right), both read-only. */
	private async showVersion(v: NoteVersion): Promise<void> {
		const repo = this.session.repository;
		if (!repo) return;
		const [old, now] = await Promise.all([versionText(repo, v), repo.fileInWorktree(this.path).catch(() => null)]);
		this.contentEl.empty();
		this.titleEl.setText(t("vcsVersionTitle", { path: this.path, hash: v.commit.shortHash }));
		const bar = this.contentEl.createDiv({ cls: "rb-vcs-conflict-bar" });
		const back = bar.createEl("button", { text: "←", attr: { "aria-label": t("vcsNoteHistoryTitle", { path: this.path }) } });
		back.addEventListener("click", () => void this.showList());
		const restore = bar.createEl("button", { text: t("vcsRestoreVersion"), cls: "mod-cta", attr: { "data-action": "restore-version" } });
		restore.addEventListener("click", () => void this.restore(v));
		// The merge view's code is required here, by the first version shown, not when the vcs views load.
		this.panes = new (diffPanesClass())(this.contentEl.createDiv({ cls: "rb-vcs-conflict-panes" }), { left: old.ok ? (old.value ?? "") : "", right: now ?? "", options: OPTIONS, editable: false });
	}

	private async restore(v: NoteVersion): Promise<void> {
		await this.session.restoreVersion(v, this.path);
		const s = this.session.state;
		if (s.kind === "ready" && s.problem) notify(`${s.problem.message}: ${s.problem.detail}`);
		else notify(t("vcsRestored", { path: this.path, hash: v.commit.shortHash }));
		this.close();
	}
}
