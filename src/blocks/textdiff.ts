import { aliasToken, enumToken, flagToken } from "./info";
import { defineKind, type TokenSpec, type TokensOf } from "./kind";
import { splitLines, type LineBreak } from "./lines";
import { warning, type BlockProblem } from "./problems";

/**
 * The ```` ```textdiff ```` fence (docs/blocks.md "Diff blocks"): the left pane,
 * one separator line, the right pane.
 *
 * - The separator is the first content line that is exactly `=== right ===` (no other text, no
 *   blanks around it). Everything after it is the right pane, as written.
 * - A left-pane line that is the separator preceded by backslashes (`=== right ===`,
 *   `\=== right ===`, …) is written with one more backslash, and read with one less. The right
 *   pane needs no escape: only the first separator splits.
 * - The line breaks around the separator belong to it, so a pane never ends with a line break
 *   of its own; a pane that is one empty line is written as an empty line.
 *
 * Reading and writing are exact inverses: `serializeTextdiff(parseTextdiff(c).model) === c` for
 * any content c, CRLF, trailing blanks and the separator itself included.
 */
export const TEXTDIFF_SEPARATOR = "=== right ===";

const ESCAPED = /^\\*=== right ===$/;

export interface TextdiffModel {
	left: string;
	right: string;
	/** False when the content has no separator line: everything is the left pane. */
	separated: boolean;
	/**
	 * Line breaks before and after the separator as written ("\n" or "\r\n"); "" where the
	 * separator is the first (before) or last (after) content line.
	 */
	breaks: readonly [string, string];
	/** 0-based content line of the separator (the content's line count when there is none). */
	separatorLine: number;
	/** 0-based content lines of the left pane written with an escape backslash. */
	escapedLines: readonly number[];
}

export interface ParsedTextdiff {
	model: TextdiffModel;
	/** 0-based lines within the content. */
	problems: BlockProblem[];
}

/**
 * Where `SEPARATOR` stands alone on a line (lines end at \n, a \r before it belongs to the break,
 * as in splitLines), at or after `from`: the offset of the separator and of its line, whose
 * start may hold backslashes. Scans with indexOf: a long pane is not split into lines.
 */
function nextSeparatorLike(content: string, from: number): { at: number; lineStart: number; end: number } | null {
	for (let at = content.indexOf(TEXTDIFF_SEPARATOR, from); at !== -1; at = content.indexOf(TEXTDIFF_SEPARATOR, at + 1)) {
		let lineStart = at;
		while (lineStart > 0 && content.charCodeAt(lineStart - 1) === 92) lineStart--; // backslashes
		if (lineStart > 0 && content.charCodeAt(lineStart - 1) !== 10) continue;
		const end = at + TEXTDIFF_SEPARATOR.length;
		if (end === content.length || content[end] === "\n" || (content[end] === "\r" && content[end + 1] === "\n")) return { at, lineStart, end };
	}
	return null;
}

/** 0-based line of an offset (the number of \n before it). */
function lineOf(content: string, offset: number): number {
	let n = 0;
	for (let i = content.indexOf("\n"); i !== -1 && i < offset; i = content.indexOf("\n", i + 1)) n++;
	return n;
}

/** Reads a textdiff fence's content. Pure, never throws. */
export function parseTextdiff(content: string): ParsedTextdiff {
	// The separator: the first separator-like line without backslashes; the escaped ones above it lose one.
	const escaped: number[] = [];
	let sep: { at: number; end: number } | null = null;
	for (let found = nextSeparatorLike(content, 0); found; found = nextSeparatorLike(content, found.end)) {
		if (found.at === found.lineStart) {
			sep = found;
			break;
		}
		escaped.push(found.lineStart);
	}
	const leftEnd = sep === null ? content.length : sep.at;
	// The break before the separator is its own, not the left pane's.
	const before = sep === null || sep.at === 0 ? "" : content[sep.at - 2] === "\r" ? "\r\n" : "\n";
	let left = "";
	let from = 0;
	for (const at of escaped) {
		left += content.slice(from, at);
		from = at + 1; // one backslash less
	}
	left += content.slice(from, leftEnd - before.length);
	const escapedLines = escaped.map((at) => lineOf(content, at));
	if (sep === null) {
		const lines = lineOf(content, content.length) + 1;
		return {
			model: { left, right: "", separated: false, breaks: ["", ""], separatorLine: lines, escapedLines },
			problems: [warning("missing_separator", `The diff has no "${TEXTDIFF_SEPARATOR}" line: everything is the left pane`, lines - 1)],
		};
	}
	const after = content.startsWith("\r\n", sep.end) ? "\r\n" : content[sep.end] === "\n" ? "\n" : "";
	const right = content.slice(sep.end + after.length);
	return { model: { left, right, separated: true, breaks: [before, after], separatorLine: lineOf(content, sep.at), escapedLines }, problems: [] };
}

