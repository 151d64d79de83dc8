/** @jest-environment jsdom */
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { appendHighlighted } from "../../../../src/ui/suggest/highlight";

installDomHelpers();

/** The element's children as text, a marked run in brackets. */
function shown(text: string, matches: Array<[number, number]>): string {
	const el = createDiv();
	appendHighlighted(el, text, matches);
	expect(el.textContent).toBe(text);
	return [...el.childNodes].map((n) => (n.nodeType === Node.ELEMENT_NODE && (n as HTMLElement).hasClass("suggestion-highlight") ? `[${n.textContent}]` : n.textContent)).join("");
}

describe("appendHighlighted", () => {
	it("marks each matched range as Obsidian's fuzzy results do, and keeps the text between as text", () => {
		expect(shown("feature/login", [[0, 1], [8, 11]])).toBe("[f]eature/[log]in");
		expect(shown("main", [[0, 4]])).toBe("[main]");
		expect(shown("origin/main", [[7, 11]])).toBe("origin/[main]");
	});

	it("appends the plain text when nothing matched", () => {
		expect(shown("archive", [])).toBe("archive");
	});
});
