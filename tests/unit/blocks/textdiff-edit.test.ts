import fc from "fast-check";
import { editorText, paneEdit, parseTextdiff, scanFences, TEXTDIFF_SEPARATOR, textdiffFence, type NoteChange } from "../../../src/blocks";

const SEP = TEXTDIFF_SEPARATOR;

function apply(note: string, changes: readonly NoteChange[]): string {
	let out = note;
	for (const c of [...changes].sort((a, b) => b.from - a.from)) out = out.slice(0, c.from) + c.insert + out.slice(c.to);
	return out;
}

function panes(note: string): [string, string] {
	const fence = scanFences(note).find((f) => f.lang === "textdiff")!;
	const { model } = parseTextdiff(fence.content);
	return [model.left, model.right];
}

function edit(note: string, pane: "left" | "right", text: string): { next: string; changes: NoteChange[] } {
	const fence = scanFences(note).find((f) => f.lang === "textdiff")!;
	const changes = paneEdit(note, fence, pane, text);
	return { next: apply(note, changes), changes };
}

describe("paneEdit", () => {
	const note = `# Title\n\n\`\`\`textdiff\nalpha\nbeta\n${SEP}\nalpha\ngamma\n\`\`\`\nafter\n`;

	it("changes the note exactly where the pane changed", () => {
		const { next, changes } = edit(note, "right", "alpha\ngamma ray");
		expect(changes).toEqual([{ from: note.indexOf("gamma") + 5, to: note.indexOf("gamma") + 5, insert: " ray" }]);
		expect(next).toBe(note.replace("gamma", "gamma ray"));
	});

	it("changes nothing when the pane text is the same", () => {
		expect(edit(note, "left", "alpha\nbeta").changes).toEqual([]);
	});

	it("escapes a separator typed into the left pane", () => {
		const { next } = edit(note, "left", `alpha\n${SEP}`);
		expect(next).toContain(`alpha\n\\${SEP}\n${SEP}\n`);
		expect(panes(next)).toEqual([`alpha\n${SEP}`, "alpha\ngamma"]);
	});

	it("keeps a callout's prefix on new lines", () => {
		const quoted = `> [!note]\n> \`\`\`textdiff\n> a\n> ${SEP}\n> b\n> \`\`\`\n`;
		const { next } = edit(quoted, "right", "b\nc\nd");
		expect(next).toBe(`> [!note]\n> \`\`\`textdiff\n> a\n> ${SEP}\n> b\n> c\n> d\n> \`\`\`\n`);
	});

	it("keeps CRLF line breaks in a CRLF note", () => {
		const crlf = note.replace(/\n/g, "\r\n");
		const { next } = edit(crlf, "left", "alpha\nbeta\nnew");
		expect(next).toBe(crlf.replace("beta\r\n", "beta\r\nnew\r\n"));
	});

	it("keeps CRLF on the lines it adds: the separator of a fence that had none, an empty fence's content", () => {
		expect(edit("```textdiff\r\nonly left\r\n```\r\n", "right", "r\ns").next).toBe(`\`\`\`textdiff\r\nonly left\r\n${SEP}\r\nr\r\ns\r\n\`\`\`\r\n`);
		expect(edit("```textdiff\r\n```\r\n", "left", "l\nm").next).toBe(`\`\`\`textdiff\r\nl\r\nm\r\n${SEP}\r\n\`\`\`\r\n`);
		expect(edit("# t\r\n\r\n```textdiff", "left", "l").next).toBe(`# t\r\n\r\n\`\`\`textdiff\r\nl\r\n${SEP}`);
	});

	it("writes nothing for a pane handed back as an editor holds it, whatever line breaks the note has", () => {
		const crlf = note.replace(/\n/g, "\r\n");
		expect(edit(crlf, "right", "alpha\ngamma").changes).toEqual([]);
		const mixed = `\`\`\`textdiff\na\r\nb\nc\n${SEP}\nd\n\`\`\`\n`;
		expect(edit(mixed, "left", "a\nb\nc").changes).toEqual([]);
	});

	it("lengthens the fence when a pane line would close it", () => {
		const { next, changes } = edit(note, "right", "alpha\n```\ngamma");
		expect(changes).toHaveLength(3);
		expect(next).toContain("````textdiff\n");
		expect(next).toContain("gamma\n````\nafter");
		expect(panes(next)).toEqual(["alpha\nbeta", "alpha\n```\ngamma"]);
	});

	it("adds the separator when the fence had none, and fills an empty fence", () => {
		expect(panes(edit("```textdiff\nonly left\n```\n", "right", "r").next)).toEqual(["only left", "r"]);
		expect(panes(edit("```textdiff\n```\n", "left", "l").next)).toEqual(["l", ""]);
		expect(panes(edit("> ```textdiff\n> ```\n", "right", "r\ns").next)).toEqual(["", "r\ns"]);
	});

	it("gives any pane text back on the next read, leaving the other pane, the rest of the note and its line breaks alone", () => {
		const line = fc.oneof(fc.constantFrom(SEP, `\\${SEP}`, "```", "````", "", "  ", "~~~"), fc.string({ unit: fc.constantFrom("a", " ", "`", "\\", "="), maxLength: 8 }));
		const paneText = fc.array(line, { maxLength: 6 }).map((ls) => ls.join("\n"));
		const eol = fc.constantFrom("\n", "\r\n");
		fc.assert(
			fc.property(paneText, paneText, paneText, fc.constantFrom<"left" | "right">("left", "right"), fc.constantFrom("", "> ", "  "), eol, fc.boolean(), (left, right, text, pane, prefix, eol, separated) => {
				// Without a separator (and so with an empty right pane), an edit writes one.
				const lf = `intro\n\n${textdiffFence({ left, right: separated ? right : "", separated }, "", prefix)}\noutro\n`;
				const note = lf.replace(/\n/g, eol);
				const [before, after] = [`intro${eol}${eol}`, `${eol}outro${eol}`];
				const { next } = edit(note, pane, text);
				expect(next.startsWith(before)).toBe(true);
				expect(next.endsWith(after)).toBe(true);
				expect(panes(next).map(editorText)).toEqual(pane === "left" ? [text, separated ? right : ""] : [left, text]);
				// A CRLF note stays CRLF: no line break of another kind comes in.
				if (eol === "\r\n") expect(next.replace(/\r\n/g, "")).not.toContain("\n");
				// The next view shows the note's panes as the editor holds them; handing them back writes nothing.
				expect(edit(next, pane, editorText(panes(next)[pane === "left" ? 0 : 1])).changes).toEqual([]);
			}),
			{ numRuns: 1000 },
		);
	});
});
