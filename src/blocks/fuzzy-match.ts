/**
 * The fuzzy matcher of Mod+K search (DESIGN.md §6): query words as case-insensitive
 * subsequences of a text, scored in the spirit of fzf. Pure, no state.
 *
 * One recurrence, `extendRow`, scores a word one character at a time: the shown results keep
 * every row to trace the matched characters, and the search index keeps the last row per entry
 * so that the next keystroke extends it instead of starting over.
 */

export interface FuzzyMatch {
	score: number;
	/** Matched ranges of the text, `[start, end)`, sorted and non-overlapping. */
	matches: Array<[number, number]>;
}

export interface FuzzyOptions {
	/** Ranges `[start, end)` of the text whose matched characters score extra (an alias). */
	boost?: ReadonlyArray<readonly [number, number]>;
}

// Every matched character scores, runs and word starts score more, gaps cost a little.
const SCORE_MATCH = 16;
const BONUS_BOUNDARY = 8;
const BONUS_CAMEL = 6;
const BONUS_CONSECUTIVE = 8;
const FIRST_CHAR_MULTIPLIER = 2;
const GAP_START = 5;
const GAP_EXTEND = 1;
const BONUS_BOOST = 6;
const NONE = -Infinity;

/** A text ready for matching: lower-cased (index for index) and a bonus per position, computed once. */
export interface Prepared {
	text: string;
	/** `text` lower-cased one UTF-16 unit at a time, so that positions stay valid. */
	lower: string;
	/** What matching each position is worth beyond SCORE_MATCH (word starts, humps, boosted ranges). */
	bonus: Uint8Array;
}

/** Lower-cases one UTF-16 unit at a time so that indices in the text stay valid. */
export function lowerUnits(text: string): string {
	let out = "";
	for (let i = 0; i < text.length; i++) {
		const l = text[i].toLowerCase();
		out += l.length === 1 ? l : text[i];
	}
	return out;
}

/** The whitespace-separated words of a query, lower-cased as texts are. */
export function queryWords(query: string): string[] {
	return query
		.split(/\s+/)
		.filter((w) => w !== "")
		.map(lowerUnits);
}

function isWordChar(ch: string): boolean {
	return /[\p{L}\p{N}]/u.test(ch);
}

/** Word starts and camelCase humps (a digit after a non-digit counts as one). */
function positionBonus(text: string, i: number): number {
	if (!isWordChar(text[i])) return 0;
	if (i === 0 || !isWordChar(text[i - 1])) return BONUS_BOUNDARY;
	const prev = text[i - 1];
	const cur = text[i];
	if (prev !== prev.toUpperCase() && cur !== cur.toLowerCase()) return BONUS_CAMEL;
	if (!/\p{N}/u.test(prev) && /\p{N}/u.test(cur)) return BONUS_CAMEL;
	return 0;
}

export function prepareText(text: string, options: FuzzyOptions = {}): Prepared {
	const bonus = new Uint8Array(text.length);
	for (let i = 0; i < text.length; i++) bonus[i] = positionBonus(text, i);
	for (const [start, end] of options.boost ?? []) {
		for (let i = Math.max(0, start); i < Math.min(end, text.length); i++) bonus[i] += BONUS_BOOST;
	}
	return { text, lower: lowerUnits(text), bonus };
}

/**
 * Rows of word alignments, appended to one growing Int32Array (scores are whole numbers). A row
 * is the range `[start, end)` of its triples `j, score, from`: for every position `j` where the
 * word's character `i` can sit with `0..i` matched in order, the best score of that prefix ending
 * at `j` and where character `i - 1` sits (-1 for the first), by increasing `j`; an empty range
 * when the prefix is not a subsequence. Sparse: only positions holding the character appear.
 * Searching 5,000 entries keeps one row each in a single buffer, not 5,000 arrays.
 */
export class RowBuffer {
	data: Int32Array;
	length = 0;

	/** `capacity`: triples expected; the buffer doubles when they are more. */
	constructor(capacity = 64) {
		this.data = new Int32Array(Math.max(3, capacity * 3));
	}

	push(j: number, score: number, from: number): void {
		if (this.length + 3 > this.data.length) {
			const grown = new Int32Array(this.data.length * 2);
			grown.set(this.data);
			this.data = grown;
		}
		const d = this.data;
		d[this.length] = j;
		d[this.length + 1] = score;
		d[this.length + 2] = from;
		this.length += 3;
	}
}

/**
 * The recurrence: appends to `out` the row of the word's next character `ch`, given the row of
 * the previous one, `prev[start, end)`, or `start < 0` when `ch` is the word's first character.
 * Reaching `j` costs a consecutive step from `j - 1`, or a gap from any `k <= j - 2` (GAP_START
 * plus GAP_EXTEND per skipped position); the best is kept, the earliest `k` among equals, a run
 * before a gap of the same score. `prev` may be `out.data`: growing `out` leaves it readable.
 */
