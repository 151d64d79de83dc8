import { EditorView } from "@codemirror/view";
import type { Editor } from "obsidian";
import { createNoteCache, type NoteBlock } from "../blocks";
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
 * The one place the plugin gets a note's blocks: from the editor's `noteBlocks` field when the
 * note is open in an editor, else from a cache keyed by the text (Reading view, closed notes).
 */
export class NoteModel {
	private readonly cache = createNoteCache();

	ofText(text: string): readonly NoteBlock[] {
		return this.cache.blocksOf(text);
	}

	ofEditor(editor: Editor): readonly NoteBlock[] {
		const view = editorViewOf(editor);
		return view ? blocksOf(view.state) : this.ofText(editor.getValue());
	}
}
