import { isKindFence, type BlockLanguage } from "./kinds";
import type { LineSpan } from "./lines";

/**
 * A fenced code block found in a markdown document.
 * Lines are 0-based document lines; offsets are UTF-16 offsets into the document.
 */
export interface Fence {
	/** Language word, lower-cased ("http"), or "" when the fence has none. */
	lang: string;
	/** The language word as written ("HTTP"). */
	langWritten: string;
	/** Info string after the language word, as written (leading/trailing blanks trimmed). */
	info: string;
	/** Fence character and run length of the opening fence. */
	char: "`" | "~";
	length: number;
	/**
	 * Container prefix of the opening line before the fence characters: indentation,
	 * blockquote/callout markers (`> `) and a list marker (`- `, `1. `).
	 */
	prefix: string;
	/** What is stripped from each content line: the prefix with any list marker turned into spaces. */
	contentPrefix: string;
	startLine: number;
	/** Closing fence line, or the last line the fence covers when it is unterminated. */
	endLine: number;
	/** Offset of the start of the opening line. */
	from: number;
	/** Offset of the end of the closing line (before its line break). */
	to: number;
	/** Content lines with the container prefix removed. */
	contentLines: string[];
	/** Content lines joined with their original line breaks (the block's own text). */
	content: string;
	/** Document offset of each content line's first character after the stripped prefix. */
	contentOffsets: number[];
	terminated: boolean;
}

const CONTAINER = /^((?:[ \t]*>[ \t]?)*)([ \t]*)((?:[-*+]|\d{1,9}[.)])[ \t]+)?([ \t]*)/;
const FENCE_RUN = /^(`{3,}|~{3,})(.*)$/;

interface OpenLine {
	quote: string;
	indent: string;
	marker: string;
	char: "`" | "~";
	length: number;
	rest: string;
}

/** Reads an opening fence line, or returns null when the line does not open a fence. */
function readOpening(text: string): OpenLine | null {
	// Cheap pre-check: most lines of a note hold no fence run at all.
	if (!text.includes("```") && !text.includes("~~~")) return null;
	// A fence at the start of the line (most) has no container prefix to read.
	const first = text.charCodeAt(0);
	const c = first === 96 || first === 126 ? null : CONTAINER.exec(text);
	const whole = c ? c[0] : "";
	const quote = c ? c[1] : "";
	const indent1 = c ? c[2] : "";
	const marker = c?.[3] ?? "";
	const indent2 = c ? c[4] : "";
	const m = FENCE_RUN.exec(whole.length === 0 ? text : text.slice(whole.length));
	if (!m) return null;
	const run = m[1];
	const rest = m[2];
	const char = run[0] as "`" | "~";
	// CommonMark: a backtick fence's info string may not contain backticks.
	if (char === "`" && rest.includes("`")) return null;
	return { quote, indent: indent1 + (marker ? "" : indent2), marker: marker ? marker + indent2 : "", char, length: run.length, rest };
}

function quoteDepth(quote: string): number {
	return (quote.match(/>/g) ?? []).length;
}

/**
 * How many code units of a content line are its container prefix: `depth` blockquote markers and
 * up to `indentWidth` columns of indentation; -1 when the line leaves the blockquote. (A number,
 * not the stripped text: most fences have no prefix, and a parse visits every content line.)
 */
function prefixCut(line: string, depth: number, indentWidth: number): number {
	let i = 0;
	for (let d = 0; d < depth; d++) {
		while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
		if (line[i] !== ">") return -1;
		i++;
		if (line[i] === " " || line[i] === "\t") i++;
	}
	let w = 0;
	while (w < indentWidth && i < line.length && (line[i] === " " || line[i] === "\t")) {
		w += line[i] === "\t" ? 4 : 1;
		i++;
	}
	return i;
}