export function extendRow(prev: Int32Array, start: number, end: number, ch: string, p: Prepared, out: RowBuffer): void {
	const { lower, bonus } = p;
	if (start < 0) {
		for (let j = lower.indexOf(ch); j !== -1; j = lower.indexOf(ch, j + 1)) out.push(j, SCORE_MATCH + bonus[j] * FIRST_CHAR_MULTIPLIER, -1);
		return;
	}
	if (start === end) return;
	let k = start;
	// Best of prev score + GAP_EXTEND * position over the positions passed, for a gap before j.
	let gapBest = NONE;
	let gapArg = -1;
	for (let j = lower.indexOf(ch, prev[start] + 1); j !== -1; j = lower.indexOf(ch, j + 1)) {
		for (; k < end && prev[k] <= j - 2; k += 3) {
			const v = prev[k + 1] + GAP_EXTEND * prev[k];
			if (v > gapBest) {
				gapBest = v;
				gapArg = prev[k];
			}
		}
		let best = NONE;
		let arg = -1;
		if (k < end && prev[k] === j - 1) {
			best = prev[k + 1] + BONUS_CONSECUTIVE;
			arg = j - 1;
		}
		// j > prev[start]: either j - 1 is that position (a run) or it is <= j - 2 (a gap), so best is finite.
		if (gapBest !== NONE) {
			const viaGap = gapBest - GAP_START - GAP_EXTEND * (j - 2);
			if (viaGap > best) {
				best = viaGap;
				arg = gapArg;
			}
		}
		out.push(j, best + SCORE_MATCH + bonus[j], arg);
	}
}

/** Where the best triple of `row[start, end)` starts, the earliest position among equals; -1 for an empty row. */
export function bestInRow(row: Int32Array, start: number, end: number): number {
	let at = -1;
	for (let k = start; k < end; k += 3) if (at === -1 || row[k + 1] > row[at + 1]) at = k;
	return at;
}

/** The best alignment of one word: its score and the text position of each character, or null. */
function alignWord(word: string, p: Prepared): { score: number; positions: number[] } | null {
	const rows = new RowBuffer(p.text.length);
	const starts: number[] = [];
	for (let i = 0; i < word.length; i++) {
		const start = rows.length;
		const prev = starts.length > 0 ? starts[starts.length - 1] : -1;
		extendRow(rows.data, prev, start, word[i], p, rows);
		if (rows.length === start) return null;
		starts.push(start);
	}
	const d = rows.data;
	let at = bestInRow(d, starts[word.length - 1], rows.length);
	const score = d[at + 1];
	const positions = new Array<number>(word.length);
	for (let i = word.length - 1; i >= 0; i--) {
		positions[i] = d[at];
		if (i === 0) break;
		const from = d[at + 2];
		for (at = starts[i - 1]; d[at] !== from; at += 3);
	}
	return { score, positions };
}

function toRanges(positions: Iterable<number>): Array<[number, number]> {
	const sorted = [...new Set(positions)].sort((a, b) => a - b);
	const ranges: Array<[number, number]> = [];
	for (const p of sorted) {
		const lastRange = ranges[ranges.length - 1];
		if (lastRange && lastRange[1] === p) lastRange[1] = p + 1;
		else ranges.push([p, p + 1]);
	}
	return ranges;
}

/** Scores query words (from `queryWords`) against a prepared text; see `fuzzyScore`. */
export function matchPrepared(words: readonly string[], p: Prepared): FuzzyMatch | null {
	let score = 0;
	const positions: number[] = [];
	for (const word of words) {
		const m = alignWord(word, p);
		if (!m) return null;
		score += m.score;
		positions.push(...m.positions);
	}
	return { score, matches: toRanges(positions) };
}

/**
 * Fuzzy-matches a query against a text. Every whitespace-separated word of the query
 * must appear in the text as a case-insensitive subsequence (AND); the result is null
 * otherwise. The score sums the words' best alignments: each matched character scores,
 * contiguous runs and word starts (after a non-letter/digit, or a camelCase hump)
 * score more, gaps cost, and characters inside `options.boost` ranges score extra.
 * Matches are the matched character ranges, merged. An empty query matches with score 0.
 */
export function fuzzyScore(query: string, text: string, options: FuzzyOptions = {}): FuzzyMatch | null {
	const words = queryWords(query);
	if (words.length === 0) return { score: 0, matches: [] };
	return matchPrepared(words, prepareText(text, options));
}
