/** One line of a text with its offsets; `to` excludes the line break, `next` is where the next line starts. */
export interface LineSpan {
	text: string;
	from: number;
	to: number;
	/** The line break that ends it: "\n", "\r\n", or "" for the last line. */
	eol: "" | "\n" | "\r\n";
}

/**
 * Splits text into lines keeping exact offsets and line breaks, so callers can map
 * positions back to the document and reassemble it byte for byte.
 */
export function splitLines(text: string): LineSpan[] {
	const lines: LineSpan[] = [];
	let from = 0;
	for (;;) {
		const nl = text.indexOf("\n", from);
		if (nl === -1) {
			lines.push({ text: text.slice(from), from, to: text.length, eol: "" });
			return lines;
		}
		const cr = nl > from && text.charCodeAt(nl - 1) === 13;
		const to = cr ? nl - 1 : nl;
		lines.push({ text: text.slice(from, to), from, to, eol: cr ? "\r\n" : "\n" });
		from = nl + 1;
	}
}

/** True for a line that is empty or holds only spaces and tabs. */
export function isBlank(line: string): boolean {
	for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) return false;
	return true;
}

/** A line break as notes write it. */
export type LineBreak = "\n" | "\r\n";

/**
 * The text as an editor holds it: every line break one "\n". CodeMirror (Obsidian's editor and
 * the diff panes) reads "\r\n" and a lone "\r" as a break and gives "\n" back, so a note's text
 * and an editor's are compared in this form only.
 */
export function editorText(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

/** `text` with every line break written as `eol`: editor text going back into a note. */
export function withLineBreaks(text: string, eol: LineBreak): string {
	const lf = editorText(text);
	return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}

/** The line break most of a text's lines end with ("\n" on a tie), or null when it has none. */
export function dominantBreak(text: string): LineBreak | null {
	let lf = 0;
	let crlf = 0;
	for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) {
		if (nl > 0 && text.charCodeAt(nl - 1) === 13) crlf++;
		else lf++;
	}
	if (lf + crlf === 0) return null;
	return crlf > lf ? "\r\n" : "\n";
}
