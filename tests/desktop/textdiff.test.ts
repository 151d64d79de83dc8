/**
 * Diff blocks in the desktop host (issue 23): typing in a pane, the note rendered again (the new
 * view takes the panes over), typing again — the note gains only what was typed, in LF and CRLF.
 */
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type * as CmView from "@codemirror/view";
import { giveRangesEmptyBoxes, launchDesktopHost, lendHostWindow, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/** main.js's own CodeMirror (the desktop host requires it through Node), to reach its pane editors. */
const { EditorView } = createRequire(resolve(__dirname, "..", "..", "main.js"))("@codemirror/view") as typeof CmView;

const NOTE = ["# Diff", "", "```textdiff alias=cmp", "alpha", "beta", "gamma", "delta", "=== right ===", "alpha", "BETA", "gamma", "epsilon", "delta", "```", "", "end"];

let host: DesktopHost;

beforeAll(async () => {
	host = await launchDesktopHost();
	await host.loadPlugin();
	// The panes are CodeMirror, which reads the DOM from globals and measures text through ranges.
	lendHostWindow(host);
	giveRangesEmptyBoxes(host);
});

afterAll(async () => {
	await host?.close();
});

/** Stops the window's clock (main.js's Date.now), so panes typed in are always recent enough to be taken over. */
function stopClock(): () => void {
	const date = (host.window as unknown as { Date: DateConstructor }).Date;
	const now = date.now;
	const stopped = now.call(date);
	date.now = () => stopped;
	return () => {
		date.now = now;
	};
}

/** The pane editors of the rendered diff: left, right. */
function panes(): CmView.EditorView[] {
	return [...host.document.querySelectorAll<HTMLElement>("#reading .rb-diff .cm-editor")].map((el) => {
		const view = EditorView.findFromDOM(el);
		if (!view) throw new Error("a pane without its editor");
		return view;
	});
}

/** Types at the cursor, one keystroke per character, as the keyboard does. */
function type(view: CmView.EditorView, text: string): void {
	for (const ch of text) view.dispatch({ ...view.state.replaceSelection(ch), userEvent: "input.type", scrollIntoView: true });
}

function fileText(path: string): string | undefined {
	return host.page.files.get(path);
}

describe.each([
	["LF", "\n"],
	["CRLF", "\r\n"],
])("a %s diff note", (name, eol) => {
	it("type in a pane, render again, type again: the file gains only what was typed", async () => {
		const restoreClock = stopClock();
		try {
			const path = join("notes", `typed-${name}.md`);
			const lines = [...NOTE];
			host.page.renderReading(lines.join(eol), path);
			// The first diff of the page builds its panes once the diff code is loaded, three tasks later.
			await waitFor("the panes", () => panes().length === 2);
			const first = host.document.querySelector("#reading .rb-diff");
			const right = panes()[1];
			right.dispatch({ selection: { anchor: right.state.doc.line(3).to } }); // the end of "gamma"
			type(right, " ray");
			lines[10] = "gamma ray";
			await waitFor("the first write", () => fileText(path)?.includes("gamma ray"));
			expect(fileText(path)).toBe(lines.join(eol));

			// The write makes Obsidian render the note again: the new view takes the panes over.
			host.page.renderReading(fileText(path) ?? "", path);
			expect(host.document.querySelector("#reading .rb-diff")).toBe(first);
			expect(panes().map((v) => v.state.doc.toString())).toEqual(["alpha\nbeta\ngamma\ndelta", "alpha\nBETA\ngamma ray\nepsilon\ndelta"]);

			// The cursor is where it was: the next keystroke lands there, and nothing else comes with it.
			const written = fileText(path);
			type(panes()[1], "s");
			lines[10] = "gamma rays";
			await waitFor("the second write", () => fileText(path) !== written);
			expect(fileText(path)).toBe(lines.join(eol));
		} finally {
			restoreClock();
		}
	});
});
