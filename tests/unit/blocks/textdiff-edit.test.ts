import fc from "fast-check";
import { paneEdit, parseTextdiff, scanFences, TEXTDIFF_SEPARATOR, textdiffFence, type NoteChange } from "../../../src/blocks";

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

	it("gives any pane text back on the next read, leaving the other pane and the rest of the note alone", () => {
		const line = fc.oneof(fc.constantFrom(SEP, `\\${SEP}`, "```", "````", "", "  ", "~~~"), fc.string({ unit: fc.constantFrom("a", " ", "`", "\\", "="), maxLength: 8 }));
		const paneText = fc.array(line, { maxLength: 6 }).map((ls) => ls.join("\n"));
		fc.assert(
			fc.property(paneText, paneText, paneText, fc.constantFrom<"left" | "right">("left", "right"), fc.constantFrom("", "> ", "  "), (left, right, text, pane, prefix) => {
				const fence = textdiffFence({ left, right }, "", prefix);
				const before = "intro\n\n";
				const after = "\noutro\n";
				const { next } = edit(before + fence + after, pane, text);
				expect(next.startsWith(before)).toBe(true);
				expect(next.endsWith(after)).toBe(true);
				expect(panes(next)).toEqual(pane === "left" ? [text, right] : [left, text]);
			}),
			{ numRuns: 1000 },
		);
	});
});
