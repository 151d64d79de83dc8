import { parseNote, type NoteBlock } from "./note";
import { lowerUnits, matchPrepared, packTexts, prepareText, queryWords, type FuzzyMatch, type PackedTexts, type Prepared } from "./fuzzy-match";
import { isTypedFurther, narrow, type Narrowed } from "./search-narrowing";
import { displayOf, displayText, type BlockEntry, type SchemaEntry, type SearchEntry, type VariableEntry } from "./search-display";

/**
 * The Mod+K search index (docs/shortcuts.md): runnable blocks of the vault and the
 * variables of every environment (`search-display.ts`), searched with the fuzzy matcher
 * (`fuzzy-match.ts`).
 *
 * Pure: no I/O, no `obsidian` import. The plugin feeds it from vault events
 * (`updateFile` on create/modify, `removeFile` on delete, `renameFile` on rename) and
 * from the environments (`setVariables`); a search never re-reads or re-parses a note.
 */

export interface SearchResult extends FuzzyMatch {
	entry: SearchEntry;
}

/** Index-level bonuses for a query word that is the alias, or starts it. */
const BONUS_ALIAS_EXACT = 200;
const BONUS_ALIAS_PREFIX = 60;

/** Spare narrowings kept: about one per character of the longest query typed. */
const MAX_SPARE = 32;

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

/** Per entry of `all()`, by order, packed so that ranking 5,000 matches walks arrays, not 5,000 objects and strings. */
interface Flat {
	entries: Indexed[];
	texts: PackedTexts;
	/** The lower-cased alias of entry `i` is `aliasUnits[aliasStarts[i], aliasStarts[i + 1])`, empty without one. */
	aliasUnits: Uint16Array;
	aliasStarts: Int32Array;
}

interface Indexed {
	entry: SearchEntry;
	/** The display text prepared for matching, the alias part boosted. */
	prepared: Prepared;
	aliasLower: string | null;
}

function indexed(entry: SearchEntry): Indexed {
	const d = displayOf(entry);
	return {
		entry,
		prepared: prepareText(d.text, d.alias ? { boost: [d.alias] } : {}),
		aliasLower: entry.kind === "block" && entry.alias ? lowerUnits(entry.alias) : null,
	};
}

/**
 * Runnable blocks per note plus environment variables, searchable with `search`.
 * Each update touches only the note it names; display texts are computed once per entry.
 */
export class BlockSearchIndex {
	private readonly files = new Map<string, Indexed[]>();
	private variables: Indexed[] = [];
	/** Tables and columns per connection (names and types only: never rows). */
	private readonly schemas = new Map<string, Indexed[]>();
	/** All entries in the stable order, rebuilt lazily after a change. */
	private ordered: Indexed[] | null = null;
	/** The queries typed since `entries` last changed, each typing the one before further (search-narrowing.ts). */
	private typing: { entries: Indexed[]; chain: Narrowed[] } | null = null;
	private flatCache: Flat | null = null;
	/** Narrowings dropped from `typing`, whose buffers the next keystrokes reuse instead of allocating (and collecting) them anew. */
	private readonly spare: Narrowed[] = [];

