/** @jest-environment jsdom */
import { renderJsonLine } from "../../../../src/ui/panel/json-highlight";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

/** The line as rendered: each piece's text with its token class ("" for plain text). */
function pieces(line: string): Array<[string, string]> {
	const el = createDiv();
	renderJsonLine(el, line);
	expect(el.textContent).toBe(line); // never a character lost or added
	return Array.from(el.childNodes).map((n) => [n.textContent ?? "", n.nodeType === Node.ELEMENT_NODE ? (n as Element).className : ""]);
}
const classOf = (line: string, text: string) => pieces(line).find(([t]) => t === text)?.[1];

describe("one line of pretty-printed JSON, highlighted", () => {
	it("reads an object member: the key as a property name, the value by its type", () => {
		expect(pieces('  "name": "Ada",')).toEqual([
			["  ", ""],
			['"name"', "tok-propertyName"],
			[":", "tok-punctuation"],
			[" ", ""],
			['"Ada"', "tok-string"],
			[",", "tok-punctuation"],
		]);
	});

	it.each([
		['    "n": 42,', "42", "tok-number"],
		['    "ok": true', "true", "tok-bool"],
		['    "gone": null', "null", "tok-keyword"],
	])("colours %j's value %s as %s", (line, value, cls) => expect(classOf(line, value)).toBe(cls));

	it("reads an array element as a value, not a key", () => {
		expect(classOf('    "tag",', '"tag"')).toBe("tok-string");
		expect(classOf("    3.5", "3.5")).toBe("tok-number");
	});

	it("reads a closing bracket as punctuation out of its document", () => {
		expect(pieces("  ],")).toEqual([
			["  ", ""],
			["]", "tok-punctuation"],
			[",", "tok-punctuation"],
		]);
	});

	it("shows a line that is not JSON whole, colouring no word of it as a string or key", () => {
		const prose = pieces("this is not json at all");
		expect(prose.filter(([, cls]) => /string|propertyName/.test(cls))).toEqual([]);
	});

	it("shows a line longer than 4096 characters plain, and an empty line as it is", () => {
		const long = `  "k": "${"x".repeat(5000)}"`;
		expect(pieces(long)).toEqual([[long, ""]]);
		expect(pieces("   ")).toEqual([["   ", ""]]);
	});

	it("puts markup inside a string in as text, creating no element but its spans", () => {
		const line = '  "<img src=x onerror=alert(1)>": "<script>alert(2)</script>"';
		const el = createDiv();
		renderJsonLine(el, line);
		expect(el.querySelector("img, script")).toBeNull();
		expect(Array.from(el.querySelectorAll("*")).every((e) => e.tagName === "SPAN")).toBe(true);
		expect(el.textContent).toBe(line);
	});
});
