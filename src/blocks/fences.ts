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

/** Strips `depth` blockquote markers and up to `indentWidth` columns of indentation from a content line. */
function stripPrefix(line: string, depth: number, indentWidth: number): { text: string; cut: number } | null {
	let i = 0;
	for (let d = 0; d < depth; d++) {
		while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
		if (line[i] !== ">") return null;
		i++;
		if (line[i] === " " || line[i] === "\t") i++;
	}
	let w = 0;
	while (w < indentWidth && i < line.length && (line[i] === " " || line[i] === "\t")) {
		w += line[i] === "\t" ? 4 : 1;
		i++;
	}
	return { text: line.slice(i), cut: i };
}

function isClosing(content: string, char: string, length: number): boolean {
	if (!content.includes(char.repeat(3))) return false;
	const t = content.replace(/^[ \t]{0,3}/, "");
	let n = 0;
	while (t[n] === char) n++;
	return n >= length && /^[ \t]*$/.test(t.slice(n));
}

function widthOf(s: string): number {
	let w = 0;
	for (const ch of s) w += ch === "\t" ? 4 : 1;
	return w;
}

/**
 * Finds every fenced code block of a markdown document, runnable or not, so that
 * fences nested inside longer fences are correctly treated as content.
 * Fences may sit in lists and callouts; an unterminated fence runs to the end of its
 * container (the document, or the blockquote it opened in).
 */
export function scanFences(markdown: string): Fence[] {
	const lines = splitLines(markdown);
	const fences: Fence[] = [];
	let i = 0;
	while (i < lines.length) {
		const raw = i === 0 ? lines[i].text.replace(/^\uFEFF/, "") : lines[i].text;
		const bom = lines[i].text.length - raw.length;
		const open = readOpening(raw);
		if (!open) {
			i++;
			continue;
		}
		const fence = collectFence(lines, i, open, bom);
		fences.push(fence);
		i = fence.endLine + 1;
	}
	return fences;
}

function collectFence(lines: LineSpan[], start: number, open: OpenLine, bom: number): Fence {
	const depth = quoteDepth(open.quote);
	const indentWidth = widthOf(open.indent) + widthOf(open.marker);
	const contentLines: string[] = [];
	const contentOffsets: number[] = [];
	const eols: string[] = [];
	let end = lines.length - 1;
	let terminated = false;
	for (let j = start + 1; j < lines.length; j++) {
		const stripped = stripPrefix(lines[j].text, depth, indentWidth);
		if (stripped === null) {
			// The blockquote holding the fence ended: so does the fence.
			end = j - 1;
			break;
		}
		if (isClosing(stripped.text, open.char, open.length)) {
			end = j;
			terminated = true;
			break;
		}
		contentLines.push(stripped.text);
		contentOffsets.push(lines[j].from + stripped.cut);
		eols.push(lines[j].eol);
	}
	const words = /^[ \t]*(\S*)[ \t]*(.*?)[ \t]*$/.exec(open.rest) ?? ["", "", ""];
	const langWritten = words[1];
	let content = "";
	for (let k = 0; k < contentLines.length; k++) {
		content += contentLines[k] + (k < contentLines.length - 1 ? eols[k] : "");
	}
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
		from: lines[start].from + bom,
		to: lines[end].to,
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
