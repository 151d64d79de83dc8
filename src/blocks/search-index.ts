import { parseNote, type NoteBlock } from "./note";

/**
 * The Mod+K search index (DESIGN.md §6): runnable blocks of the vault and the
 * variables of every environment, searched with a fuzzy matcher.
 *
 * Pure: no I/O, no `obsidian` import. The plugin feeds it from vault events
 * (`updateFile` on create/modify, `removeFile` on delete, `renameFile` on rename) and
 * from the environments (`setVariables`); a search never re-reads or re-parses a note.
 */

/** A runnable block of a note. */
export interface BlockEntry {
	kind: "block";
	/** Vault path of the note. */
	path: string;
	/** 0-based line of the opening fence. */
	line: number;
	/** The `alias=` token, else the `# @name` directive. */
	alias?: string;
	/** Uppercase method of an http block ("GET"); "" for other blocks and http blocks without a request line. */
	method: string;
	/** The URL as written (references `{{...}}` unresolved) for http blocks; the first non-empty content line otherwise. */
	url: string;
	/** The fence language: "http", "db", "textdiff". */
	blockType: string;
}

/** A variable of an environment. Values are never indexed (secrets stay out of the search). */
export interface VariableEntry {
	kind: "variable";
	environment: string;
	name: string;
	secret: boolean;
}

export type SearchEntry = BlockEntry | VariableEntry;

export interface FuzzyMatch {
	score: number;
	/** Matched ranges of the text, `[start, end)`, sorted and non-overlapping. */
	matches: Array<[number, number]>;
}

export interface SearchResult extends FuzzyMatch {
	entry: SearchEntry;
}

export interface FuzzyOptions {
	/** Ranges `[start, end)` of the text whose matched characters score extra (an alias). */
	boost?: ReadonlyArray<readonly [number, number]>;
}

const SEPARATOR = " · ";

// Scores, in the spirit of fzf: every matched character scores, runs and word starts
// score more, gaps cost a little.
const SCORE_MATCH = 16;
const BONUS_BOUNDARY = 8;
const BONUS_CAMEL = 6;
const BONUS_CONSECUTIVE = 8;
const FIRST_CHAR_MULTIPLIER = 2;
const GAP_START = 5;
const GAP_EXTEND = 1;
const BONUS_BOOST = 6;
/** Index-level bonuses for a query word that is the alias, or starts it. */
const BONUS_ALIAS_EXACT = 200;
const BONUS_ALIAS_PREFIX = 60;

/** The readable parts of an entry's display text, with where the alias sits. */
interface Display {
	text: string;
	alias: [number, number] | null;
}

