import { classHighlighter, highlightTree } from "@lezer/highlight";
import { parser } from "@lezer/json";
import type { Tree } from "@lezer/common";

/** Longer lines are shown plain: a frame never parses more than this per visible line. */
const MAX_HIGHLIGHT_CHARS = 4096;

interface Parsed {
	tree: Tree;
	/** Where the line starts inside the parsed text. */
	offset: number;
	/** Characters of the line read before the first syntax error (the line's length when none). */
	clean: number;
}

function parseIn(open: string, line: string, close: string): Parsed {
	const text = open + line + close;
	const tree = parser.parse(text);
	let firstError = text.length;
	tree.iterate({
		enter: (node) => {
			if (!node.type.isError) return true;
			firstError = Math.min(firstError, node.from);
			return false;
		},
	});
	return { tree, offset: open.length, clean: firstError - open.length };
}

/**
 * One line of pretty-printed JSON, highlighted by the Lezer JSON grammar (the one
 * @codemirror/lang-json uses) through `classHighlighter` (`tok-string`, `tok-propertyName`…).
 * A line out of its document needs its context: it is read as an array element, or as an
 * object member when that reads further. Only visible lines go through here, so a 50 MB body
 * costs a screenful of parses per frame. Text goes in as text nodes, never as markup.
 */
export function renderJsonLine(el: HTMLElement, line: string): void {
	if (line.length > MAX_HIGHLIGHT_CHARS || line.trim() === "") {
		el.setText(line);
		return;
	}
	const element = parseIn("[", line, "]");
	let best = element;
	if (element.clean < line.length) {
		const member = parseIn("{", line, "}");
		if (member.clean > element.clean) best = member;
	}
	const { tree, offset } = best;
	let pos = 0;
	highlightTree(
		tree,
		classHighlighter,
		(from, to, classes) => {
			const start = Math.max(from - offset, pos);
			const end = Math.min(to - offset, line.length);
			if (end <= start) return;
			if (start > pos) el.appendText(line.slice(pos, start));
			el.createSpan({ cls: classes, text: line.slice(start, end) });
			pos = end;
		},
		offset,
		offset + line.length,
	);
	if (pos < line.length) el.appendText(line.slice(pos));
}
