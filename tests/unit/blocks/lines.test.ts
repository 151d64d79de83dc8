import fc from "fast-check";
import { dominantBreak, editorText, splitLines, withLineBreaks } from "../../../src/blocks";

/** Text with any mix of "\n", "\r\n" and lone "\r" among ordinary characters. */
const anyBreaks = fc.string({ unit: fc.constantFrom("a", " ", "\n", "\r\n", "\r"), maxLength: 24 });

describe("splitLines", () => {
	it("keeps each line's break, so the lines reassemble the text byte for byte", () => {
		fc.assert(fc.property(anyBreaks, (text) => expect(splitLines(text).map((l) => l.text + l.eol).join("")).toBe(text)));
	});
});

describe("editorText", () => {
	it("reads CRLF and a lone CR as one line break each, as CodeMirror does", () => {
		expect(editorText("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
		expect(editorText("\r\n\r\n")).toBe("\n\n");
	});
});

describe("withLineBreaks", () => {
	it("writes every line break as the note's", () => {
		expect(withLineBreaks("a\nb\n", "\r\n")).toBe("a\r\nb\r\n");
		expect(withLineBreaks("a\r\nb", "\n")).toBe("a\nb");
	});

	it("never doubles a CR that is already there", () => {
		expect(withLineBreaks("a\r\nb\nc", "\r\n")).toBe("a\r\nb\r\nc");
	});

	it("keeps the lines an editor shows: as many, with the same text", () => {
		fc.assert(
			fc.property(anyBreaks, fc.constantFrom<"\n" | "\r\n">("\n", "\r\n"), (text, eol) => {
				const written = withLineBreaks(text, eol);
				expect(editorText(written)).toBe(editorText(text));
				expect(splitLines(written).map((l) => l.text)).toEqual(editorText(text).split("\n"));
				expect(splitLines(written).every((l, i, all) => l.eol === (i === all.length - 1 ? "" : eol))).toBe(true);
			}),
		);
	});
});

describe("dominantBreak", () => {
	it("is the break most lines end with, LF on a tie", () => {
		expect(dominantBreak("a\r\nb\r\nc\nd")).toBe("\r\n");
		expect(dominantBreak("a\r\nb\nc\nd")).toBe("\n");
		expect(dominantBreak("a\r\nb\nc")).toBe("\n");
		expect(dominantBreak("\r\n")).toBe("\r\n");
	});

	it("is null for a text without a line break (a lone CR is none in a note)", () => {
		expect(dominantBreak("")).toBeNull();
		expect(dominantBreak("one line")).toBeNull();
		expect(dominantBreak("a\rb")).toBeNull();
	});
});
