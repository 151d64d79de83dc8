import { kindOf, type BlockLanguage } from "./kinds";
import { splitLines, type LineSpan } from "./lines";

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
	const c = CONTAINER.exec(text);
	if (!c) return null;
	const [whole, quote, indent1, marker = "", indent2] = c;
	const m = FENCE_RUN.exec(text.slice(whole.length));
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
	for (const ch of s) w += ch === "\t" ? 4 : 1;
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

/** The lines of a string. */
export function stringLines(markdown: string): LineSource {
	const lines = splitLines(markdown);
	return { count: lines.length, line: (i) => lines[i] };
}

/**
 * Finds every fenced code block of a markdown document, runnable or not, so that
 * fences nested inside longer fences are correctly treated as content.
 * Fences may sit in lists and callouts; an unterminated fence runs to the end of its
 * container (the document, or the blockquote it opened in).
 */
export function scanFences(markdown: string): Fence[] {
	return scanLines(stringLines(markdown), 0).fences;
}

/**
 * Scans from line `start`, which must lie outside any fence. Between fences the scan carries no
 * state, so it can stop at any line outside a fence: before each such line after `start`,
 * `stop(line)` is asked. Returns the fences found and the line it stopped at (`count` at the end).
 */
export function scanLines(lines: LineSource, start: number, stop?: (line: number) => boolean): { fences: Fence[]; end: number } {
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
		from: src.line(start).from + bom,
		to: src.line(end).to,
		contentLines,
		content,
		contentOffsets,
		terminated,
	};
}

/** True when the fence's language names one of `BLOCK_KINDS`. */
export function isRunnable(fence: Fence): fence is Fence & { lang: BlockLanguage } {
	return kindOf(fence.lang) !== undefined;
}

/** The runnable fences of a document, in order. */
export function scanRunnableFences(markdown: string): Fence[] {
	return scanFences(markdown).filter(isRunnable);
}
