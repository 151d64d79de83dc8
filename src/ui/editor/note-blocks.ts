import { StateField, type EditorState, type Text, type Transaction } from "@codemirror/state";
import { parseNoteLines, reparseNote, stringLines, type LineSource, type NoteBlock, type NoteEdit, type NoteParse } from "../../blocks";

/** An editor document's lines, read in place. CodeMirror keeps lines without breaks: "\n" between them. */
function docLines(doc: Text): LineSource {
	return {
		count: doc.lines,
		line: (i) => {
			const l = doc.line(i + 1);
			return { text: l.text, from: l.from, to: l.to, eol: i + 1 < doc.lines ? "\n" : "" };
		},
	};
}

/** The range a transaction's changes cover, in the old and the new document. */
function editOf(tr: Transaction): NoteEdit {
	let from = -1;
	let toA = 0;
	let toB = 0;
	tr.changes.iterChangedRanges((fromA, endA, _fromB, endB) => {
		if (from < 0) from = fromA; // the first change starts at the same offset in both documents
		toA = endA;
		toB = endB;
	});
	const before = tr.startState.doc;
	const after = tr.state.doc;
	return { from, fromLine: before.lineAt(from).number - 1, toA, toLineA: before.lineAt(toA).number - 1, toB, toLineB: after.lineAt(toB).number - 1 };
}

/**
 * The note's blocks, parsed once per document change and read by every editor feature (widgets,
 * block keys, reference jumps, commands, suggestions). A change reparses only the fences it
 * touches (`reparseNote`); selection moves cost nothing.
 */
export const noteBlocks = StateField.define<NoteParse>({
	create: (state) => parseNoteLines(stringLines(state.doc.toString())),
	update: (parse, tr) => (tr.docChanged ? reparseNote(parse, docLines(tr.state.doc), editOf(tr)) : parse),
});

/** The blocks of an editor's note: the field's when it is installed, else parsed now. */
export function blocksOf(state: EditorState): readonly NoteBlock[] {
	return (state.field(noteBlocks, false) ?? parseNoteLines(stringLines(state.doc.toString()))).blocks;
}
