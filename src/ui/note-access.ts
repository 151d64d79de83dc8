import { MarkdownView, TFile, type App, type Editor } from "obsidian";
import { applyChange, type TextChange } from "../blocks";

/**
 * Reads and edits notes the way the user would: through the open editor when there is
 * one (so an edit is one undoable transaction), otherwise atomically through the vault.
 */
export class NoteAccess {
	constructor(private readonly app: App) {}

	editorFor(path: string): Editor | null {
		for (const leaf of this.app.workspace.getLeavesOfType("markdown")) {
			const view = leaf.view;
			if (view instanceof MarkdownView && view.file?.path === path) return view.editor;
		}
		return null;
	}

	/** The note's text now when an editor has it (synchronous: an export keeps the click's user gesture), else null. */
	textNow(path: string): string | null {
		return this.editorFor(path)?.getValue() ?? null;
	}

	async read(path: string): Promise<string> {
		const editor = this.editorFor(path);
		if (editor) return editor.getValue();
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? this.app.vault.cachedRead(file) : "";
	}

	/** Computes the change from the current text and applies it; nothing happens when it returns null. */
	async edit(path: string, compute: (text: string) => TextChange | null): Promise<void> {
		const editor = this.editorFor(path);
		if (editor) {
			const change = compute(editor.getValue());
			if (!change) return;
			editor.transaction({ changes: [{ from: editor.offsetToPos(change.from), to: editor.offsetToPos(change.to), text: change.insert }] });
			return;
		}
		const file = this.app.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) return;
		await this.app.vault.process(file, (text) => {
			const change = compute(text);
			return change ? applyChange(text, change) : text;
		});
	}

	/** Like edit, for changes that belong together (a textdiff pane and its fence): one transaction, one undo step. */
	async editAll(path: string, compute: (text: string) => readonly TextChange[]): Promise<void> {
		const editor = this.editorFor(path);
		if (editor) {
			const changes = compute(editor.getValue());
			if (changes.length === 0) return;
			editor.transaction({ changes: changes.map((c) => ({ from: editor.offsetToPos(c.from), to: editor.offsetToPos(c.to), text: c.insert })) });
			return;
		}
		const file = this.app.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) return;
		await this.app.vault.process(file, (text) => [...compute(text)].sort((a, b) => b.from - a.from).reduce(applyChange, text));
	}
}
