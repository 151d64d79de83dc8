import { scanLines, type Fence, type LineSource } from "./fences";
import { kindOfFence } from "./kinds";
import { parseFence, withNoteRules, type NoteBlock, type NoteParse } from "./note";
import type { BlockProblem } from "./problems";
import type { Reference } from "./references";

/**
 * One edit of a note, as the range it replaced: the text from `from` (0-based offset, on 0-based
 * line `fromLine`, the same in both texts) to `toA` in the old text became the text up to `toB`
 * in the new one. Several changes of one transaction are given as the range covering them all.
 */
export interface NoteEdit {
	from: number;
	fromLine: number;
	toA: number;
	/** Line of `toA` in the old text. */
	toLineA: number;
	toB: number;
	/** Line of `toB` in the new text. */
	toLineB: number;
}

/**
 * The parse of a note after an edit, from its parse before: fences before the edit are kept as
 * they are, the scan restarts at the fence the edit touches (or its line) and stops at the first
 * line after the edit that lies outside any fence in both texts (the scan carries no state there,
 * so the rest is the old parse moved by the edit's length). Equal to `parseNoteLines(lines)`.
 */
export function reparseNote(prev: NoteParse, lines: LineSource, edit: NoteEdit): NoteParse {
	const old = prev.fences;
	const dLine = edit.toLineB - edit.toLineA;
	const dOff = edit.toB - edit.toA;
	// Fences before the edit stay; one the edit touches is scanned again from its opening line.
	let keep = 0;
	while (keep < old.length && !reaches(old[keep], edit.fromLine)) keep++;
	const start = keep < old.length ? Math.min(old[keep].startLine, edit.fromLine) : edit.fromLine;

	let next = keep; // the first old fence not yet behind the scan
	let resume = -1; // where the old parse takes over
	const scanned = scanLines(lines, start, (i) => {
		if (i <= edit.toLineB) return false;
		const j = i - dLine; // the same line in the old text
		while (next < old.length && old[next].endLine < j) next++;
		if (next < old.length && old[next].startLine < j) return false; // inside an old fence
		resume = next;
		return true;
	}).fences;

	const fences: Fence[] = old.slice(0, keep).concat(scanned);
	const local: Array<NoteBlock | null> = prev.local.slice(0, keep);
	let index = local.reduce((n, b) => (b ? n + 1 : n), 0);
	for (const fence of scanned) {
		const kind = kindOfFence(fence);
		local.push(kind ? parseFence(kind, fence, index++, lines) : null);
	}
	if (resume >= 0) {
		for (let k = resume; k < old.length; k++) {
			const fence = moveFence(old[k], dOff, dLine);
			const block = prev.local[k];
			fences.push(fence);
			local.push(block ? moveBlock(block, fence, dOff, dLine, index++) : null);
		}
	}
	return withNoteRules(fences, local, lines);
}

/** True when an edit starting on `line` can change how `fence` is read. */
function reaches(fence: Fence, line: number): boolean {
	// An unterminated fence in a blockquote ends where the quote does: the next line decides.
	return fence.endLine + (fence.terminated ? 0 : 1) >= line;
}

// Moving is the cost of a keystroke above a thousand blocks: fixed-shape literals and plain
// loops rather than spreads and map(), which are several times slower here (bench/editor).

function moveFence(f: Fence, dOff: number, dLine: number): Fence {
	if (dOff === 0 && dLine === 0) return f;
	const contentOffsets = new Array<number>(f.contentOffsets.length);
	for (let k = 0; k < contentOffsets.length; k++) contentOffsets[k] = f.contentOffsets[k] + dOff;
	return {
		lang: f.lang,
		langWritten: f.langWritten,
		info: f.info,
		char: f.char,
		length: f.length,
		prefix: f.prefix,
		contentPrefix: f.contentPrefix,
		startLine: f.startLine + dLine,
		endLine: f.endLine + dLine,
		from: f.from + dOff,
		to: f.to + dOff,
		contentLines: f.contentLines,
		content: f.content,
		contentOffsets,
		terminated: f.terminated,
	};
}

function moveProblems(problems: BlockProblem[], dLine: number): BlockProblem[] {
	if (dLine === 0 || problems.length === 0) return problems;
	return problems.map((p) => ({ code: p.code, message: p.message, line: p.line + dLine, column: p.column, severity: p.severity }));
}

/** A block the edit did not touch, at its new place: note offsets and lines move, content-relative parts stay. */
function moveBlock(b: NoteBlock, fence: Fence, dOff: number, dLine: number, index: number): NoteBlock {
	if (fence === b.fence && index === b.index) return b;
	let references = b.references;
	if (dOff !== 0) {
		references = new Array<Reference>(b.references.length);
		for (let k = 0; k < references.length; k++) {
			const r = b.references[k];
			references[k] = { text: r.text, inner: r.inner, start: r.start + dOff, end: r.end + dOff, kind: r.kind };
		}
	}
	const info = dLine === 0 ? b.info : { tokens: b.info.tokens, words: b.info.words, problems: moveProblems(b.info.problems, dLine) };
	const moved = {
		kind: b.kind,
		fence,
		info,
		alias: b.alias,
		aliasSource: b.aliasSource,
		canonicalFenceLine: b.canonicalFenceLine,
		references,
		problems: moveProblems(b.problems, dLine),
		runnable: b.runnable,
		index,
	};
	// The kind's model, under its language (`http`), is content-relative: it moves as it is.
	(moved as Record<string, unknown>)[b.kind] = (b as unknown as Record<string, unknown>)[b.kind];
	return moved as NoteBlock;
}
