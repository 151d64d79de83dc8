import fc from "fast-check";
import { parseNoteLines, reparseNote, stringLines, type NoteEdit, type NoteParse } from "../../../src/blocks";

/** The edit that turns `before` into `after` by replacing [from, toA) with `insert`. */
function editOf(before: string, from: number, toA: number, insert: string): { after: string; edit: NoteEdit } {
	const after = before.slice(0, from) + insert + before.slice(toA);
	const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length - 1;
	const toB = from + insert.length;
	return { after, edit: { from, fromLine: lineOf(before, from), toA, toLineA: lineOf(before, toA), toB, toLineB: lineOf(after, toB) } };
}

function reparse(prev: NoteParse, before: string, from: number, toA: number, insert: string): { after: string; parse: NoteParse } {
	const { after, edit } = editOf(before, from, toA, insert);
	return { after, parse: reparseNote(prev, stringLines(after), edit) };
}

const full = (text: string) => parseNoteLines(stringLines(text));

describe("reparseNote", () => {
	const note = "# Note\n\n```http alias=a\nGET https://x.test/a\n```\n\ntext\n\n```http alias=b\nGET {{a.response.body.$.id}}\n```\n";

	it.each([
		["typing in a block", note.indexOf("x.test"), 0, "y"],
		["typing in prose", note.indexOf("text"), 0, "more "],
		["a new line in a block", note.indexOf("GET https"), 0, "# c\n"],
		["closing a block early", note.indexOf("GET https"), 0, "```\n"],
		["opening a fence that swallows the rest", note.indexOf("text"), 0, "~~~\n"],
		["deleting a closing fence", note.indexOf("```\n\ntext"), 4, ""],
		["a duplicate alias", note.indexOf("alias=b") + 6, 1, "a"],
		["removing a duplicate", note.indexOf("alias=a") + 6, 1, "z"],
	])("gives what a full parse gives after %s", (_name, from, length, insert) => {
		const { after, parse } = reparse(full(note), note, from, from + length, insert);
		const expected = full(after);
		expect(parse.blocks).toEqual(expected.blocks);
		expect(parse.fences).toEqual(expected.fences);
	});

	it("extends an unclosed fence in a quote when the line after it joins the quote", () => {
		const quoted = "> ```http\n> GET /q\nprose\n";
		const { after, parse } = reparse(full(quoted), quoted, quoted.indexOf("prose"), quoted.indexOf("prose"), "> ");
		expect(parse.fences).toEqual(full(after).fences);
		expect(parse.fences[0].contentLines).toEqual(["GET /q", "prose"]);
	});

	it("keeps the blocks before the edit as they were, and moves the ones after", () => {
		const prev = full(note);
		const { parse } = reparse(prev, note, note.indexOf("text"), note.indexOf("text"), "x");
		expect(parse.blocks[0]).toBe(prev.blocks[0]);
		expect(parse.blocks[1].fence.from).toBe(prev.blocks[1].fence.from + 1);
	});
});

describe("properties", () => {
	const piece = fc.constantFrom(
		"```http alias=a\n",
		"```http alias=b display=wide\n",
		"~~~http\n",
		"```js\n",
		"```db\n",
		"```\n",
		"~~~\n",
		"````\n",
		"> ```http\n",
		"> GET /q\n",
		"- ```http\n",
		"  GET /l\n",
		"GET https://x.test/{{a.response.body.$.id}}\n",
		"# @name c\n",
		"Accept: */*\n",
		"\n",
		"prose\n",
		"> quote\n",
		"\r\n",
	);
	const doc = fc.array(piece, { maxLength: 24 }).map((ps) => ps.join(""));
	const insert = fc.oneof(fc.array(piece, { maxLength: 3 }).map((ps) => ps.join("")), fc.constantFrom("", "x", "\n", "`", "> ", "```", "alias=a "));
	const edit = fc.tuple(fc.nat(), fc.nat({ max: 40 }), insert);

	it("a chain of edits reparsed one by one equals a full parse of the result", () => {
		fc.assert(
			fc.property(doc, fc.array(edit, { minLength: 1, maxLength: 5 }), (start, edits) => {
				let text = start;
				let parse = full(text);
				for (const [at, length, ins] of edits) {
					const from = at % (text.length + 1);
					const next = reparse(parse, text, from, Math.min(text.length, from + length), ins);
					text = next.after;
					parse = next.parse;
					const expected = full(text);
					expect(parse.blocks).toEqual(expected.blocks);
					expect(parse.fences).toEqual(expected.fences);
				}
			}),
			{ numRuns: 1500 },
		);
	});
});