/** `run` is three fence characters: a line without them cannot close the fence (most lines). */
function isClosing(content: string, run: string, length: number): boolean {
	if (!content.includes(run)) return false;
	const char = run[0];
	let n = 0;
	while (n < 3 && (content[n] === " " || content[n] === "\t")) n++;
	let count = 0;
	while (content[n] === char) {
		n++;
		count++;
	}
	if (count < length) return false;
	for (; n < content.length; n++) if (content[n] !== " " && content[n] !== "\t") return false;
	return true;
}

function widthOf(s: string): number {
	let w = 0;
	// Indentation and list markers: spaces, tabs, digits and ASCII marks, one code unit each.
	for (let i = 0; i < s.length; i++) w += s.charCodeAt(i) === 9 ? 4 : 1;
	return w;
}

/**
 * The lines of a document, 0-based: a string's, or an editor document's read in place (no copy
 * of the whole text). `line(i)` gives offsets into the whole document.
 */
export interface LineSource {
	readonly count: number;
	line(i: number): LineSpan;
}

/**
 * The lines of a string, found as they are asked for: a parse reads the text in place
 * (`scanText`) and asks for few lines (an opening fence's, a problem's), so most lines never
 * become objects. Lines asked for in order are found by walking on from the last one; the first
 * step back indexes every line start once.
 */
class TextLines implements LineSource {
	private counted = -1;
	/** Line and start offset of the last line found going forward. */
	private atLine = 0;
	private atFrom = 0;
	private starts: Int32Array | null = null;
	constructor(readonly text: string) {}

	get count(): number {
		if (this.counted < 0) {
			let n = 1;
			for (let i = this.text.indexOf("\n"); i !== -1; i = this.text.indexOf("\n", i + 1)) n++;
			this.counted = n;
		}
		return this.counted;
	}

	line(i: number): LineSpan {
		const { text } = this;
		let from: number;
		if (this.starts === null && i >= this.atLine) {
			let at = this.atLine;
			from = this.atFrom;
			while (at < i) {
				const nl = text.indexOf("\n", from);
				if (nl === -1) break;
				from = nl + 1;
				at++;
			}
			if (at !== i) throw new RangeError(`line ${i} is past the end`); // a caller's bug
			this.atLine = i;
			this.atFrom = from;
		} else {
			const starts = (this.starts ??= lineStarts(text, this.count));
			if (i < 0 || i >= starts.length) throw new RangeError(`line ${i} is past the end`);
			from = starts[i];
		}
		return spanAt(text, from);
	}
}

function lineStarts(text: string, count: number): Int32Array {
	const starts = new Int32Array(count);
	for (let i = 1, nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) starts[i++] = nl + 1;
	return starts;
}

/** The line of `text` that starts at `from`, as `splitLines` gives it. */
function spanAt(text: string, from: number): LineSpan {
	const nl = text.indexOf("\n", from);
	if (nl === -1) return { text: text.slice(from), from, to: text.length, eol: "" };
	const cr = nl > from && text.charCodeAt(nl - 1) === 13;
	const to = cr ? nl - 1 : nl;
	return { text: text.slice(from, to), from, to, eol: cr ? "\r\n" : "\n" };
}

/** The lines of a string. */
export function stringLines(markdown: string): LineSource {
	return new TextLines(markdown);
}

/** The whole text behind a line source, when it is a string's (`stringLines`): it can be scanned in place. */
export function textOf(lines: LineSource): string | null {
	return lines instanceof TextLines ? lines.text : null;
}

/**
 * Finds every fenced code block of a markdown document, runnable or not, so that
 * fences nested inside longer fences are correctly treated as content.
 * Fences may sit in lists and callouts; an unterminated fence runs to the end of its
 * container (the document, or the blockquote it opened in).
 */
export function scanFences(markdown: string): Fence[] {
	return scanText(markdown);
}

