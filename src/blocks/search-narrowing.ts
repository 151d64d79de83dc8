/**
 * Typing narrows a Mod+K search: the entries that match a query, each with the alignment row of
 * its last word (`fuzzy-match.ts`), are all the next keystroke needs. A typed character extends
 * each row by one step of the recurrence instead of aligning the whole query again, and only
 * the entries still matching are visited. Pure: a step returns a new value (reusing, when given,
 * the buffers of a spare one).
 */
import { extendRow, RowBuffer, type PackedTexts } from "./fuzzy-match";

/** The entries matching `words`, in their given order, with what the next keystroke needs of each. */
export interface Narrowed {
	/** Lower-cased query words (`queryWords`). */
	words: readonly string[];
	count: number;
	/** Per match: its index in the searched texts (ascending). */
	orders: Int32Array;
	/** Per match: the summed scores of every word but the last. */
	before: Int32Array;
	/** Per match: its score, `before` plus the best of its last word's row. */
	scores: Int32Array;
	/** Per match: its last word's row, `rows.data[rowStart, rowEnd)`. */
	rowStart: Int32Array;
	rowEnd: Int32Array;
	rows: RowBuffer;
}

/** True when `to` is `from` typed further: the last word longer, or words added after it. */
export function isTypedFurther(from: readonly string[], to: readonly string[]): boolean {
	if (from.length === 0) return true;
	if (to.length < from.length) return false;
	const last = from.length - 1;
	for (let i = 0; i < last; i++) if (from[i] !== to[i]) return false;
	return to[last].startsWith(from[last]);
}

/** `spare`'s arrays when they are large enough, else new ones: a keystroke then allocates nothing. */
function emptyNarrowed(words: readonly string[], total: number, triples: number, spare: Narrowed | null): Narrowed {
	const fits = (a: Int32Array | undefined): a is Int32Array => a !== undefined && a.length >= total;
	const ints = (a: Int32Array | undefined) => (fits(a) ? a : new Int32Array(total));
	const rows = spare?.rows ?? new RowBuffer(triples);
	rows.length = 0;
	return {
		words,
		count: 0,
		orders: ints(spare?.orders),
		before: ints(spare?.before),
		scores: ints(spare?.scores),
		rowStart: ints(spare?.rowStart),
		rowEnd: ints(spare?.rowEnd),
		rows,
	};
}

/**
 * The matches of `words` among `texts`: from `from` when `isTypedFurther(from.words, words)`
 * (only its matches are visited, their rows extended), else from scratch (`from` null).
 * `spare`, a narrowing no longer needed (not `from`), lends its buffers to the result.
 */
export function narrow(texts: PackedTexts, from: Narrowed | null, words: readonly string[], spare: Narrowed | null = null): Narrowed {
	const total = from ? from.count : texts.starts.length;
	const { data, starts } = texts;
	// About as many triples as the rows being extended, or a few per text from scratch.
	const out = emptyNarrowed(words, total, from ? from.rows.length / 3 + total : total * 8, spare);
	const rows = out.rows;
	// Where typing resumes: the word that was last in `from` and how much of it is already aligned.
	const resumeWord = from && from.words.length > 0 ? from.words.length - 1 : 0;
	const resumeChar = from && from.words.length > 0 ? from.words[resumeWord].length : 0;
	for (let c = 0; c < total; c++) {
		const order = from ? from.orders[c] : c;
		const textAt = starts[order];
		let before = from ? from.before[c] : 0;
		let src = from ? from.rows.data : rows.data;
		let start = from && resumeChar > 0 ? from.rowStart[c] : -1;
		let end = from && resumeChar > 0 ? from.rowEnd[c] : -1;
		// The best of the row src[start, end).
		let best = from && resumeChar > 0 ? from.scores[c] - before : 0;
		let ok = true;
		for (let w = resumeWord; ok && w < words.length; w++) {
			if (w > resumeWord || resumeChar === 0) {
				if (w > resumeWord) before += best;
				start = -1;
			}
			const word = words[w];
			for (let i = w === resumeWord ? resumeChar : 0; i < word.length; i++) {
				const at = rows.length;
				best = extendRow(src, start, end, word.charCodeAt(i), data, textAt, rows);
				src = rows.data;
				start = at;
				end = rows.length;
				if (start === end) {
					ok = false;
					break;
				}
			}
		}
		if (!ok) continue;
		const n = out.count++;
		out.orders[n] = order;
		out.before[n] = before;
		out.scores[n] = before + best;
		if (src === rows.data) {
			out.rowStart[n] = start;
			out.rowEnd[n] = end;
		} else {
			// Nothing typed since `from` (same words): the row stays where it was; copy it over.
			out.rowStart[n] = rows.length;
			for (let k = start; k < end; k += 3) rows.push(src[k], src[k + 1], src[k + 2]);
			out.rowEnd[n] = rows.length;
		}
	}
	return out;
}

/** A match's score: its earlier words plus the best of its last word's row. */
export function narrowedScore(n: Narrowed, c: number): number {
	return n.scores[c];
}
