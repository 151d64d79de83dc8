/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { EditorState } from "@codemirror/state";
import { EditorView, runScopeHandlers } from "@codemirror/view";
import type { ActionTarget } from "../../../../src/ui/action-target";
import { blockKeymap } from "../../../../src/ui/editor/block-keymap";

const NOTE = ["intro", "```http", "GET http://127.0.0.1/a", "```", "", "```http", "@base = http://127.0.0.1", "```", "", "```js", "1", "```"].join("\n");
const lineStart = (n: number) => NOTE.split("\n").slice(0, n).join("\n").length + (n > 0 ? 1 : 0);

/** A real editor with the block keymap; `perform` records each call and answers `acts`. */
function editor(at: number, acts = true) {
	const performed: string[] = [];
	const extension = blockKeymap(
		[
			{ action: "block.run", key: "Mod-Enter" },
			{ action: "block.cancel", key: "Mod-." },
		],
		(action, target: ActionTarget) => (performed.push(`${action}@${target.line}`), acts),
	);
	const view = new EditorView({ state: EditorState.create({ doc: NOTE, selection: { anchor: lineStart(at) }, extensions: [extension] }), parent: document.body });
	const press = (key: string) => {
		const event = new KeyboardEvent("keydown", { key, ctrlKey: true, bubbles: true, cancelable: true });
		return runScopeHandlers(view, event, "editor");
	};
	return { view, performed, press };
}

describe("blockKeymap", () => {
	it("runs the bound action on the block under the cursor and takes the key", () => {
		const e = editor(2);
		expect(e.press("Enter")).toBe(true);
		expect(e.press(".")).toBe(true);
		expect(e.performed).toEqual(["block.run@2", "block.cancel@2"]);
		e.view.destroy();
	});

	it.each([
		["outside any block", 0],
		["in a block of only variable lines (nothing to send)", 6],
		["in a fence of a language that does not run", 10],
	])("leaves the key to Obsidian %s", (_where, line) => {
		const e = editor(line);
		expect(e.press("Enter")).toBe(false);
		expect(e.performed).toEqual([]);
		e.view.destroy();
	});

	it("leaves the key to Obsidian when the action did not act", () => {
		const e = editor(2, false);
		expect(e.press("Enter")).toBe(false);
		expect(e.performed).toEqual(["block.run@2"]);
		e.view.destroy();
	});

	it("follows the note as it is edited: a block typed in place of the intro takes the key", () => {
		const e = editor(0);
		e.view.dispatch({ changes: { from: 0, to: "intro".length, insert: "```http\nGET http://127.0.0.1/b\n```\n" }, selection: { anchor: 10 } });
		expect(e.press("Enter")).toBe(true);
		expect(e.performed).toEqual(["block.run@1"]);
		e.view.destroy();
	});

	it("answers only the chords it was given", () => {
		const e = editor(2);
		expect(e.press("k")).toBe(false);
		expect(e.performed).toEqual([]);
		e.view.destroy();
	});
});
