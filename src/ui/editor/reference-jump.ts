import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { blockAtLine, parseNoteAliasPath, type NoteBlock } from "../../blocks";
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

/** The other note's link and alias a `{{[[Note]]#alias…}}` at `offset` (on 0-based `line`) names. */
export function noteAliasAt(note: readonly NoteBlock[], line: number, offset: number): { link: string; alias: string } | null {
	const ref = blockAtLine(note, line)?.references.find((r) => r.kind === "note" && r.start <= offset && offset <= r.end);
	const parsed = ref ? parseNoteAliasPath(ref.inner) : null;
	return parsed ? { link: parsed.link, alias: parsed.path.alias } : null;
}

/**
 * Mod+Click on a reference moves the cursor to its alias's fence line and scrolls there; on a
 * `{{[[Note]]#alias…}}`, `openNote` opens that note at the block.
 */
export function referenceJump(isMac: () => boolean, openNote?: (link: string, alias: string) => void): Extension {
	return [
		noteBlocks,
		EditorView.domEventHandlers({
			mousedown(event, view) {
				if (!(isMac() ? event.metaKey : event.ctrlKey)) return false;
				const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
				if (pos === null) return false;
				const line = view.state.doc.lineAt(pos).number - 1;
				const other = openNote ? noteAliasAt(blocksOf(view.state), line, pos) : null;
				if (other && openNote) {
					event.preventDefault();
					openNote(other.link, other.alias);
					return true;
				}
				const target = aliasTarget(blocksOf(view.state), line, pos);
				if (target === null) return false;
				event.preventDefault();
				view.dispatch({ selection: { anchor: target }, scrollIntoView: true });
				return true;
			},
		}),
	];
}
