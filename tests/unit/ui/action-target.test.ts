/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { EditorSelection, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App, Editor as ObsidianEditor } from "obsidian";
import { editorTarget, runnableBlockAt, viewTarget, type ActionTarget } from "../../../src/ui/action-target";
import { noteBlocks } from "../../../src/ui/editor/note-blocks";
import { Notes } from "../../../src/ui/notes";
import { Editor, editorInfoField, installDomHelpers, TFile } from "../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

// Lines (0-based): 0 text, 2–4 users, 6–8 file variables only (read by the blocks below, never run), 10–12 the pin of users.
const NOTE = [
	"# API",
	"",
	"```http alias=users",
	"GET http://127.0.0.1/users",
	"```",
	"",
	"```http",
	"@host = 127.0.0.1",
	"```",
	"",
	"```http-response alias=users",
	"HTTP/1.1 200 OK",
	"```",
	"",
].join("\n");

const views: EditorView[] = [];
afterEach(() => views.splice(0).forEach((v) => v.destroy()));

function editorOn(line: number, path: string | null = "api/users.md"): EditorView {
	const state = EditorState.create({ doc: NOTE, extensions: [noteBlocks, editorInfoField.init(() => ({ file: path === null ? null : new TFile(path) }))] });
	const view = new EditorView({ state: state.update({ selection: EditorSelection.cursor(Math.min(state.doc.line(line + 1).from + 2, state.doc.line(line + 1).to)) }).state, parent: document.body });
	views.push(view);
	return view;
}

const cursorLine = (view: EditorView) => view.state.doc.lineAt(view.state.selection.main.head).number - 1;

describe("the target of a CodeMirror view (block chords, vim)", () => {
	it("is the view's note: its file, its blocks from the note-blocks field and the cursor's 0-based line", () => {
		const target = viewTarget(editorOn(3));
		expect(target.path).toBe("api/users.md");
		expect(target.note.map((b) => [b.kind, b.fence.startLine])).toEqual([
			["http", 2],
			["http", 6],
			["http-response", 10],
		]);
		expect(target.line).toBe(3);
	});

	it("has an empty path when the editor shows no file", () => {
		expect(viewTarget(editorOn(0, null)).path).toBe("");
	});

	it("moves the view's cursor to the start of a line", () => {
		const view = editorOn(0);
		viewTarget(view).moveTo(7);
		expect(cursorLine(view)).toBe(7);
		expect(view.state.selection.main.head).toBe(view.state.doc.line(8).from);
	});
});

describe("the target of an Obsidian editor (palette, global chords)", () => {
	it("reads the note through Notes, the cursor from the editor, and moves the editor's cursor", () => {
		const view = editorOn(11);
		const target = editorTarget(new Editor(view) as unknown as ObsidianEditor, "given/path.md", new Notes({} as App));
		expect(target.path).toBe("given/path.md");
		expect(target.line).toBe(11);
		expect(target.note).toHaveLength(3);
		target.moveTo(2);
		expect(cursorLine(view)).toBe(2);
		expect(view.state.selection.main.head).toBe(view.state.doc.line(3).from);
	});
});

describe("the block an action acts on", () => {
	const at = (line: number): ActionTarget => viewTarget(editorOn(line));

	it.each([
		["the fence line of a block", 2, 2],
		["the request inside it", 3, 2],
		["its closing fence", 4, 2],
	])("is the block Run runs when the cursor is on %s", (_, line, start) => expect(runnableBlockAt(at(line))?.fence.startLine).toBe(start));

	it.each([
		["outside every block", 0],
		["between blocks", 5],
		["in a fence of variables only", 7],
		["in a pinned response (never run)", 11],
	])("is none %s", (_, line) => expect(runnableBlockAt(at(line))).toBeUndefined());
});
