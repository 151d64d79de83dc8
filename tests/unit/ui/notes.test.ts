import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App, Editor } from "obsidian";
import { noteBlocks } from "../../../src/ui/editor/note-blocks";
import { editorViewOf, Notes } from "../../../src/ui/notes";

const NOTE = "```http alias=a\nGET https://x.test\n```\n";
const notes = () => new Notes({} as App);

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
	});
}

describe("Notes", () => {
	it("reads the editor's note-blocks field when Obsidian's editor exposes its CodeMirror view", () => {
		const view = { state: EditorState.create({ doc: NOTE, extensions: [noteBlocks] }) };
		Object.setPrototypeOf(view, EditorView.prototype);
		const editor = { cm: view, getValue: () => "no blocks here" } as unknown as Editor;
		expect(editorViewOf(editor)).toBe(view);
		expect(notes().ofEditor(editor).map((b) => b.alias)).toEqual(["a"]);
	});

	it("falls back to the editor's text without one (the probe finds nothing)", () => {
		const editor = { getValue: () => NOTE } as unknown as Editor;
		expect(editorViewOf(editor)).toBeNull();
		expect(notes().ofEditor(editor).map((b) => b.alias)).toEqual(["a"]);
	});

	it("parses a text once while it is among the last few asked for", () => {
		const model = notes();
		const first = model.ofText(NOTE);
		expect(model.ofText(`${NOTE}`)).toBe(first);
		for (const other of ["a", "b", "c", "d"]) model.ofText(other);
		expect(model.ofText(NOTE)).not.toBe(first);
		expect(model.ofText(NOTE)).toEqual(first);
	});

	it("gives a changed text its own blocks, not the cached ones", () => {
		const model = notes();
		const first = model.ofText(NOTE);
		const edited = model.ofText(NOTE.replace("alias=a", "alias=b"));
		expect(edited).not.toBe(first);
		expect(edited.map((b) => b.alias)).toEqual(["b"]);
	});

	it("is the only caller of the note parser on the plugin side", () => {
		const root = join(__dirname, "../../..");
		const callers = filesUnder(join(root, "src/ui"))
			.filter((path) => /\bparseNote\(/.test(readFileSync(path, "utf8")))
			.map((path) => relative(root, path).split("\\").join("/"));
		// Everything else asks Notes, so a note open in an editor is never parsed twice.
		expect(callers.filter((path) => path !== "src/ui/notes.ts")).toEqual([]);
	});
});