/**
 * Scans from line `start`, which must lie outside any fence. Between fences the scan carries no
 * state, so it can stop at any line outside a fence: before each such line after `start`,
 * `stop(line)` is asked. Returns the fences found and the line it stopped at (`count` at the end).
 */
export function scanLines(lines: LineSource, start: number, stop?: (line: number) => boolean): { fences: Fence[]; end: number } {
	const text = start === 0 && !stop ? textOf(lines) : null;
	if (text !== null) return { fences: scanText(text), end: lines.count };
	const fences: Fence[] = [];
	let i = start;
	while (i < lines.count) {
		if (i > start && stop?.(i)) break;
		const text = lines.line(i).text;
		const raw = i === 0 ? text.replace(/^\uFEFF/, "") : text;
		const open = readOpening(raw);
		if (!open) {
			i++;
			continue;
		}
		const fence = collectFence(lines, i, open, text.length - raw.length);
		fences.push(fence);
		i = fence.endLine + 1;
	}
	return { fences, end: Math.min(i, lines.count) };
}

/**
 * `scanLines` over a whole string, read in place: the scan jumps from one run of three fence
 * characters to the next (a line without one cannot open a fence), and a fence's lines are
 * read by offsets, so no line of the note becomes an object but a fence's content lines.
 */
export function scanText(text: string): Fence[] {
	const fences: Fence[] = [];
	eachFence(text, (fence) => fences.push(fence));
	return fences;
}

/** `scanText`, handing each fence to `visit` as it is found (nothing is kept). */
export function eachFence(text: string, visit: (fence: Fence) => void): void {
	let line = 0;
	let from = 0; // start of `line`
	let ticks = text.indexOf("```");
	let tildes = text.indexOf("~~~");
	for (;;) {
		if (ticks !== -1 && ticks < from) ticks = text.indexOf("```", from);
		if (tildes !== -1 && tildes < from) tildes = text.indexOf("~~~", from);
		const next = ticks === -1 ? tildes : tildes === -1 ? ticks : Math.min(ticks, tildes);
		if (next === -1) return;
		// Walk to the line holding it.
		let nl = text.indexOf("\n", from);
		while (nl !== -1 && nl < next) {
			from = nl + 1;
			line++;
			nl = text.indexOf("\n", from);
		}
		const end = nl === -1 ? text.length : nl;
		const to = nl !== -1 && nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : end;
		const bom = line === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
		const open = readOpening(text.slice(from + bom, to));
		if (!open) {
			if (nl === -1) return;
			from = nl + 1;
			line++;
			continue;
		}
		const fence = collectTextFence(text, line, from, to, open, bom);
		visit(fence);
		// Go on after its last line.
		const after = text.indexOf("\n", fence.to);
		if (after === -1) return;
		from = after + 1;
		line = fence.endLine + 1;
	}
}

/** `collectFence` for a fence of a string opening on line `start` (from `from` to `to`). */
function collectTextFence(text: string, start: number, from: number, to: number, open: OpenLine, bom: number): Fence {
	const depth = quoteDepth(open.quote);
	const indentWidth = widthOf(open.indent) + widthOf(open.marker);
	const plain = depth === 0 && indentWidth === 0;
	const contentLines: string[] = [];
	const contentOffsets: number[] = [];
	const char = open.char.charCodeAt(0);
	let content = "";
	let end = start;
	let endTo = to;
	let terminated = false;
	let eol = "";
	let lineFrom = text.indexOf("\n", from) + 1; // 0 when the opening line is the last
	let line = start;
	while (lineFrom > 0) {
		const nl = text.indexOf("\n", lineFrom);
		const lineTo = nl === -1 ? text.length : nl > lineFrom && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
		line++;
		const cut = plain ? 0 : prefixCut(text.slice(lineFrom, lineTo), depth, indentWidth);
		if (cut === -1) break; // the blockquote holding the fence ended: so does the fence
		const first = text.charCodeAt(lineFrom + cut);
		if ((first === char || first === 32 || first === 9) && closesAt(text, lineFrom + cut, lineTo, char, open.length)) {
			end = line;
			endTo = lineTo;
			terminated = true;
			break;
		}
		const lineText = text.slice(lineFrom + cut, lineTo);
		if (!plain) {
			content += eol + lineText;
			eol = nl === -1 ? "" : nl === lineTo ? "\n" : "\r\n";
		}
		contentLines.push(lineText);
		contentOffsets.push(lineFrom + cut);
		end = line;
		endTo = lineTo;
		lineFrom = nl + 1;
	}
	// Without a container prefix the content is the text between the fences as it stands.
	if (plain && contentLines.length > 0) {
		const last = contentLines.length - 1;
		content = text.slice(contentOffsets[0], contentOffsets[last] + contentLines[last].length);
	}
	return fenceOf(open, start, end, from + bom, endTo, contentLines, content, contentOffsets, terminated, indentWidth);
}

