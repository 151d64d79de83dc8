import { lineBreakOf, serializeCanonical, toCanonicalRequest, type CanonicalRequest } from "./http";
import { withToken } from "./info";
import { kindOf } from "./kinds";
import type { HttpMethod } from "./methods";
import type { NoteBlock } from "./note";

/**
 * A replacement in the note text. Edits are computed as data so the UI can apply them
 * as one editor transaction (undoable) or through the vault when no editor is open.
 */
export interface TextChange {
	from: number;
	to: number;
	insert: string;
}

export function applyChange(text: string, change: TextChange): string {
	return text.slice(0, change.from) + change.insert + text.slice(change.to);
}

/** Rewrites the fence line with one token of the block's kind set (or removed), in canonical order. */
export function setInfoToken<B extends NoteBlock>(markdown: string, block: B, key: keyof B["info"]["tokens"] & string, value: string | null): TextChange {
	const { fence } = block;
	const info = withToken(block.info.words, kindOf(block.kind)?.tokens ?? [], key, value);
	const lineEnd = markdown.indexOf("\n", fence.from);
	const to = lineEnd === -1 ? markdown.length : markdown[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
	return { from: fence.from, to, insert: `${fence.prefix}${fence.char.repeat(fence.length)}${fence.langWritten}${info ? ` ${info}` : ""}` };
}

/** The canonical info rewrite of docs/blocks.md, or null when the line is already canonical or has errors. */
export function canonicalizeFenceLine(markdown: string, block: NoteBlock): TextChange | null {
	if (block.info.problems.some((p) => p.severity === "error")) return null;
	const lineEnd = markdown.indexOf("\n", block.fence.from);
	const to = lineEnd === -1 ? markdown.length : markdown[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
	const current = markdown.slice(block.fence.from, to);
	return current === block.canonicalFenceLine ? null : { from: block.fence.from, to, insert: block.canonicalFenceLine };
}

/** Replaces the block's content (between the fences) with new text, re-adding the container prefix. */
export function replaceContent(markdown: string, block: NoteBlock, content: string): TextChange {
	const { fence } = block;
	const eol = markdown.includes("\r\n") ? "\r\n" : "\n";
	const lines = content.split(/\r?\n/);
	const prefixed = lines.map((l) => (l === "" ? fence.contentPrefix.trimEnd() : fence.contentPrefix + l)).join(eol);
	const firstLineEnd = markdown.indexOf("\n", fence.from) + 1;
	if (fence.contentLines.length === 0) {
		// Empty block: insert the content right after the opening line.
		return { from: firstLineEnd, to: firstLineEnd, insert: prefixed + eol };
	}
	const lastStart = fence.contentOffsets[fence.contentOffsets.length - 1];
	const lastLineEnd = markdown.indexOf("\n", lastStart);
	const end = lastLineEnd === -1 ? markdown.length : markdown[lastLineEnd - 1] === "\r" ? lastLineEnd - 1 : lastLineEnd;
	return { from: firstLineEnd, to: end, insert: prefixed };
}

/** Writes a form-mode edit of the request back as canonical HTTP-message text. */
export function writeCanonicalRequest(markdown: string, block: NoteBlock, request: CanonicalRequest): TextChange {
	const eol = block.kind === "http" ? lineBreakOf(block.http) : "\n";
	return replaceContent(markdown, block, serializeCanonical(request, eol));
}

/** Changes the method word of the request line (or prefixes a bare URL line). */
export function setMethod(markdown: string, block: NoteBlock, method: HttpMethod): TextChange | null {
	if (block.kind !== "http" || block.http.requestLine < 0) return null;
	const http = block.http;
	const start = block.fence.contentOffsets[http.requestLine];
	const line = http.lines[http.requestLine].text;
	const lead = /^[ \t]*/.exec(line)?.[0].length ?? 0;
	if (http.methodWritten === null) return { from: start + lead, to: start + lead, insert: `${method} ` };
	return { from: start + lead, to: start + lead + http.methodWritten.length, insert: method };
}

/** The block's editable request, for the form editor. */
export function editableRequest(block: NoteBlock): CanonicalRequest | null {
	return block.kind === "http" ? toCanonicalRequest(block.http) : null;
}
