/**
 * Typing narrows a Mod+K search: the entries that match a query, each with the alignment row of
 * its last word (`fuzzy-match.ts`), are all the next keystroke needs. A typed character extends
 * each row by one step of the recurrence instead of aligning the whole query again, and only
 * the entries still matching are visited. Pure: a step returns a new value.
 */
import { bestInRow, extendRow, RowBuffer, type Prepared } from "./fuzzy-match";

/** The entries matching `words`, in their given order, with what the next keystroke needs of each. */
export interface Narrowed {
	/** Lower-cased query words (`queryWords`). */
	words: readonly string[];
	count: number;
	/** Per match: its index in the searched texts (ascending). */
	orders: Int32Array;
	/** Per match: the summed scores of every word but the last. */
	before: Int32Array;
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

/**
 * The matches of `words` among `texts`: from `from` when `isTypedFurther(from.words, words)`
 * (only its matches are visited, their rows extended), else from scratch (`from` null).
 */
export function narrow(texts: readonly Prepared[], from: Narrowed | null, words: readonly string[]): Narrowed {
	const total = from ? from.count : texts.length;
	const out: Narrowed = {
		words,
		count: 0,
		orders: new Int32Array(total),
		before: new Int32Array(total),
		rowStart: new Int32Array(total),
		rowEnd: new Int32Array(total),
		// About as many triples as the rows being extended, or a few per text from scratch.
		rows: new RowBuffer(from ? from.rows.length / 3 + total : total * 8),
	};
	const rows = out.rows;
	// Where typing resumes: the word that was last in `from` and how much of it is already aligned.
	const resumeWord = from && from.words.length > 0 ? from.words.length - 1 : 0;
	const resumeChar = from && from.words.length > 0 ? from.words[resumeWord].length : 0;
	for (let c = 0; c < total; c++) {
		const order = from ? from.orders[c] : c;
		const text = texts[order];
		let before = from ? from.before[c] : 0;
		let src = from ? from.rows.data : rows.data;
		let start = from && resumeChar > 0 ? from.rowStart[c] : -1;
		let end = from && resumeChar > 0 ? from.rowEnd[c] : -1;
		let ok = true;
		for (let w = resumeWord; ok && w < words.length; w++) {
			if (w > resumeWord || resumeChar === 0) {
				if (w > resumeWord) before += src[bestInRow(src, start, end) + 1];
				start = -1;
			}
			const word = words[w];
			for (let i = w === resumeWord ? resumeChar : 0; i < word.length; i++) {
				const at = rows.length;
				extendRow(src, start, end, word[i], text, rows);
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
	return n.before[c] + n.rows.data[bestInRow(n.rows.data, n.rowStart[c], n.rowEnd[c]) + 1];
}
