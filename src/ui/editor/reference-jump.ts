import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { blockAtLine, type NoteBlock } from "../../blocks";
import { blocksOf, noteBlocks } from "./note-blocks";

/** The fence of the block a `{{alias...}}` reference at `offset` (on 0-based `line`) names, as a document offset. */
export function aliasTarget(note: readonly NoteBlock[], line: number, offset: number): number | null {
	const block = blockAtLine(note, line);
	const ref = block?.references.find((r) => r.kind === "alias" && r.start <= offset && offset <= r.end);
	if (!ref) return null;
	const alias = ref.inner.split(".")[0];
	const target = note.find((b) => b.alias === alias);
	return target ? target.fence.from : null;
}

/** Mod+Click on a reference moves the cursor to its alias's fence line and scrolls there. */
export function referenceJump(isMac: () => boolean): Extension {
	return [
		noteBlocks,
		EditorView.domEventHandlers({
			mousedown(event, view) {
				if (!(isMac() ? event.metaKey : event.ctrlKey)) return false;
				const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
				if (pos === null) return false;
				const target = aliasTarget(blocksOf(view.state), view.state.doc.lineAt(pos).number - 1, pos);
				if (target === null) return false;
				event.preventDefault();
				view.dispatch({ selection: { anchor: target }, scrollIntoView: true });
				return true;
			},
		}),
	];
}
