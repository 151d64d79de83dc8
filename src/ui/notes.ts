import { EditorView } from "@codemirror/view";
import { MarkdownView, TFile, type App, type Editor } from "obsidian";
import { applyChange, createNoteCache, type NoteBlock, type TextChange } from "../blocks";
import { blocksOf } from "./editor/note-blocks";

/**
 * Obsidian's editor keeps its CodeMirror view as `cm`, which obsidian.d.ts does not declare:
 * a probe, null where absent (the callers fall back to the note's text).
 */
export function editorViewOf(editor: Editor): EditorView | null {
	const cm = (editor as unknown as { cm?: unknown }).cm;
	return cm instanceof EditorView ? cm : null;
}

/**
 * The plugin's one way to a note, its text and its blocks. Reads and edits go the way the user
 * would: through the open editor when there is one (an edit is one undoable transaction), else
 * atomically through the vault. Blocks come from the editor's `noteBlocks` field when the note is
 * open, else from a parse cache keyed by the text (Reading view, closed notes): the only parser
 * call on the plugin side.
 */
export class Notes {
	private readonly cache = createNoteCache();

	constructor(private readonly app: App) {}

	/** The blocks of a note's text, parsed once while the text is among the last few asked for. */
	ofText(text: string): readonly NoteBlock[] {
		return this.cache.blocksOf(text);
	}

	ofEditor(editor: Editor): readonly NoteBlock[] {
		const view = editorViewOf(editor);
		return view ? blocksOf(view.state) : this.ofText(editor.getValue());
	}

	editorFor(path: string): Editor | null {
		for (const leaf of this.app.workspace.getLeavesOfType("markdown")) {
			const view = leaf.view;
			if (view instanceof MarkdownView && view.file?.path === path) return view.editor;
		}
		return null;
	}

	/** The note's blocks now when an editor has it (synchronous: an export keeps the click's user gesture), else null. */
	blocksNow(path: string): readonly NoteBlock[] | null {
		const editor = this.editorFor(path);
		return editor ? this.ofEditor(editor) : null;
	}

	async text(path: string): Promise<string> {
		const editor = this.editorFor(path);
		if (editor) return editor.getValue();
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? this.app.vault.cachedRead(file) : "";
	}

	async blocks(path: string): Promise<readonly NoteBlock[]> {
		return this.blocksNow(path) ?? this.ofText(await this.text(path));
	}

	/** Computes the change from the current text and applies it; nothing happens when it returns null. */
	async edit(path: string, compute: (text: string) => TextChange | null): Promise<void> {
		await this.editAll(path, (text) => {
			const change = compute(text);
			return change ? [change] : [];
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
