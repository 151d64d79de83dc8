import { Prec, type Extension } from "@codemirror/state";
import { keymap, type EditorView } from "@codemirror/view";
import { editorInfoField } from "obsidian";
import { blockAtLine, type NoteBlock } from "../../blocks";
import { blocksOf, noteBlocks } from "./note-blocks";

/** Block actions bound in the editor (DESIGN.md §6); global ones are Obsidian commands. */
export type BlockAction = "block.run" | "block.run_all" | "block.cancel" | "block.force_run" | "block.copy_curl" | "block.explain";

/** The http block under the cursor, with the note it belongs to. */
export function blockAtCursor(view: EditorView): { filePath: string; note: readonly NoteBlock[]; block: NoteBlock } | null {
	const state = view.state;
	const line = state.doc.lineAt(state.selection.main.head).number - 1;
	const note = blocksOf(state);
	const block = blockAtLine(note, line);
	if (!block || block.kind !== "http") return null;
	return { filePath: state.field(editorInfoField, false)?.file?.path ?? "", note, block };
}

/**
 * A highest-precedence keymap that acts only when the cursor is inside a runnable block;
 * anywhere else the keys fall through to Obsidian untouched.
 */
export function blockKeymap(bindings: ReadonlyArray<{ action: BlockAction; key: string }>, handle: (action: BlockAction, view: EditorView) => boolean): Extension {
	return [
		noteBlocks,
		Prec.highest(
			keymap.of(
				bindings.map(({ action, key }) => ({
					key,
					run: (view: EditorView) => (blockAtCursor(view) ? handle(action, view) : false),
					preventDefault: false,
				})),
			),
		),
	];
}