	/** Number of entries: blocks of every note plus variables. */
	get size(): number {
		let n = this.variables.length;
		for (const list of this.schemas.values()) n += list.length;
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

	/** Replaces one connection's tables and columns (an empty list forgets them). */
	setSchema(connection: string, entries: readonly SchemaEntry[]): void {
		if (entries.length === 0) this.schemas.delete(connection);
		else this.schemas.set(connection, entries.map((e) => indexed({ ...e })));
		this.ordered = null;
	}

	/** Forgets the connections not named (removed from user.toml). */
	keepSchemas(connections: readonly string[]): void {
		for (const name of [...this.schemas.keys()]) if (!connections.includes(name)) this.setSchema(name, []);
	}

	/** The one-line text shown for an entry; see the exported `displayText`. */
	displayText(entry: SearchEntry): string {
		return displayText(entry);
	}

	/** Every entry in the stable order: blocks by note path then line, then variables, then tables and columns by connection. */
	entries(): SearchEntry[] {
		return this.all().map((x) => x.entry);
	}

	private all(): Indexed[] {
		if (!this.ordered) {
			const paths = [...this.files.keys()].sort(compareStrings);
			const blocks = paths.flatMap((p) => [...(this.files.get(p) ?? [])].sort((a, b) => (a.entry as BlockEntry).line - (b.entry as BlockEntry).line));
			const schemas = [...this.schemas.keys()].sort(compareStrings).flatMap((c) => this.schemas.get(c) ?? []);
			this.ordered = [...blocks, ...this.variables, ...schemas];
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
		const words = queryWords(query);
		if (words.length === 0) {
			// An empty query (Mod+K just opened, or the query cleared) starts a new chain of keystrokes.
			if (this.typing) this.release(this.typing.chain);
			this.typing = null;
			return all.slice(0, limit).map((x) => ({ entry: x.entry, score: 0, matches: [] }));
		}
		const found = this.narrowTo(all, words);
		// Rank by score alone, keeping only the best `limit`; then trace the matched ranges of those.
		const { aliasUnits, aliasStarts } = this.flat(all);
		const top = new TopScores(limit, found.count);
		const { orders, scores, count } = found;
		for (let c = 0; c < count; c++) {
			const order = orders[c];
			const from = aliasStarts[order];
			const to = aliasStarts[order + 1];
			top.offer(from === to ? scores[c] : scores[c] + aliasBonus(aliasUnits, from, to, words), order);
		}
		return top.best().map(({ score, order }) => ({ entry: all[order].entry, score, matches: matchPrepared(words, all[order].prepared)?.matches ?? [] }));
	}

	/**
	 * The matches of `words`, from the longest earlier query it types further (a keystroke, or a
	 * backspace back to a query already seen), else from scratch. Keeps the chain of queries typed.
	 */
	private narrowTo(all: Indexed[], words: string[]): Narrowed {
		const chain = this.typing?.entries === all ? this.typing.chain : [];
		if (this.typing && this.typing.chain !== chain) this.release(this.typing.chain);
		let base = chain.length - 1;
		while (base >= 0 && !isTypedFurther(chain[base].words, words)) base--;
		this.release(chain.splice(base + 1));
		const from = base >= 0 ? chain[base] : null;
		const sameWords = from !== null && from.words.length === words.length && from.words.every((w, i) => w === words[i]);
		const found = sameWords ? from : narrow(this.flat(all).texts, from, words, this.spare.pop() ?? null);
		if (!sameWords) chain.push(found);
		this.typing = { entries: all, chain };
		return found;
	}

	/** Keeps the buffers of narrowings no longer typed from, for the next keystrokes to fill. */
	private release(narrowed: Narrowed[]): void {
		for (const n of narrowed) if (this.spare.length < MAX_SPARE) this.spare.push(n);
	}

	/** The prepared texts and lower-cased aliases of `all`, by order: ranking reads these arrays, not 5,000 entry objects. */
	private flat(all: Indexed[]): Flat {
		if (this.flatCache?.entries !== all) {
			const { packed, views } = packTexts(all.map((x) => x.prepared));
			// Each entry now reads its text from the packed array; its own copy is left to the collector.
			all.forEach((x, i) => (x.prepared = views[i]));
			this.flatCache = { entries: all, texts: packed, ...packAliases(all) };
		}
		return this.flatCache;
	}
}

/** The lower-cased aliases of `all`, one after the other (`Flat`). */
function packAliases(all: readonly Indexed[]): { aliasUnits: Uint16Array; aliasStarts: Int32Array } {
	const aliasStarts = new Int32Array(all.length + 1);
	all.forEach((x, i) => (aliasStarts[i + 1] = aliasStarts[i] + (x.aliasLower?.length ?? 0)));
	const aliasUnits = new Uint16Array(aliasStarts[all.length]);
	all.forEach((x, i) => {
		const alias = x.aliasLower ?? "";
		for (let u = 0; u < alias.length; u++) aliasUnits[aliasStarts[i] + u] = alias.charCodeAt(u);
	});
	return { aliasUnits, aliasStarts };
}

/** What the query words add for a block whose lower-cased alias, `units[from, to)`, each word is (BONUS_ALIAS_EXACT) or starts (BONUS_ALIAS_PREFIX). */
function aliasBonus(units: Uint16Array, from: number, to: number, words: readonly string[]): number {
	let bonus = 0;
	for (const word of words) {
		if (word.length > to - from) continue;
		let i = 0;
		while (i < word.length && units[from + i] === word.charCodeAt(i)) i++;
		if (i === word.length) bonus += from + i === to ? BONUS_ALIAS_EXACT : BONUS_ALIAS_PREFIX;
	}
	return bonus;
}

/**
 * The best `limit` (score, order) pairs: higher score first, lower order among equals. Offer in
 * ascending order. Kept in two arrays shifted in place: an offer allocates nothing.
 */
class TopScores {
	private readonly scores: number[] = [];
	private readonly orders: number[] = [];
	/** When everything offered is kept, a sort at the end beats inserting in place. */
	private readonly keepAll: boolean;

	constructor(
		private readonly limit: number,
		offers: number,
	) {
		this.keepAll = limit >= offers;
	}

	offer(score: number, order: number): void {
		const { scores, orders } = this;
		if (this.keepAll) {
			scores.push(score);
			orders.push(order);
			return;
		}
		let i = scores.length;
		if (i >= this.limit) {
			// Full: an equal score comes later in the order than those kept, so it loses; a better one drops the last.
			if (score <= scores[i - 1]) return;
			i--;
		} else {
			scores.push(score);
			orders.push(order);
		}
		for (; i > 0 && scores[i - 1] < score; i--) {
			scores[i] = scores[i - 1];
			orders[i] = orders[i - 1];
		}
		scores[i] = score;
		orders[i] = order;
	}

	best(): Array<{ score: number; order: number }> {
		const kept = this.scores.map((score, i) => ({ score, order: this.orders[i] }));
		// Array.prototype.sort is stable: equal scores keep the ascending order they came in.
		if (this.keepAll) kept.sort((a, b) => b.score - a.score);
		return kept;
	}
}