/** A left-pane line as written in the fence. */
export function escapeLeftLine(line: string): string {
	return ESCAPED.test(line) ? `\\${line}` : line;
}

/** Writes the left pane: every line escaped, line breaks as they are. */
function writeLeft(left: string): string {
	let out = "";
	for (const line of splitLines(left)) out += escapeLeftLine(line.text) + line.eol;
	return out;
}

/** The pane texts a new fence is written from; breaks default to `eol`. */
export interface TextdiffPanes {
	left: string;
	right: string;
	separated?: boolean;
	breaks?: readonly [string, string];
	/** The line break written where the content has none yet (around a new separator); "\n" by default. */
	eol?: LineBreak;
}

/** The content of a textdiff fence holding these panes (the inverse of parseTextdiff). */
export function serializeTextdiff(panes: TextdiffPanes): string {
	const left = writeLeft(panes.left);
	if (panes.separated === false && panes.right === "") return left;
	const eol = panes.eol ?? "\n";
	const [before, after] = panes.breaks ?? [eol, eol];
	// "" is only right next to the fence: a pane with text needs its line break.
	const b = before === "" && panes.left !== "" ? eol : before;
	const a = after === "" && panes.right !== "" ? eol : after;
	return `${left}${b}${TEXTDIFF_SEPARATOR}${a}${panes.right}`;
}

/**
 * A whole ```` ```textdiff ```` fence, each line after `prefix` (indentation or `> `), its
 * backtick run longer than any run a content line starts with, so no pane line can close it.
 */
export function textdiffFence(panes: TextdiffPanes, info = "", prefix = ""): string {
	const content = serializeTextdiff({ breaks: ["\n", "\n"], ...panes });
	const fence = "`".repeat(fenceLength(content));
	const lines = [`${fence}textdiff${info ? ` ${info}` : ""}`, ...content.split("\n"), fence];
	return lines.map((l) => prefix + l).join("\n") + "\n";
}

/** 3, or one more than the longest backtick run opening a content line. */
export function fenceLength(content: string): number {
	let longest = 2;
	for (const m of content.matchAll(/^[ \t]*(`+)/gm)) longest = Math.max(longest, m[1].length);
	return longest + 1;
}

/** `language=json`: the panes' syntax, a language name as code fences write it. */
const languageToken: TokenSpec<"language", string> = {
	key: "language",
	form: "value",
	expects: "use a language name such as json, xml or sql",
	read: (text) => (/^[A-Za-z0-9_+#.-]+$/.test(text) ? text.toLowerCase() : undefined),
};

/** The textdiff info tokens, in canonical order (docs/blocks.md, "Diff blocks"). */
export const TEXTDIFF_TOKENS = [
	aliasToken,
	enumToken("mode", ["split", "unified"]),
	flagToken("ignore_whitespace"),
	flagToken("ignore_case"),
	languageToken,
	enumToken("normalize", ["json"]),
] as const;

export type TextdiffTokens = TokensOf<typeof TEXTDIFF_TOKENS>;

/** The ```` ```textdiff ```` kind: two panes and their options; nothing to run. */
export const textdiffKind = defineKind({
	language: "textdiff",
	tokens: TEXTDIFF_TOKENS,
	parse: (content) => ({ ...parseTextdiff(content), alias: null }),
});

/** How a textdiff block is shown and compared, defaults applied. */
export interface TextdiffOptions {
	mode: "split" | "unified";
	ignoreWhitespace: boolean;
	ignoreCase: boolean;
	/** Syntax of both panes (`json`, `sql`, …), or null for plain text. */
	language: string | null;
	normalize: "json" | null;
}

export function textdiffOptions(tokens: TextdiffTokens): TextdiffOptions {
	return {
		mode: tokens.mode ?? "split",
		ignoreWhitespace: tokens.ignore_whitespace === true,
		ignoreCase: tokens.ignore_case === true,
		language: tokens.language ?? null,
		normalize: tokens.normalize ?? null,
	};
}