/** The note's name: the last path segment without its `.md` extension. */
export function noteName(path: string): string {
	const base = path.slice(path.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}

function display(entry: SearchEntry): Display {
	if (entry.kind === "variable") {
		const text = `{{${entry.name}}}${SEPARATOR}${entry.environment}${entry.secret ? `${SEPARATOR}secret` : ""}`;
		return { text, alias: null };
	}
	const head = [entry.method || entry.blockType, entry.url].filter((s) => s !== "").join(" ");
	let text = head;
	let alias: [number, number] | null = null;
	if (entry.alias) {
		text += SEPARATOR;
		alias = [text.length, text.length + entry.alias.length];
		text += entry.alias;
	}
	text += SEPARATOR + noteName(entry.path);
	return { text, alias };
}

/**
 * The one-line text the Mod+K list shows and the fuzzy matcher searches; match ranges
 * of a result index into it. Parts are joined with " · ":
 * - http block: `METHOD URL · alias · note` (`GET {{base}}/books · books · Bookshop`);
 * - other blocks: `type first-line · alias · note` (`db SELECT * FROM books · Bookshop`);
 * - variable: `{{name}} · environment`, plus ` · secret` for a secret.
 * The alias part is left out when the block has none; `note` is the file name without `.md`.
 */
export function displayText(entry: SearchEntry): string {
	return display(entry).text;
}

/** Lower-cases one UTF-16 unit at a time so that indices in the text stay valid. */
function lowerUnits(text: string): string[] {
	const out = new Array<string>(text.length);
	for (let i = 0; i < text.length; i++) {
		const l = text[i].toLowerCase();
		out[i] = l.length === 1 ? l : text[i];
	}
	return out;
}

function isWordChar(ch: string): boolean {
	return /[\p{L}\p{N}]/u.test(ch);
}

/** What matching the character at `i` is worth beyond SCORE_MATCH: word starts and camelCase humps. */
function positionBonus(text: string, i: number): number {
	if (!isWordChar(text[i])) return 0;
	if (i === 0 || !isWordChar(text[i - 1])) return BONUS_BOUNDARY;
	const prev = text[i - 1];
	const cur = text[i];
	if (prev !== prev.toUpperCase() && cur !== cur.toLowerCase()) return BONUS_CAMEL;
	if (!/\p{N}/u.test(prev) && /\p{N}/u.test(cur)) return BONUS_CAMEL;
	return 0;
}

/**
 * Best alignment of one query word in the text: the word's characters as a subsequence
 * (case-insensitive), scored to prefer runs, word starts and boosted ranges. Null when
 * the word is not a subsequence. O(word × text).
 */
function matchWord(word: string[], text: string, lower: string[], bonus: number[]): { score: number; positions: number[] } | null {
	const m = word.length;
	const n = text.length;
	if (m > n) return null;
	const NONE = -Infinity;
	// score[i][j]: best score with word[i] matched at text[j]; from[i][j]: where word[i-1] sits.
	const score: Float64Array[] = [];
	const from: Int32Array[] = [];
	for (let i = 0; i < m; i++) {
		const row = new Float64Array(n).fill(NONE);
		const back = new Int32Array(n).fill(-1);
		const prev = i > 0 ? score[i - 1] : null;
		// Running best of prev[k] + GAP_EXTEND*k over k <= j-2, for a gap before j.
		let gapBest = NONE;
		let gapArg = -1;
		for (let j = i; j < n; j++) {
			if (prev && j >= 2 && prev[j - 2] !== NONE) {
				const v = prev[j - 2] + GAP_EXTEND * (j - 2);
				if (v > gapBest) {
					gapBest = v;
					gapArg = j - 2;
				}
			}
			if (lower[j] !== word[i]) continue;
			const own = SCORE_MATCH + bonus[j] * (i === 0 ? FIRST_CHAR_MULTIPLIER : 1);
			if (!prev) {
				row[j] = own;
				continue;
			}
			let best = NONE;
			let arg = -1;
			if (prev[j - 1] !== NONE) {
				best = prev[j - 1] + BONUS_CONSECUTIVE;
				arg = j - 1;
			}
			if (gapBest !== NONE) {
				const viaGap = gapBest - GAP_START - GAP_EXTEND * (j - 2);
				if (viaGap > best) {
					best = viaGap;
					arg = gapArg;
				}
			}
			if (best === NONE) continue;
			row[j] = best + own;
			back[j] = arg;
		}
		score.push(row);
		from.push(back);
	}
	// The earliest end among the best scores, for a stable choice between ties.
	const last = score[m - 1];
	let end = -1;
	for (let j = 0; j < n; j++) if (last[j] !== NONE && (end === -1 || last[j] > last[end])) end = j;
	if (end === -1) return null;
	const positions = new Array<number>(m);
	for (let i = m - 1, j = end; i >= 0; i--) {
		positions[i] = j;
		j = from[i][j];
	}
	return { score: last[end], positions };
}

/** Reused rows for `bestScore`: searching allocates nothing per entry. */
let rowA = new Float64Array(64);
let rowB = new Float64Array(64);

/**
 * The score `matchWord` would give, without the alignment: the same recurrence kept in two
 * reused rows. Ranking every entry needs only this; positions are traced for the shown few.
 */
function bestScore(word: string[], lower: string[], bonus: number[]): number | null {
	const m = word.length;
	const n = lower.length;
	if (m > n) return null;
	if (rowA.length < n) {
		rowA = new Float64Array(n * 2);
		rowB = new Float64Array(n * 2);
	}
	const NONE = -Infinity;
	let prev: Float64Array | null = null;
	let row = rowA;
	for (let i = 0; i < m; i++) {
		let gapBest = NONE;
		for (let j = 0; j < i; j++) row[j] = NONE;
		for (let j = i; j < n; j++) {
			if (prev && j >= 2 && prev[j - 2] !== NONE) {
				const v = prev[j - 2] + GAP_EXTEND * (j - 2);
				if (v > gapBest) gapBest = v;
			}
			if (lower[j] !== word[i]) {
				row[j] = NONE;
				continue;
			}
			const own = SCORE_MATCH + bonus[j] * (i === 0 ? FIRST_CHAR_MULTIPLIER : 1);
			if (!prev) {
				row[j] = own;
				continue;
			}
			let best = prev[j - 1] !== NONE ? prev[j - 1] + BONUS_CONSECUTIVE : NONE;
			if (gapBest !== NONE) best = Math.max(best, gapBest - GAP_START - GAP_EXTEND * (j - 2));
			row[j] = best === NONE ? NONE : best + own;
		}
		prev = row;
		row = row === rowA ? rowB : rowA;
	}
	let top = NONE;
	for (let j = 0; j < n; j++) if ((prev as Float64Array)[j] > top) top = (prev as Float64Array)[j];
	return top === NONE ? null : top;
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

/** The whitespace-separated words of a query. */
export function queryWords(query: string): string[] {
	return query.split(/\s+/).filter((w) => w !== "");
}

/** A text ready for matching: lower-cased units and per-position bonuses, computed once. */
interface Prepared {
	text: string;
	lower: string[];
	bonus: number[];
}

function prepare(text: string, options: FuzzyOptions = {}): Prepared {
	const lower = lowerUnits(text);
	const bonus = new Array<number>(text.length);
	for (let i = 0; i < text.length; i++) bonus[i] = positionBonus(text, i);
	for (const [start, end] of options.boost ?? []) {
		for (let i = Math.max(0, start); i < Math.min(end, text.length); i++) bonus[i] += BONUS_BOOST;
	}
	return { text, lower, bonus };
}

/** Cheap test before the alignment: is the word a subsequence of the text at all? */
function isSubsequence(word: string[], lower: string[]): boolean {
	let k = 0;
	for (let j = 0; j < lower.length && k < word.length; j++) if (lower[j] === word[k]) k++;
	return k === word.length;
}

/** Scores lower-cased query words against a prepared text (see `fuzzyScore`). */
function scorePrepared(words: readonly string[][], p: Prepared): FuzzyMatch | null {
	for (const word of words) if (!isSubsequence(word, p.lower)) return null;
	let score = 0;
	const positions: number[] = [];
	for (const word of words) {
		const m = matchWord(word, p.text, p.lower, p.bonus);
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
	const words = queryWords(query).map(lowerUnits);
	if (words.length === 0) return { score: 0, matches: [] };
	return scorePrepared(words, prepare(text, options));
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compareStrings(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** What a runnable block of a note looks like in the index. */
function blockEntry(path: string, block: NoteBlock): BlockEntry {
	let method = "";
	let url: string;
	if (block.kind === "http") {
		method = block.http.method ?? block.http.methodWritten?.toUpperCase() ?? "";
		url = block.http.url;
	} else {
		url = block.fence.contentLines.find((l) => l.trim() !== "")?.trim() ?? "";
	}
	const entry: BlockEntry = { kind: "block", path, line: block.fence.startLine, method, url, blockType: block.kind };
	if (block.alias !== null) entry.alias = block.alias;
	return entry;
}

interface Indexed {
	entry: SearchEntry;
	/** The display text prepared for matching, the alias part boosted. */
	prepared: Prepared;
	aliasLower: string | null;
}

function indexed(entry: SearchEntry): Indexed {
	const d = display(entry);
	return {
		entry,
		prepared: prepare(d.text, d.alias ? { boost: [d.alias] } : {}),
		aliasLower: entry.kind === "block" && entry.alias ? lowerUnits(entry.alias).join("") : null,
	};
}

/**
 * Runnable blocks per note plus environment variables, searchable with `search`.
 * Each update touches only the note it names; display texts are computed once per entry.
 */
export class BlockSearchIndex {
	private readonly files = new Map<string, Indexed[]>();
	private variables: Indexed[] = [];
	/** All entries in the stable order, rebuilt lazily after a change. */
	private ordered: Indexed[] | null = null;
	/** The last query and the entries (indices into `ordered`) it matched, for narrowing. */
	private lastSearch: { entries: Indexed[]; words: string[]; orders: number[] } | null = null;

	/** Number of entries: blocks of every note plus variables. */
	get size(): number {
		let n = this.variables.length;
		for (const list of this.files.values()) n += list.length;
		return n;
	}

	/** Replaces the entries of one note by the runnable blocks of its text. Parses only this text. */
	updateFile(path: string, markdown: string): void {
		const blocks = parseNote(markdown).map((b) => indexed(blockEntry(path, b)));
		if (blocks.length === 0) this.files.delete(path);
		else this.files.set(path, blocks);
		this.ordered = null;
	}

	/** Forgets a note's blocks (the note was deleted). */
	removeFile(path: string): void {
		if (this.files.delete(path)) this.ordered = null;
	}

	/** Moves a note's blocks to its new path (no re-parse). A no-op when the old path is unknown. */
	renameFile(oldPath: string, newPath: string): void {
		const list = this.files.get(oldPath);
		if (!list || oldPath === newPath) return;
		this.files.delete(oldPath);
		this.files.set(
			newPath,
			list.map((x) => indexed({ ...(x.entry as BlockEntry), path: newPath })),
		);
		this.ordered = null;
	}

	/** Replaces all variable entries; they keep the given order (e.g. environment by environment). */
	setVariables(entries: readonly VariableEntry[]): void {
		this.variables = entries.map((e) => indexed({ ...e }));
		this.ordered = null;
	}

	/** The one-line text shown for an entry; see the exported `displayText`. */
	displayText(entry: SearchEntry): string {
		return displayText(entry);
	}

	/** Every entry in the stable order: blocks by note path then line, then variables. */
	entries(): SearchEntry[] {
		return this.all().map((x) => x.entry);
	}

	private all(): Indexed[] {
		if (!this.ordered) {
			const paths = [...this.files.keys()].sort(compareStrings);
			const blocks = paths.flatMap((p) => [...(this.files.get(p) ?? [])].sort((a, b) => (a.entry as BlockEntry).line - (b.entry as BlockEntry).line));
			this.ordered = [...blocks, ...this.variables];
		}
		return this.ordered;
	}

	/**
	 * Entries matching every word of the query, best first (ties keep the stable order),
	 * at most `limit`. Matches are ranges of `displayText(entry)`. A query word that is a
	 * block's alias (or starts it) ranks that block first; an empty query lists every
	 * entry in the stable order.
	 */
	search(query: string, limit = 50): SearchResult[] {
		if (limit <= 0) return [];
		const all = this.all();
		const words = queryWords(query).map(lowerUnits);
		if (words.length === 0) return all.slice(0, limit).map((x) => ({ entry: x.entry, score: 0, matches: [] }));
		// Typing narrows: when every earlier word is still a prefix of a word at the same place,
		// only the entries that matched the earlier query can match this one.
		const flat = words.map((w) => w.join(""));
		const previous = this.lastSearch;
		const candidates = previous && previous.entries === all && previous.words.every((w, i) => flat[i]?.startsWith(w)) ? previous.orders : null;
		const matched: number[] = [];
		// Rank every candidate by score alone, then trace the matched ranges of the shown few.
		const hits: Array<{ x: Indexed; score: number; order: number }> = [];
		const consider = (x: Indexed, order: number) => {
			let score = 0;
			for (const w of words) {
				if (!isSubsequence(w, x.prepared.lower)) return;
				const best = bestScore(w, x.prepared.lower, x.prepared.bonus);
				if (best === null) return;
				score += best;
			}
			if (x.aliasLower !== null) {
				for (const w of words) {
					const word = w.join("");
					if (word === x.aliasLower) score += BONUS_ALIAS_EXACT;
					else if (x.aliasLower.startsWith(word)) score += BONUS_ALIAS_PREFIX;
				}
			}
			matched.push(order);
			hits.push({ x, score, order });
		};
		if (candidates) for (const order of candidates) consider(all[order], order);
		else all.forEach(consider);
		this.lastSearch = { entries: all, words: flat, orders: matched };
		hits.sort((a, b) => b.score - a.score || a.order - b.order);
		return hits.slice(0, limit).map(({ x, score }) => ({ entry: x.entry, score, matches: scorePrepared(words, x.prepared)?.matches ?? [] }));
	}
}
