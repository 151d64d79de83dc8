/** @jest-environment jsdom */
import { EditorState } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { textdiffOptions, type TextdiffOptions } from "../../../../src/blocks";
import { DiffPanes, type DiffPanesConfig, type Pane } from "../../../../src/ui/diff/diff-panes";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// jsdom lays nothing out; CodeMirror measures text ranges, so they get an empty box.
Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });

const options = (o: Partial<TextdiffOptions> = {}): TextdiffOptions => ({ ...textdiffOptions({}), ...o });

function mount(config: Partial<DiffPanesConfig> = {}) {
	document.body.empty();
	const panes = new DiffPanes(document.body, { left: "a\nb\nc\n", right: "a\nB\nc\n", options: options(), editable: true, ...config });
	const edits: Array<[Pane, string]> = [];
	panes.onEdit = (pane, text) => edits.push([pane, text]);
	const count = () => panes.el.querySelector(".rb-diff-count")?.textContent;
	const docs = () => panes.views().map((v) => v.state.doc.toString());
	const notes = () => [...panes.el.querySelectorAll(".rb-diff-notes > div")].map((n) => n.textContent);
	/** Types into a pane as a user does: a transaction with no annotation of ours. */
	const type = (view: EditorView, at: number, text: string) => view.dispatch({ changes: { from: at, insert: text }, userEvent: "input.type" });
	return { panes, edits, count, docs, notes, type };
}

afterEach(() => jest.useRealTimers());

describe("DiffPanes", () => {
	it("shows the two texts side by side and counts their changes", () => {
		const m = mount();
		expect(m.docs()).toEqual(["a\nb\nc\n", "a\nB\nc\n"]);
		expect(m.count()).toBe("1 change, +1 \u22121 lines");
		expect(m.panes.el.dataset.changes).toBe("1");
		expect(m.panes.views().map((v) => v.contentDOM.getAttribute("aria-label"))).toEqual(["Left pane", "Right pane"]);
	});

	it("says when there are no changes", () => {
		const m = mount({ right: "a\nb\nc\n" });
		expect(m.count()).toBe("No changes");
		expect(m.panes.el.dataset.changes).toBe("0");
	});

	it("holds a note's CRLF text with \\n breaks, so only real differences count", () => {
		const m = mount({ left: "a\r\nb\r\n", right: "a\nb\n" });
		expect(m.docs()).toEqual(["a\nb\n", "a\nb\n"]);
		expect(m.count()).toBe("No changes");
	});

	it("reports a user's edit of a pane with its whole text, and counts again", () => {
		const m = mount();
		m.type(m.panes.views()[1], 0, "z\n");
		expect(m.edits).toEqual([["right", "z\na\nB\nc\n"]]);
		expect(m.count()).toBe("2 changes, +2 \u22121 lines");
	});

	it("follows texts changed outside without reporting them as edits", () => {
		const m = mount();
		m.panes.setTexts("a\nb\nc\n", "a\nb\nc\n");
		expect(m.docs()).toEqual(["a\nb\nc\n", "a\nb\nc\n"]);
		// Side by side, the merge view adds its own transaction (the new chunks) to the pane's update.
		expect(m.edits).toEqual([]);
		expect(m.panes.editedWithin(60_000)).toBe(false);
		expect(m.count()).toBe("No changes");
	});

	it("keeps both panes read-only when not editable", () => {
		const m = mount({ editable: false });
		expect(m.panes.views().map((v) => v.state.facet(EditorState.readOnly))).toEqual([true, true]);
		expect(mount().panes.views().map((v) => v.state.facet(EditorState.readOnly))).toEqual([false, false]);
	});

	it("compares normalised JSON read-only, saying so", () => {
		const m = mount({ left: '{"b":1,"a":2}', right: '{"a":2,"b":1}', options: options({ normalize: "json" }) });
		expect(m.count()).toBe("No changes");
		expect(m.notes()).toEqual(["Compared as normalised JSON (sorted keys, 2-space indent); edit the note's text to change it."]);
		expect(m.panes.views().every((v) => v.state.facet(EditorState.readOnly))).toBe(true);
	});

	it("says which pane is not JSON when asked to normalise, and compares it as written", () => {
		const m = mount({ left: "not json", right: '{"a":1}', options: options({ normalize: "json" }) });
		// The other pane is still normalised, so both are said.
		expect(m.notes()).toEqual(["Compared as normalised JSON (sorted keys, 2-space indent); edit the note's text to change it.", expect.stringMatching(/^Left pane is not JSON, compared as written: .+/)]);
		expect(m.docs()).toEqual(["not json", '{\n  "a": 1\n}']);
	});

	it("shows one editor with the right text in unified mode", () => {
		const m = mount({ options: options({ mode: "unified" }) });
		expect(m.docs()).toEqual(["a\nB\nc\n"]);
		expect(m.count()).toBe("1 change, +1 \u22121 lines");
		m.panes.setTexts("a\nb\nc\n", "a\nB\nc\nd\n");
		expect(m.docs()).toEqual(["a\nB\nc\nd\n"]);
		expect(m.edits).toEqual([]);
		expect(m.count()).toBe("2 changes, +2 \u22121 lines");
	});

	it("compares long texts in later tasks, showing that it is comparing, with the latest texts", () => {
		jest.useFakeTimers();
		const long = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n");
		const m = mount({ left: long, right: long });
		expect(m.count()).toBe("Comparing…");
		expect(m.panes.views()).toEqual([]);
		m.panes.setTexts(long, `${long}\nmore`);
		jest.runAllTimers();
		expect(m.docs()).toEqual([long, `${long}\nmore`]);
		expect(m.count()).toBe("1 change, +1 \u22120 lines");
	});

	it("remembers a recent edit, for a view rendered after the write to take the panes over", () => {
		jest.useFakeTimers({ now: 1_000_000 });
		const m = mount();
		expect(m.panes.editedWithin(2000)).toBe(false);
		m.type(m.panes.views()[0], 0, "x");
		expect(m.panes.editedWithin(2000)).toBe(true);
		jest.setSystemTime(1_000_000 + 2500);
		expect(m.panes.editedWithin(2000)).toBe(false);
	});

	it("moves to the next change from its toolbar", () => {
		const m = mount({ left: "a\nb\nc\nd\ne\nf\ng\nh\n", right: "a\nB\nc\nd\ne\nf\ng\nH\n" });
		const right = m.panes.views()[1];
		const next = m.panes.el.querySelector<HTMLElement>('[aria-label="Next change"]') as HTMLElement;
		next.click();
		expect(right.state.doc.lineAt(right.state.selection.main.head).number).toBe(2);
		next.click();
		expect(right.state.doc.lineAt(right.state.selection.main.head).number).toBe(8);
	});

	it("leaves the page when destroyed", () => {
		const m = mount();
		m.panes.destroy();
		expect(document.querySelector(".rb-diff")).toBeNull();
		expect(m.panes.views()).toEqual([]);
	});
});
