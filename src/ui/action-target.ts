import type { EditorView } from "@codemirror/view";
import { editorInfoField, type Editor } from "obsidian";
import { blockAtLine, type NoteBlock } from "../blocks";
import { isRunnable } from "../runner/engine";
import { blocksOf } from "./editor/note-blocks";
import type { Notes } from "./notes";

/** Where an action acts: a note open in an editor, its blocks and the cursor. */
export interface ActionTarget {
	/** The note's vault path ("" when the editor shows no file). */
	path: string;
	note: readonly NoteBlock[];
	/** The cursor's 0-based line. */
	line: number;
	/** Moves the cursor to a 0-based line and scrolls it into view. */
	moveTo(line: number): void;
}

/** The target of a CodeMirror view (block chords, vim ex commands): blocks from its note-blocks field. */
export function viewTarget(view: EditorView): ActionTarget {
	const state = view.state;
	return {
		path: state.field(editorInfoField, false)?.file?.path ?? "",
		note: blocksOf(state),
		line: state.doc.lineAt(state.selection.main.head).number - 1,
		moveTo: (line) => view.dispatch({ selection: { anchor: view.state.doc.line(line + 1).from }, scrollIntoView: true }),
	};
}

/** The target of an Obsidian editor (palette commands, global chords). */
export function editorTarget(editor: Editor, path: string, notes: Notes): ActionTarget {
	return {
		path,
		note: notes.ofEditor(editor),
		line: editor.getCursor().line,
		moveTo: (line) => {
			editor.setCursor({ line, ch: 0 });
			editor.scrollIntoView({ from: { line, ch: 0 }, to: { line, ch: 0 } }, true);
		},
	};
}

/** The block at the target's cursor, when Run runs it (`engine.isRunnable`, as the CLI asks): block actions act only there. */
export function runnableBlockAt(target: ActionTarget): NoteBlock | undefined {
	const block = blockAtLine(target.note, target.line);
	return block && isRunnable(block) ? block : undefined;
}