/** `isClosing` read in place: `text` from `from` to `to` is a content line, prefix removed. */
function closesAt(text: string, from: number, to: number, char: number, length: number): boolean {
	let n = from;
	while (n < to && n < from + 3 && (text.charCodeAt(n) === 32 || text.charCodeAt(n) === 9)) n++;
	let count = 0;
	while (n < to && text.charCodeAt(n) === char) {
		n++;
		count++;
	}
	if (count < length || count < 3) return false;
	for (; n < to; n++) if (text.charCodeAt(n) !== 32 && text.charCodeAt(n) !== 9) return false;
	return true;
}

function collectFence(src: LineSource, start: number, open: OpenLine, bom: number): Fence {
	const depth = quoteDepth(open.quote);
	const indentWidth = widthOf(open.indent) + widthOf(open.marker);
	const contentLines: string[] = [];
	const contentOffsets: number[] = [];
	const run = open.char.repeat(3);
	let content = "";
	let end = src.count - 1;
	let terminated = false;
	let eol = "";
	for (let j = start + 1; j < src.count; j++) {
		const line = src.line(j);
		const cut = depth === 0 && indentWidth === 0 ? 0 : prefixCut(line.text, depth, indentWidth);
		if (cut === -1) {
			// The blockquote holding the fence ended: so does the fence.
			end = j - 1;
			break;
		}
		const text = cut === 0 ? line.text : line.text.slice(cut);
		if (isClosing(text, run, open.length)) {
			end = j;
			terminated = true;
			break;
		}
		content += eol + text;
		eol = line.eol;
		contentLines.push(text);
		contentOffsets.push(line.from + cut);
	}
	return fenceOf(open, start, end, src.line(start).from + bom, src.line(end).to, contentLines, content, contentOffsets, terminated, indentWidth);
}

function fenceOf(open: OpenLine, start: number, end: number, from: number, to: number, contentLines: string[], content: string, contentOffsets: number[], terminated: boolean, indentWidth: number): Fence {
	const words = /^[ \t]*(\S*)[ \t]*(.*?)[ \t]*$/.exec(open.rest) ?? ["", "", ""];
	const langWritten = words[1];
	const prefix = open.quote + open.indent + open.marker;
	return {
		lang: langWritten.toLowerCase(),
		langWritten,
		info: words[2],
		char: open.char,
		length: open.length,
		prefix,
		contentPrefix: open.quote + " ".repeat(indentWidth),
		startLine: start,
		endLine: end,
		from,
		to,
		contentLines,
		content,
		contentOffsets,
		terminated,
	};
}

/** True when the fence's language names one of `BLOCK_KINDS`. */
export function isRunnable(fence: Fence): fence is Fence & { lang: BlockLanguage } {
	return isKindFence(fence.lang);
}

/** The runnable fences of a document, in order. */
export function scanRunnableFences(markdown: string): Fence[] {
	return scanFences(markdown).filter(isRunnable);
}
