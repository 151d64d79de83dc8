/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { EditorView } from "@codemirror/view";
import type { MarkdownPostProcessorContext } from "obsidian";
import { applyChange, blockKey, textdiffFence, type NoteBlock, type TextdiffBlock } from "../../../../src/blocks";
import type { BlockHost } from "../../../../src/ui/block-host";
import { TextdiffBlockView, TextdiffEditorPanel, textdiffPaneChanges } from "../../../../src/ui/diff/textdiff-block-view";
import { diffPanesClass } from "../../../../src/ui/diff/lazy-diff";
import { Notes } from "../../../../src/ui/notes";
import { memoryVault } from "../../../support/memory-vault";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });

let notesMade = 0;
const NOTE = `# Diff\n\n${textdiffFence({ left: "one\ntwo\n", right: "one\nTWO\n" }, "alias=d")}`;

/** Each spec its own note: the view keeps panes per note and block across renders (module state). */
function setUp(note = NOTE) {
	const PATH = `diff-${++notesMade}.md`;
	const vault = memoryVault({ [PATH]: note });
	const notes = new Notes(vault.app);
	const host = { app: vault.app, notes } as unknown as BlockHost;
	const block = notes.ofText(note).find((b) => b.kind === "textdiff") as TextdiffBlock & NoteBlock;
	const render = (withSection = true) => {
		const el = document.body.createDiv();
		const ctx = { sourcePath: PATH, getSectionInfo: () => (withSection ? { text: vault.files.get(PATH) as string, lineStart: block.fence.startLine, lineEnd: block.fence.endLine } : null) } as unknown as MarkdownPostProcessorContext;
		const view = new TextdiffBlockView(el, block.fence.content, ctx, host);
		view.load();
		return { el, view };
	};
	return { vault, notes, block, render, note: () => vault.files.get(PATH) as string, path: PATH };
}

beforeEach(() => document.body.empty());
afterEach(() => jest.useRealTimers());

// The diff code loaded, as after a first diff: the views build their panes at once (the first one's deferral: lazy-diff.test.ts).
beforeAll(() => void diffPanesClass());

describe("textdiffPaneChanges", () => {
	it("rewrites one pane of the block in the note, and nothing for a block that is gone", () => {
		const { notes, block } = setUp();
		const blocks = notes.ofText(NOTE);
		const changes = textdiffPaneChanges(NOTE, blocks, blockKey(block), "right", "one\nthree\n");
		const after = [...changes].sort((a, b) => b.from - a.from).reduce(applyChange, NOTE);
		const reread = notes.ofText(after).find((b) => b.kind === "textdiff");
		expect(reread?.kind === "textdiff" && reread.textdiff).toMatchObject({ left: "one\ntwo\n", right: "one\nthree\n" });
		expect(textdiffPaneChanges(NOTE, blocks, "@gone", "left", "x")).toEqual([]);
	});
});

describe("TextdiffBlockView", () => {
	it("shows the alias and the two panes of the block compared", () => {
		const { render } = setUp();
		const { el } = render();
		expect(el.querySelector(".rb-alias")?.textContent).toBe("alias d");
		expect(el.querySelector(".rb-diff-count")?.textContent).toBe("1 change, +1 \u22121 lines");
		expect(el.querySelectorAll(".cm-editor")).toHaveLength(2);
		expect(el.querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("true");
	});

	it("writes a pane typed in back into the fence once typing pauses", async () => {
		jest.useFakeTimers();
		const t = setUp();
		const { el } = t.render();
		const panes = el.querySelector(".rb-diff") as HTMLElement;
		const views = [...panes.querySelectorAll<HTMLElement>(".cm-editor")];
		const right = EditorView.findFromDOM(views[1]) as EditorView;
		right.dispatch({ changes: { from: right.state.doc.length, insert: "three\n" }, userEvent: "input.type" });
		await jest.advanceTimersByTimeAsync(299);
		expect(t.note()).toBe(NOTE);
		await jest.advanceTimersByTimeAsync(1);
		const reread = t.notes.ofText(t.note()).find((b) => b.kind === "textdiff");
		expect(reread?.kind === "textdiff" && reread.textdiff.right).toBe("one\nTWO\nthree\n");
		expect(t.vault.log).toEqual([`process ${t.path}`]);
	});

	it("hands panes typed in a moment ago to the view Obsidian renders after the write", async () => {
		jest.useFakeTimers();
		const t = setUp();
		const first = t.render();
		const panes = first.el.querySelector(".rb-diff") as HTMLElement;
		const left = EditorView.findFromDOM(panes.querySelector(".cm-editor") as HTMLElement) as EditorView;
		left.dispatch({ changes: { from: 0, insert: "zero\n" }, userEvent: "input.type" });
		await jest.advanceTimersByTimeAsync(300);
		first.view.unload();
		const second = t.render();
		expect(second.el.querySelector(".rb-diff")).toBe(panes);
		expect(EditorView.findFromDOM(panes.querySelector(".cm-editor") as HTMLElement)?.state.doc.toString()).toBe("zero\none\ntwo\n");
	});

	it("shows the fence's text read-only when Obsidian gives no section to find the block by", () => {
		const { render } = setUp();
		const { el } = render(false);
		expect(el.querySelector(".rb-diff-count")?.textContent).toBe("1 change, +1 \u22121 lines");
		expect(el.querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("false");
	});

	it("lets go of its panes when unloaded", () => {
		const { render } = setUp();
		const { el, view } = render();
		view.unload();
		expect(el.querySelector(".rb-diff")).toBeNull();
	});
});

describe("TextdiffEditorPanel", () => {
	it("shows the block's comparison read-only under its source, and lets go of it when unloaded", () => {
		const { block } = setUp();
		const wrap = document.body.createDiv();
		const panel = new TextdiffEditorPanel(wrap, block);
		panel.load();
		expect(wrap.querySelector(".rb-diff-count")?.textContent).toBe("1 change, +1 \u22121 lines");
		expect(wrap.querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("false");
		panel.unload();
		expect(wrap.querySelector(".rb-diff")).toBeNull();
	});
});
