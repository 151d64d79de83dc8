import { parseNote, type NoteBlock } from "./note";
import { matchPrepared, prepareText, queryWords, lowerUnits, wordScore, type FuzzyMatch, type Prepared } from "./fuzzy-match";
import { displayOf, displayText, type BlockEntry, type SearchEntry, type VariableEntry } from "./search-display";

/**
 * The Mod+K search index (DESIGN.md §6): runnable blocks of the vault and the
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

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compareStrings(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** What a runnable block of a note looks like in the index. */
function blockEntry(path: string, block: NoteBlock): BlockEntry {
	let method = "";
	let url: string;
	if (block.http) {
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
		const words = queryWords(query);
		if (words.length === 0) return all.slice(0, limit).map((x) => ({ entry: x.entry, score: 0, matches: [] }));
		// Typing narrows: when every earlier word is still a prefix of a word at the same place,
		// only the entries that matched the earlier query can match this one.
		const previous = this.lastSearch;
		const candidates = previous && previous.entries === all && previous.words.every((w, i) => words[i]?.startsWith(w)) ? previous.orders : null;
		const matched: number[] = [];
		// Rank every candidate by score alone, then trace the matched ranges of the shown few.
		const hits: Array<{ x: Indexed; score: number; order: number }> = [];
		const consider = (x: Indexed, order: number) => {
			let score = 0;
			for (const w of words) {
				const best = wordScore(w, x.prepared);
				if (best === null) return;
				score += best;
			}
			if (x.aliasLower !== null) {
				for (const word of words) {
					if (word === x.aliasLower) score += BONUS_ALIAS_EXACT;
					else if (x.aliasLower.startsWith(word)) score += BONUS_ALIAS_PREFIX;
				}
			}
			matched.push(order);
			hits.push({ x, score, order });
		};
		if (candidates) for (const order of candidates) consider(all[order], order);
		else all.forEach(consider);
		this.lastSearch = { entries: all, words, orders: matched };
		hits.sort((a, b) => b.score - a.score || a.order - b.order);
		return hits.slice(0, limit).map(({ x, score }) => ({ entry: x.entry, score, matches: matchPrepared(words, x.prepared)?.matches ?? [] }));
	}
}
