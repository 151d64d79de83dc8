/**
 * The fuzzy matcher of Mod+K search (DESIGN.md §6): query words as case-insensitive
 * subsequences of a text, scored in the spirit of fzf. Pure, no state.
 *
 * One recurrence, `extendRow`, scores a word one character at a time; ranking folds it and keeps
 * the last row, the shown results keep every row to trace the matched characters, and the index
 * keeps a row per entry so that the next keystroke extends it instead of starting over.
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
 * One row of a word's alignment: for every position `j` where the word's character `i` can sit
 * with `0..i` matched in order, the best score of that prefix ending at `j` and where character
 * `i - 1` sits (-1 for the first). Flat triples `[j, score, from, …]` by increasing `j`; empty when
 * the prefix is not a subsequence. Sparse: only positions holding the character are visited.
 */
export type Row = number[];

/**
 * The recurrence: the row of the word's next character `ch` from the row of the previous one
 * (`null` for the first character). Reaching `j` costs a consecutive step from `j - 1`, or a gap
 * from any `k <= j - 2` (GAP_START plus GAP_EXTEND per skipped position); the best is kept, the
 * earliest `k` among equals, a run before a gap of the same score.
 */
export function extendRow(prev: Row | null, ch: string, p: Prepared): Row {
	const { lower, bonus } = p;
	const row: Row = [];
	if (prev === null) {
		for (let j = lower.indexOf(ch); j !== -1; j = lower.indexOf(ch, j + 1)) row.push(j, SCORE_MATCH + bonus[j] * FIRST_CHAR_MULTIPLIER, -1);
		return row;
	}
	if (prev.length === 0) return row;
	let k = 0;
	// Best of prev score + GAP_EXTEND * position over the positions passed, for a gap before j.
	let gapBest = NONE;
	let gapArg = -1;
	for (let j = lower.indexOf(ch, prev[0] + 1); j !== -1; j = lower.indexOf(ch, j + 1)) {
		for (; k < prev.length && prev[k] <= j - 2; k += 3) {
			const v = prev[k + 1] + GAP_EXTEND * prev[k];
			if (v > gapBest) {
				gapBest = v;
				gapArg = prev[k];
			}
		}
		let best = NONE;
		let arg = -1;
		if (k < prev.length && prev[k] === j - 1) {
			best = prev[k + 1] + BONUS_CONSECUTIVE;
			arg = j - 1;
		}
		// j > prev[0]: either j - 1 is prev[0] (a run) or prev[0] <= j - 2 (a gap), so best is finite.
		if (gapBest !== NONE) {
			const viaGap = gapBest - GAP_START - GAP_EXTEND * (j - 2);
			if (viaGap > best) {
				best = viaGap;
				arg = gapArg;
			}
		}
		row.push(j, best + SCORE_MATCH + bonus[j], arg);
	}
	return row;
}

/** Index (into the row) of the best score, the earliest position among equals; -1 for an empty row. */
export function bestInRow(row: Row): number {
	let at = -1;
	for (let k = 0; k < row.length; k += 3) if (at === -1 || row[k + 1] > row[at + 1]) at = k;
	return at;
}

/** The rows of a word against a text, first character to last; the last is empty when it does not match. */
export function wordRows(word: string, p: Prepared, from: Row | null = null, start = 0): Row[] {
	const rows: Row[] = [];
	let row = from;
	for (let i = start; i < word.length; i++) {
		row = extendRow(row, word[i], p);
		rows.push(row);
		if (row.length === 0) break;
	}
	return rows;
}

/** The best score of one word in a prepared text, null when it is not a subsequence. */
export function wordScore(word: string, p: Prepared): number | null {
	const rows = wordRows(word, p);
	const last = rows[rows.length - 1];
	if (rows.length < word.length || last.length === 0) return null;
	return last[bestInRow(last) + 1];
}

/** The best alignment of one word: its score and the text position of each character, or null. */
function alignWord(word: string, p: Prepared): { score: number; positions: number[] } | null {
	const rows = wordRows(word, p);
	if (rows.length < word.length || rows[rows.length - 1].length === 0) return null;
	let at = bestInRow(rows[rows.length - 1]);
	const score = rows[rows.length - 1][at + 1];
	const positions = new Array<number>(word.length);
	for (let i = word.length - 1; i >= 0; i--) {
		const row = rows[i];
		positions[i] = row[at];
		const from = row[at + 2];
		if (i > 0) at = rows[i - 1].findIndex((pos, k) => k % 3 === 0 && pos === from);
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
