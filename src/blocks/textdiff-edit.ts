import type { Fence } from "./fences";
import { dominantBreak, editorText, splitLines, withLineBreaks } from "./lines";
import { parseTextdiff, serializeTextdiff } from "./textdiff";

/** One replacement in the note: offsets into the note text. */
export interface NoteChange {
	from: number;
	to: number;
	insert: string;
}

/**
 * The note changes that make a textdiff fence hold `text` in one pane: the smallest
 * replacement of the fence content (so an edit lands exactly where it was made), with the
 * container prefix (`> `, indentation) on every new line, separator-like left lines escaped,
 * and the fence's runs lengthened when a new line would close it. Empty when nothing changes.
 * Applied together they are one edit (one undo step).
 *
 * `text` is compared as an editor holds it (editorText) and written with the note's line
 * break, so a CRLF note stays CRLF and a pane handed back unchanged writes nothing.
 */
export function paneEdit(note: string, fence: Fence, pane: "left" | "right", text: string): NoteChange[] {
	const old = fence.content;
	const { model } = parseTextdiff(old);
	if (model.separated && editorText(model[pane]) === editorText(text)) return [];
	// The fence's own break, the note's when the fence has none yet (an unterminated empty fence).
	const eol = dominantBreak(note.slice(fence.from, fence.to)) ?? dominantBreak(note) ?? "\n";
	const next = serializeTextdiff({ ...model, separated: true, eol, [pane]: withLineBreaks(text, eol) });
	if (next === old) return [];

	let start = 0;
	while (start < old.length && start < next.length && old[start] === next[start]) start++;
	let endOld = old.length;
	let endNew = next.length;
	while (endOld > start && endNew > start && old[endOld - 1] === next[endNew - 1]) {
		endOld--;
		endNew--;
	}
	const insert = next.slice(start, endNew).replace(/\n/g, `\n${fence.contentPrefix}`);
	const changes: NoteChange[] = [];
	if (fence.contentLines.length === 0) {
		// An empty fence: the content goes on new lines after the opening line.
		const openingEnd = note.indexOf("\n", fence.from);
		const at = openingEnd === -1 ? note.length : note[openingEnd - 1] === "\r" ? openingEnd - 1 : openingEnd;
		changes.push({ from: at, to: at, insert: `${eol}${fence.contentPrefix}${insert}` });
	} else {
		const toNote = contentToNote(fence);
		changes.push({ from: toNote(start), to: toNote(endOld), insert });
	}
	return [...lengthenFence(note, fence, next), ...changes].sort((a, b) => a.from - b.from);
}

/** Maps a content offset to a note offset (a line's start maps to just after its container prefix). */
function contentToNote(fence: Fence): (offset: number) => number {
	const lines = splitLines(fence.content);
	const starts: number[] = [];
	let at = 0;
	for (const l of lines) {
		starts.push(at);
		at += l.text.length + l.eol.length;
	}
	return (offset) => {
		let k = starts.length - 1;
		while (k > 0 && starts[k] > offset) k--;
		return fence.contentOffsets[k] + (offset - starts[k]);
	};
}

/** Inserts fence characters into both fence lines when a content line of `content` would close the fence. */
function lengthenFence(note: string, fence: Fence, content: string): NoteChange[] {
	let longest = 0;
	for (const m of content.matchAll(fence.char === "`" ? /^[ \t]*(`+)[ \t]*$/gm : /^[ \t]*(~+)[ \t]*$/gm)) longest = Math.max(longest, m[1].length);
	if (longest < fence.length) return [];
	const extra = fence.char.repeat(longest + 1 - fence.length);
	const changes = [{ from: fence.from + fence.prefix.length, to: fence.from + fence.prefix.length, insert: extra }];
	if (fence.terminated) {
		const lineStart = note.lastIndexOf("\n", fence.to - 1) + 1;
		const run = note.indexOf(fence.char.repeat(fence.length), lineStart);
		changes.push({ from: run, to: run, insert: extra });
	}
	return changes;
}
