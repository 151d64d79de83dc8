import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type * as Merge from "@codemirror/merge";
import { Modal, type App } from "obsidian";
import { t } from "../strings";

/** A file against HEAD in the merge view, both sides read-only (editing happens in the note). */
export class DiffModal extends Modal {
	private view: Merge.MergeView | null = null;

	constructor(
		app: App,
		private readonly path: string,
		private readonly head: string | null,
		private readonly worktree: string | null,
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("rb-vcs-diff-modal");
		this.titleEl.setText(t("vcsDiffTitle", { path: this.path }));
		const sides = this.contentEl.createDiv({ cls: "rb-vcs-diff-labels" });
		sides.createSpan({ text: this.head === null ? `HEAD ${t("vcsNewFile")}` : "HEAD" });
		sides.createSpan({ text: this.worktree === null ? t("vcsDeletedFile") : this.path });
		if ([this.head, this.worktree].some((s) => s !== null && s.includes("\0"))) {
			this.contentEl.createEl("p", { text: t("vcsDiffBinary") });
			return;
		}
		const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping];
		// Required here: main.js carries the merge view as a text module, compiled on its first use (docs/architecture.md).
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const { MergeView } = require("@codemirror/merge") as typeof Merge;
		this.view = new MergeView({
			a: { doc: this.head ?? "", extensions: readOnly },
			b: { doc: this.worktree ?? "", extensions: readOnly },
			parent: this.contentEl.createDiv({ cls: "rb-vcs-diff" }),
			collapseUnchanged: { margin: 3, minSize: 6 },
			gutter: true,
		});
	}

	override onClose(): void {
		this.view?.destroy();
		this.view = null;
		this.contentEl.empty();
	}
}
