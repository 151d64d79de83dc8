import fc from "fast-check";
import { parseNote, parseTextdiff, scanFences, textdiffOptions, serializeTextdiff, TEXTDIFF_SEPARATOR, textdiffFence, fenceLength } from "../../../src/blocks";

const SEP = TEXTDIFF_SEPARATOR;

/** Lines that stress the format: the separator and its escapes, fences, blanks, CR. */
const trickyLine = fc.oneof(
	fc.constantFrom(SEP, `\\${SEP}`, `\\\\${SEP}`, ` ${SEP}`, `${SEP} `, "```", "````", "~~~", "```textdiff", "", " ", "\t", "a  ", "\\", "\r"),
	fc.string({ maxLength: 12 }),
	fc.string({ unit: fc.constantFrom("`", "=", " ", "\\", "r", "\r", "~", ">"), maxLength: 16 }),
);
const eol = fc.constantFrom("\n", "\r\n");
/** Any text made of tricky lines with mixed line breaks, with or without a final break. */
const text = fc
	.array(fc.tuple(trickyLine, eol), { maxLength: 8 })
	.map((parts) => parts.map(([l, e]) => l.replace(/\n/g, "") + e).join(""))
	.chain((t) => fc.constantFrom(t, t.replace(/\r?\n$/, "")));
/** A pane: any text but one ending in a lone CR, which the line break after it would absorb (documented). */
const pane = text.map((t) => t.replace(/\r+$/, ""));

describe("textdiff fence format", () => {
	it("splits at the separator line into two panes", () => {
		const { model, problems } = parseTextdiff(`a\nb\n${SEP}\na\nc`);
		expect(model).toMatchObject({ left: "a\nb", right: "a\nc", separated: true, separatorLine: 2 });
		expect(problems).toEqual([]);
	});

	it("splits only at the first separator: the right pane keeps later ones as written", () => {
		const { model } = parseTextdiff(`x\n${SEP}\n${SEP}\n\\${SEP}`);
		expect(model.left).toBe("x");
		expect(model.right).toBe(`${SEP}\n\\${SEP}`);
	});

	it("reads an escaped separator in the left pane with one backslash less", () => {
		const { model } = parseTextdiff(`\\${SEP}\n\\\\${SEP}\n${SEP}\nr`);
		expect(model.left).toBe(`${SEP}\n\\${SEP}`);
		expect(model.escapedLines).toEqual([0, 1]);
	});

	it("writes separator-like left lines with one more backslash", () => {
		expect(serializeTextdiff({ left: `${SEP}\n\\${SEP}\nplain \\`, right: SEP })).toBe(`\\${SEP}\n\\\\${SEP}\nplain \\\n${SEP}\n${SEP}`);
	});

	it.each([
		[` ${SEP}`, "leading blank"],
		[`${SEP} `, "trailing blank"],
		["=== left ===", "another word"],
	])("does not take %j (%s) for the separator", (line) => {
		const { model } = parseTextdiff(`${line}\n${SEP}\nr`);
		expect(model.left).toBe(line);
		expect(model.right).toBe("r");
	});

	it("keeps CRLF, trailing blanks and empty lines in the panes", () => {
		const { model } = parseTextdiff(`a  \r\n\r\n${SEP}\r\n\tb \r\n`);
		expect(model).toMatchObject({ left: "a  \r\n", right: "\tb \r\n", breaks: ["\r\n", "\r\n"] });
	});

	it("reports a missing separator as a warning and keeps everything on the left", () => {
		const { model, problems } = parseTextdiff("only\nleft");
		expect(model).toMatchObject({ left: "only\nleft", right: "", separated: false });
		expect(problems).toEqual([expect.objectContaining({ code: "missing_separator", severity: "warning", line: 1 })]);
		expect(problems[0].message).toContain(SEP);
	});

	it("reads a CR ending the left pane as part of the separator's CRLF (the one text it cannot keep)", () => {
		expect(parseTextdiff(serializeTextdiff({ left: "a\r", right: "" })).model).toMatchObject({ left: "a", breaks: ["\r\n", "\n"] });
	});

	it("tells an empty pane from a pane of one empty line by the separator's breaks", () => {
		expect(parseTextdiff(`${SEP}\nr`).model).toMatchObject({ left: "", breaks: ["", "\n"] });
		expect(parseTextdiff(`\n${SEP}\nr`).model).toMatchObject({ left: "", breaks: ["\n", "\n"] });
		expect(parseTextdiff(`l\n${SEP}`).model).toMatchObject({ right: "", breaks: ["\n", ""] });
		expect(serializeTextdiff({ left: "", right: "" })).toBe(`\n${SEP}\n`);
	});

	it("writes the breaks a separator needs with the given line break, keeping the ones written", () => {
		expect(serializeTextdiff({ left: "a", right: "b", eol: "\r\n" })).toBe(`a\r\n${SEP}\r\nb`);
		expect(serializeTextdiff({ left: "a", right: "b", breaks: ["", ""], eol: "\r\n" })).toBe(`a\r\n${SEP}\r\nb`);
		expect(serializeTextdiff({ left: "a", right: "b", breaks: ["\n", "\n"], eol: "\r\n" })).toBe(`a\n${SEP}\nb`);
	});

	it("parse then serialize gives back any content exactly", () => {
		fc.assert(
			fc.property(text, (content) => {
				expect(serializeTextdiff(parseTextdiff(content).model)).toBe(content);
			}),
			{ numRuns: 2000 },
		);
	});

	it("serialize then parse gives back any two panes exactly", () => {
		fc.assert(
			fc.property(pane, pane, (left, right) => {
				const { model, problems } = parseTextdiff(serializeTextdiff({ left, right }));
				expect([model.left, model.right]).toEqual([left, right]);
				expect(problems).toEqual([]);
			}),
			{ numRuns: 2000 },
		);
	});

	it("writes a fence no pane line can close, read back through the note's fence scanner", () => {
		fc.assert(
			fc.property(pane, pane, fc.constantFrom("", "> ", "  "), (left, right, prefix) => {
				const md = `before\n${textdiffFence({ left, right }, "ignore_case", prefix)}after\n`;
				const fences = scanFences(md);
				expect(fences).toHaveLength(1);
				expect(fences[0]).toMatchObject({ lang: "textdiff", info: "ignore_case", terminated: true });
				const { model } = parseTextdiff(fences[0].content);
				expect([model.left, model.right]).toEqual([left, right]);
			}),
			{ numRuns: 1000 },
		);
	});

	it.each([
		["plain", 3],
		["```js\nx\n```", 4],
		["a\n  ``````", 7],
		["inline `code` ``` here", 3],
	])("picks a fence length for %j: %i", (content, n) => {
		expect(fenceLength(content)).toBe(n);
	});
});

