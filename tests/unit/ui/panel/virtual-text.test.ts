/**
 * @jest-environment jsdom
 */
import { VirtualText } from "../../../../src/ui/panel/virtual-text";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

beforeAll(() => installDomHelpers());

const numbered = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join("");

/** A view and a count of the lines it has drawn (renderLine runs once per line drawn). */
function view(): { text: VirtualText; drawn: () => number; shown: () => string[]; height: () => string } {
	let drawn = 0;
	const parent = createDiv();
	const text = new VirtualText(parent, "", (el, line) => {
		drawn++;
		el.setText(line);
	});
	return {
		text,
		drawn: () => drawn,
		shown: () => [...parent.querySelectorAll(".rb-vtext-line")].map((el) => el.textContent ?? ""),
		height: () => (parent.querySelector(".rb-vtext-spacer") as HTMLElement).style.getPropertyValue("--rb-vtext-height"),
	};
}

describe("a virtualised text draws only the lines on screen", () => {
	it("text appended below the window changes the scroll height, not the lines drawn", () => {
		const v = view();
		v.text.append(numbered(0, 1000));
		v.text.renderNow();
		const drawn = v.drawn();
		const shown = v.shown();
		expect(shown[0]).toBe("line 0");
		v.text.append(numbered(1000, 2000));
		v.text.renderNow();
		expect(v.drawn()).toBe(drawn);
		expect(v.shown()).toEqual(shown);
		expect(v.height()).toBe(`${2000 * 18}px`);
	});

	it("draws a line again once it is complete, and all of a short text as it grows", () => {
		const v = view();
		v.text.append("first\nsec");
		v.text.renderNow();
		expect(v.shown()).toEqual(["first", "sec"]);
		v.text.append("ond\nthird\n");
		v.text.renderNow();
		expect(v.shown()).toEqual(["first", "second", "third"]);
	});

	it("draws a new text set in place of the old one, even of the same length", () => {
		const v = view();
		v.text.setText(numbered(0, 500));
		v.text.renderNow();
		v.text.setText(numbered(500, 1000));
		v.text.renderNow();
		expect(v.shown()[0]).toBe("line 500");
	});
});
