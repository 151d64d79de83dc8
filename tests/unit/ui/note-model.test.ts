import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { Editor } from "obsidian";
import { noteBlocks } from "../../../src/ui/editor/note-blocks";
import { editorViewOf, NoteModel } from "../../../src/ui/note-model";

const NOTE = "```http alias=a\nGET https://x.test\n```\n";

describe("NoteModel", () => {
	it("reads the editor's note-blocks field when Obsidian's editor exposes its CodeMirror view", () => {
		const view = { state: EditorState.create({ doc: NOTE, extensions: [noteBlocks] }) };
		Object.setPrototypeOf(view, EditorView.prototype);
		const editor = { cm: view, getValue: () => "no blocks here" } as unknown as Editor;
		expect(editorViewOf(editor)).toBe(view);
		expect(new NoteModel().ofEditor(editor).map((b) => b.alias)).toEqual(["a"]);
	});

	it("falls back to the editor's text without one (the probe finds nothing)", () => {
		const editor = { getValue: () => NOTE } as unknown as Editor;
		expect(editorViewOf(editor)).toBeNull();
		expect(new NoteModel().ofEditor(editor).map((b) => b.alias)).toEqual(["a"]);
	});

	it("parses a text once while it is among the last few asked for", () => {
		const model = new NoteModel();
		const first = model.ofText(NOTE);
		expect(model.ofText(`${NOTE}`)).toBe(first);
		for (const other of ["a", "b", "c", "d"]) model.ofText(other);
		expect(model.ofText(NOTE)).not.toBe(first);
		expect(model.ofText(NOTE)).toEqual(first);
	});
});
