import type { App, Editor, EditorPosition, EditorSuggestContext } from "obsidian";
import type { RefCompletion } from "../../../../src/blocks";
import { ReferenceSuggest } from "../../../../src/ui/suggest/reference-suggest";
import type { Engine } from "../../../../src/runner/engine";

/** A suggestion row as Obsidian's list holds it: its classes, and the DOM helper renderSuggestion uses. */
function row(selected: boolean): HTMLElement {
	return { classList: { contains: (c: string) => selected && c === "is-selected" }, parentElement: null, createSpan: () => ({}) } as unknown as HTMLElement;
}
const TAB = { key: "Tab" } as KeyboardEvent;

/** A one-line editor with the cursor after `{{to`: what selectSuggestion needs. */
function editorWith(line: string): Editor & { line: string } {
	const ed = {
		line,
		getLine: () => ed.line,
		replaceRange: (text: string, from: EditorPosition, to: EditorPosition) => (ed.line = ed.line.slice(0, from.ch) + text + ed.line.slice(to.ch)),
		posToOffset: (p: EditorPosition) => p.ch,
		offsetToPos: (ch: number) => ({ line: 0, ch }),
		setCursor: () => undefined,
	};
	return ed as unknown as Editor & { line: string };
}

const ITEMS: RefCompletion[] = [
	{ insert: "token", hint: "(env)", kind: "variable" },
	{ insert: "total", hint: "(env)", kind: "variable" },
];

/** The suggest after Obsidian rendered ITEMS into its list, with `selected` highlighted (or none). */
function shown(selected: number | null, chooser?: unknown) {
	const suggest = new ReferenceSuggest({} as App, {} as Engine, () => []);
	if (chooser) (suggest as unknown as { suggestions: unknown }).suggestions = chooser;
	const editor = editorWith("X: {{to");
	suggest.context = { editor, start: { line: 0, ch: 5 }, end: { line: 0, ch: 7 }, query: "to", file: null } as unknown as EditorSuggestContext;
	ITEMS.forEach((item, i) => suggest.renderSuggestion(item, row(i === selected)));
	const tab = (suggest.scope as unknown as { keys: Array<{ key: string; func: (e: KeyboardEvent) => boolean }> }).keys.find((k) => k.key === "Tab");
	if (!tab) throw new Error("no Tab binding");
	return { suggest, editor, pressTab: () => tab.func(TAB) };
}

describe("Tab in {{ completion", () => {
	it("goes through Obsidian's chooser where the suggest has one, as Enter does", () => {
		const used: string[] = [];
		const chooser = { useSelectedItem: (e: KeyboardEvent) => used.push(e.key) };
		const { pressTab, editor } = shown(1, chooser);
		expect(pressTab()).toBe(false);
		expect(used).toEqual(["Tab"]);
		expect(editor.line).toBe("X: {{to");
	});

	it("without the chooser (not public API) completes the suggestion Obsidian highlights", () => {
		const { pressTab, editor, suggest } = shown(1);
		expect(pressTab()).toBe(false);
		expect(editor.line).toBe("X: {{total}}");
		expect((suggest as unknown as { closed: boolean }).closed).toBe(true);
	});

	it("without the chooser and no highlight, completes the first suggestion shown", () => {
		const { pressTab, editor } = shown(null, { notAChooser: true });
		expect(pressTab()).toBe(false);
		expect(editor.line).toBe("X: {{token}}");
	});

	it("lets Tab through when nothing is shown", () => {
		const suggest = new ReferenceSuggest({} as App, {} as Engine, () => []);
		expect(suggest.completeWithTab(TAB)).toBe(true);
	});
});
