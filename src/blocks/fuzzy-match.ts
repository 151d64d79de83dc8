/**
 * The fuzzy matcher of Mod+K search (docs/shortcuts.md): query words as case-insensitive
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

/**
 * A text ready for matching, computed once: where each lower-cased character sits and what
 * matching each position is worth. Its numbers live in `data` from `at` on (several texts can
 * share one array, `packTexts`), laid out as
 * `[k, the k distinct units (lower-cased one at a time, in order of first appearance),
 * k + 1 offsets from at delimiting each unit's positions, the positions by unit (ascending),
 * the bonus of each position]`.
 * A keystroke then reads the positions of its character directly instead of searching the
 * text, and a search over many texts walks one array in order instead of three objects per text.
 */
export interface Prepared {
	text: string;
	data: PreparedData;
	at: number;
}

/** Uint32Array only when a text is too long for 16-bit offsets (over ~32,000 units). */
export type PreparedData = Uint16Array | Uint32Array;

/** Many prepared texts in one array: text `i` starts at `starts[i]` of `data`. */
export interface PackedTexts {
	data: PreparedData;
	starts: Int32Array;
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

/** Scratch of prepareText: the slot of each ASCII unit in the text being prepared, -1 for none; all -1 between calls. */
const asciiSlot = new Int32Array(128).fill(-1);

export function prepareText(text: string, options: FuzzyOptions = {}): Prepared {
	const lower = lowerUnits(text);
	// A counting sort of the positions by unit: slots in order of first appearance, then each unit's positions.
	const codes: number[] = [];
	const counts: number[] = [];
	const others = new Map<number, number>();
	const slotOf = (code: number): number => (code < 128 ? asciiSlot[code] : (others.get(code) ?? -1));
	for (let i = 0; i < lower.length; i++) {
		const code = lower.charCodeAt(i);
		let slot = slotOf(code);
		if (slot === -1) {
			slot = codes.length;
			if (code < 128) asciiSlot[code] = slot;
			else others.set(code, slot);
			codes.push(code);
			counts.push(0);
		}
		counts[slot]++;
	}
	const k = codes.length;
	const size = 2 + 2 * k + 2 * lower.length;
	const data = size <= 0xffff ? new Uint16Array(size) : new Uint32Array(size);
	data[0] = k;
	const offsets = 1 + k;
	data[offsets] = 2 + 2 * k;
	for (let slot = 0; slot < k; slot++) {
		data[1 + slot] = codes[slot];
		data[offsets + slot + 1] = data[offsets + slot] + counts[slot];
		// From here on, counts[slot] is where the slot's next position goes.
		counts[slot] = data[offsets + slot];
	}
	for (let i = 0; i < lower.length; i++) data[counts[slotOf(lower.charCodeAt(i))]++] = i;
	for (const code of codes) if (code < 128) asciiSlot[code] = -1;
	const bonusAt = data[offsets + k];
	for (let i = 0; i < text.length; i++) data[bonusAt + i] = positionBonus(text, i);
	for (const [start, end] of options.boost ?? []) {
		for (let i = Math.max(0, start); i < Math.min(end, text.length); i++) data[bonusAt + i] += BONUS_BOOST;
	}
	return { text, data, at: 0 };
}

/** How many numbers of `data` a prepared text takes. */
function preparedSize(p: Prepared): number {
	return 2 + 2 * p.data[p.at] + 2 * p.text.length;
}

/** Copies prepared texts into one array, in their order; returns it and a view of each text into it. */
export function packTexts(texts: readonly Prepared[]): { packed: PackedTexts; views: Prepared[] } {
	let size = 0;
	let wide = false;
	for (const p of texts) {
		size += preparedSize(p);
		if (p.data instanceof Uint32Array) wide = true;
	}
	const data = wide ? new Uint32Array(size) : new Uint16Array(size);
	const starts = new Int32Array(texts.length);
	const views: Prepared[] = [];
	let at = 0;
	texts.forEach((p, i) => {
		const n = preparedSize(p);
		data.set(p.data.subarray(p.at, p.at + n), at);
		starts[i] = at;
		views.push({ text: p.text, data, at });
		at += n;
	});
	return { packed: { data, starts }, views };
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

	/** Makes room for `triples` more without moving `length`; earlier views of `data` stay readable. */
	reserve(triples: number): Int32Array {
		const need = this.length + triples * 3;
		if (need > this.data.length) {
			const grown = new Int32Array(Math.max(need, this.data.length * 2));
			grown.set(this.data.subarray(0, this.length));
			this.data = grown;
		}
		return this.data;
	}

	push(j: number, score: number, from: number): void {
		const d = this.reserve(1);
		d[this.length] = j;
		d[this.length + 1] = score;
		d[this.length + 2] = from;
		this.length += 3;
	}
}

/**
 * The recurrence: appends to `out` the row of the word's next character (the UTF-16 unit
 * `code`) in the text prepared at `data[at]`, given the row of the previous one,
 * `prev[start, end)`, or `start < 0` when `code` is the word's first character.
 * Reaching `j` costs a consecutive step from `j - 1`, or a gap from any `k <= j - 2` (GAP_START
 * plus GAP_EXTEND per skipped position); the best is kept, the earliest `k` among equals, a run
 * before a gap of the same score. `prev` may be `out.data`: growing `out` leaves it readable.
 * Returns the best score of the appended row (what `bestInRow` finds), -Infinity when it is empty.
 */
export function extendRow(prev: Int32Array, start: number, end: number, code: number, data: PreparedData, at: number, out: RowBuffer): number {
	if (start >= 0 && start === end) return NONE;
	const units = data[at];
	let slot = 0;
	while (slot < units && data[at + 1 + slot] !== code) slot++;
	if (slot === units) return NONE;
	// The positions of the character, `data[q, qEnd)`, from the first after where the previous one can sit.
	let q = at + data[at + 1 + units + slot];
	const qEnd = at + data[at + 2 + units + slot];
	const bonusAt = at + data[at + 1 + 2 * units];
	if (start >= 0) for (const after = prev[start]; q < qEnd && data[q] <= after; ) q++;
	if (q === qEnd) return NONE;
	// One triple per position: reserve once, then write without checks.
	const d = out.reserve(qEnd - q);
	let n = out.length;
	let rowBest = NONE;
	if (start < 0) {
		for (; q < qEnd; q++) {
			const j = data[q];
			const score = SCORE_MATCH + data[bonusAt + j] * FIRST_CHAR_MULTIPLIER;
			d[n] = j;
			d[n + 1] = score;
			d[n + 2] = -1;
			n += 3;
			if (score > rowBest) rowBest = score;
		}
		out.length = n;
		return rowBest;
	}
	let k = start;
	// Best of prev score + GAP_EXTEND * position over the positions passed, for a gap before j.
	let gapBest = NONE;
	let gapArg = -1;
	for (; q < qEnd; q++) {
		const j = data[q];
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
		const score = best + SCORE_MATCH + data[bonusAt + j];
		d[n] = j;
		d[n + 1] = score;
		d[n + 2] = arg;
		n += 3;
		if (score > rowBest) rowBest = score;
	}
	out.length = n;
	return rowBest;
}

/** Where the best triple of `row[start, end)` starts, the earliest position among equals; -1 for an empty row. */
export function bestInRow(row: Int32Array, start: number, end: number): number {
	let at = -1;
	for (let k = start; k < end; k += 3) if (at === -1 || row[k + 1] > row[at + 1]) at = k;
	return at;
}

/**
 * The rows `alignWord` traces, reused from call to call: a fresh buffer per word of each shown
 * result was a typed array (and its backing store for the collector to free) per call.
 * Cleared on entry; nothing keeps it between calls.
 */
const traceRows = new RowBuffer(256);

/** The best alignment of one word: its score, the text position of each character appended to `positions`; null when it does not match. */
function alignWord(word: string, p: Prepared, positions: number[]): number | null {
	const rows = traceRows;
	rows.length = 0;
	const starts: number[] = [];
	for (let i = 0; i < word.length; i++) {
		const start = rows.length;
		const prev = starts.length > 0 ? starts[starts.length - 1] : -1;
		extendRow(rows.data, prev, start, word.charCodeAt(i), p.data, p.at, rows);
		if (rows.length === start) return null;
		starts.push(start);
	}
	const d = rows.data;
	let at = bestInRow(d, starts[word.length - 1], rows.length);
	const score = d[at + 1];
	const first = positions.length;
	positions.length += word.length;
	for (let i = word.length - 1; i >= 0; i--) {
		positions[first + i] = d[at];
		if (i === 0) break;
		const from = d[at + 2];
		for (at = starts[i - 1]; d[at] !== from; at += 3);
	}
	return score;
}

/** Positions (ascending word by word, repeats allowed) as sorted, merged ranges. */
function toRanges(positions: number[]): Array<[number, number]> {
	// An insertion sort in place: a few runs already ascending, and no copy as Array.prototype.sort makes.
	for (let i = 1; i < positions.length; i++) {
		const p = positions[i];
		let j = i;
		for (; j > 0 && positions[j - 1] > p; j--) positions[j] = positions[j - 1];
		positions[j] = p;
	}
	const ranges: Array<[number, number]> = [];
	let last: [number, number] | null = null;
	for (const p of positions) {
		if (last !== null && p < last[1]) continue;
		if (last !== null && last[1] === p) last[1] = p + 1;
		else ranges.push((last = [p, p + 1]));
	}
	return ranges;
}

/** Scores query words (from `queryWords`) against a prepared text; see `fuzzyScore`. */
export function matchPrepared(words: readonly string[], p: Prepared): FuzzyMatch | null {
	let score = 0;
	const positions: number[] = [];
	for (const word of words) {
		const s = alignWord(word, p, positions);
		if (s === null) return null;
		score += s;
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