describe("textdiff blocks in a note", () => {
	it("reads the options from the fence line, flags written alone", () => {
		const [b] = parseNote(`\`\`\`textdiff normalize=json ignore_case alias=cmp mode=unified language=JSON ignore_whitespace\na\n${SEP}\nb\n\`\`\``);
		if (b.kind !== "textdiff") throw new Error("expected a textdiff block");
		expect(b.problems).toEqual([]);
		expect(b.alias).toBe("cmp");
		expect(b.textdiff).toMatchObject({ left: "a", right: "b" });
		expect(textdiffOptions(b.info.tokens)).toEqual({ mode: "unified", ignoreWhitespace: true, ignoreCase: true, language: "json", normalize: "json" });
		expect(b.canonicalFenceLine).toBe("```textdiff alias=cmp mode=unified ignore_whitespace ignore_case language=JSON normalize=json");
	});

	it("defaults to side by side, comparing as written", () => {
		const [b] = parseNote("```textdiff\na\n```");
		if (b.kind !== "textdiff") throw new Error("expected a textdiff block");
		expect(textdiffOptions(b.info.tokens)).toEqual({ mode: "split", ignoreWhitespace: false, ignoreCase: false, language: null, normalize: null });
		expect(b.problems).toEqual([expect.objectContaining({ code: "missing_separator", line: 1 })]);
	});

	it.each([
		["mode=side", 'mode "side" is invalid: use split, unified'],
		["normalize=xml", 'normalize "xml" is invalid: use json'],
		["ignore_case=yes", 'ignore_case "yes" is invalid: write ignore_case alone, without a value'],
		["language=a/b", 'language "a/b" is invalid: use a language name such as json, xml or sql'],
	])("rejects %j", (token, message) => {
		const [b] = parseNote(`\`\`\`textdiff ${token}\na\n${SEP}\nb\n\`\`\``);
		expect(b.problems).toEqual([expect.objectContaining({ code: "invalid_token_value", severity: "error", message, line: 0, column: 12 })]);
	});

	it("warns about tokens of other kinds", () => {
		const [b] = parseNote(`\`\`\`textdiff timeout=5\na\n${SEP}\nb\n\`\`\``);
		expect(b.problems).toEqual([expect.objectContaining({ code: "unknown_token", severity: "warning" })]);
		expect(b.problems[0].message).toContain("ignore_whitespace");
	});
});
