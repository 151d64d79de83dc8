import { EditorSelection, EditorState } from "@codemirror/state";
import fc from "fast-check";
import { parseNote } from "../../../../src/blocks";
import { blocksOf, noteBlocks } from "../../../../src/ui/editor/note-blocks";

const NOTE = "# Note\n\n```http alias=a\nGET https://x.test/a\n```\n\ntext\n\n```http alias=b\nGET {{a.response.body.$.id}}\n```\n";
const stateOf = (doc: string) => EditorState.create({ doc, extensions: [noteBlocks] });

describe("the note-blocks field", () => {
	it("moves a block down when a line is inserted above it", () => {
		const state = EditorState.create({ doc: "```http\nGET x\n```", extensions: [noteBlocks] });
		expect(blocksOf(state.update({ changes: { from: 0, insert: "\n" } }).state)[0].fence.startLine).toBe(1);
	});

	it("keeps the same blocks when only the selection moves", () => {
		const state = stateOf(NOTE);
		const moved = state.update({ selection: EditorSelection.cursor(5) }).state;
		expect(blocksOf(moved)).toBe(blocksOf(state));
	});

	it("reads several changes of one transaction as one edit", () => {
		const state = stateOf(NOTE);
		const changes = [
			{ from: NOTE.indexOf("alias=a"), to: NOTE.indexOf("alias=a") + 7, insert: "alias=b" },
			{ from: NOTE.indexOf("text"), insert: "```js\n" },
		];
		const next = state.update({ changes }).state;
		expect(blocksOf(next)).toEqual(parseNote(next.doc.toString()));
	});

	it("parses on demand in a state without the field", () => {
		expect(blocksOf(EditorState.create({ doc: NOTE })).map((b) => b.alias)).toEqual(["a", "b"]);
	});

	it("equals a full parse after any sequence of typed edits", () => {
		const piece = fc.constantFrom("```http alias=a\n", "```\n", "~~~\n", "> ", "GET /x\n", "{{a.response.status}}", "\n", "x", "```js\n");
		const edit = fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.array(piece, { maxLength: 3 }).map((p) => p.join("")));
		fc.assert(
			fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits) => {
				let state = stateOf(NOTE);
				for (const [at, length, insert] of edits) {
					const from = at % (state.doc.length + 1);
					state = state.update({ changes: { from, to: Math.min(state.doc.length, from + length), insert } }).state;
					expect(blocksOf(state)).toEqual(parseNote(state.doc.toString()));
				}
			}),
			{ numRuns: 300 },
		);
	});
});
