import { MarkdownView, SuggestModal, TFile, type App, type EventRef } from "obsidian";
import { BlockSearchIndex, schemaEntries, schemaInsertText, type SearchResult, type VariableEntry } from "../blocks";
import type { SchemaCache } from "../runner/db/schema-cache";
import type { Settings } from "../settings/user-settings";
import { t } from "./strings";
import { appendHighlighted } from "./suggest/highlight";

/** Variables of every environment, as search entries (names only: values are never indexed). */
export function variableEntries(settings: Settings): VariableEntry[] {
	return Object.entries(settings.environments).flatMap(([environment, vars]) => Object.entries(vars).map(([name, v]): VariableEntry => ({ kind: "variable", environment, name, secret: "secret" in v })));
}

/**
 * Keeps the Mod+K index in step with the vault at no cost while the user writes: a vault event
 * only notes which note changed, and a search brings the index up to date before it opens,
 * reading every note the first time and afterwards only those changed since. Autosave writes a
 * note every few seconds of typing; each write used to parse the whole note again, for users who
 * never search too. Now a note saved fifty times between two searches is parsed once.
 */
export class VaultBlockIndexer {
	readonly index = new BlockSearchIndex();
	/** Notes changed since the index last read them. */
	private readonly changed = new Set<string>();
	private loaded = false;
	private catchingUp: Promise<void> | null = null;
	private readonly listeners = new Set<() => void>();

	constructor(private readonly app: App) {}

	/** Subscribes to vault events; returns the refs for the plugin to register. */
	watch(): EventRef[] {
		const vault = this.app.vault;
		const noteChanged = (file: unknown) => {
			if (file instanceof TFile && isNote(file.path)) this.changed.add(file.path);
		};
		return [
			vault.on("create", noteChanged),
			vault.on("modify", noteChanged),
			vault.on("delete", (file) => {
				this.changed.delete(file.path);
				this.index.removeFile(file.path);
			}),
			vault.on("rename", (file, oldPath) => {
				const wasChanged = this.changed.delete(oldPath);
				if (!isNote(file.path)) return this.index.removeFile(oldPath);
				// A note keeps its blocks under the new path, unread, unless it changed meanwhile or a read is under way (it
				// may have read the old path); a file renamed into a note is new.
				if (wasChanged || !isNote(oldPath) || this.catchingUp) this.changed.add(file.path);
				this.index.renameFile(oldPath, file.path);
			}),
		];
	}

	/** Brings the index up to date (never during start-up: on the first search). Calls meanwhile share the pass. */
	upToDate(): Promise<void> {
		this.catchingUp ??= this.catchUp().finally(() => {
			this.catchingUp = null;
			this.notify();
		});
		return this.catchingUp;
	}

	/** True while notes are being read into the index: a search now may miss what is not read yet. */
	get reading(): boolean {
		return this.catchingUp !== null;
	}

	/** Calls `f` after each batch of notes entered the index, and when a read ends; returns the unsubscribe. */
	onUpdate(f: () => void): () => void {
		this.listeners.add(f);
		return () => this.listeners.delete(f);
	}

	private notify(): void {
		for (const f of this.listeners) f();
	}

	private async catchUp(): Promise<void> {
		if (!this.loaded) {
			this.loaded = true;
			// Every note is read now: what changed before is in it; what changes during the read is noted again.
			this.changed.clear();
			await this.read(this.app.vault.getMarkdownFiles().map((file) => file.path));
		}
		while (this.changed.size > 0) {
			const paths = [...this.changed];
			this.changed.clear();
			await this.read(paths);
		}
	}

	/**
	 * Re-reads notes into the index, READ_BATCH at a time: the reads overlap, and each batch enters
	 * the index in order (results that tie rank the same every time). A note gone by then (deleted
	 * or renamed meanwhile, or unreadable) leaves the index.
	 */
	private async read(paths: readonly string[]): Promise<void> {
		const vault = this.app.vault;
		for (let i = 0; i < paths.length; i += READ_BATCH) {
			const batch = paths.slice(i, i + READ_BATCH);
			const texts = await Promise.all(batch.map((path) => this.textOf(path)));
			batch.forEach((path, k) => {
				const text = texts[k];
				if (text !== null && vault.getAbstractFileByPath(path) instanceof TFile) this.index.updateFile(path, text);
				else this.index.removeFile(path);
			});
			this.notify();
		}
	}

	private async textOf(path: string): Promise<string | null> {
		const file = this.app.vault.getAbstractFileByPath(path);
		try {
			return file instanceof TFile ? await this.app.vault.cachedRead(file) : null;
		} catch {
			return null;
		}
	}
}

/** Notes read at once. Obsidian's desktop reads go to Node's fs.promises, where 5,000 small files took ~0.18 s in batches of 32 and ~0.9 s one by one. */
const READ_BATCH = 32;

const isNote = (path: string) => path.endsWith(".md");

/** Entries that can join the index while Mod+K is open: the vault's notes on the first search, a slow connection's schema. */
export interface SearchFeed {
	/** Calls `f` whenever entries joined the index; returns the unsubscribe. */
	readonly onUpdate: (f: () => void) => () => void;
	/** True while entries are still coming, so "no match" is not final yet. */
	readonly reading?: boolean;
}

/** How often an open list is searched again while entries join it: a vault's first read announces each batch of notes. */
export const REFRESH_MS = 100;

/**
 * search.blocks (Mod+K when bound): fuzzy search over runnable blocks, variables and the tables
 * and columns of the configured connections. Choosing a block opens its note there; a variable
 * inserts `{{name}}` at the cursor; a table inserts its name and a column `table.column`.
 */
export class BlockSearchModal extends SuggestModal<SearchResult> {
	constructor(
		app: App,
		private readonly index: BlockSearchIndex,
		/** Inserts text at the cursor of the active note (a variable's `{{name}}`, a table or column name). */
		private readonly insertText: (text: string) => void,
		/** What may join the index after the modal opened (notes still being read, a slow server, a cold start). */
		private readonly feeds: readonly SearchFeed[] = [],
	) {
		super(app);
		this.setPlaceholder(t("searchPlaceholder"));
		this.emptyStateText = this.emptyText();
	}

	private unsubscribes: Array<() => void> = [];
	private refreshTimer: number | null = null;

	override onOpen(): void {
		// Entries that arrive while the list is open join it: the query is searched again, as typing would, at most every
		// REFRESH_MS so that a vault read in many batches does not redraw the list for each.
		this.unsubscribes = this.feeds.map((feed) => feed.onUpdate(() => this.refreshSoon()));
	}

	override onClose(): void {
		for (const unsubscribe of this.unsubscribes) unsubscribe();
		this.unsubscribes = [];
		if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
		this.refreshTimer = null;
	}

	private refreshSoon(): void {
		this.refreshTimer ??= window.setTimeout(() => {
			this.refreshTimer = null;
			this.emptyStateText = this.emptyText();
			// A search again puts the selection back on the first row: once the user moved it (arrows, the pointer), the
			// list stays as it is under them, and what joined the index shows at their next keystroke.
			if (this.movedInList()) return;
			this.inputEl.dispatchEvent(new Event("input"));
		}, REFRESH_MS);
	}

	/** The selected row is not the first: the user went down the list (Obsidian marks the selected row `is-selected`). */
	private movedInList(): boolean {
		const first = this.resultContainerEl.querySelector(".suggestion-item");
		return first !== null && !first.classList.contains("is-selected") && this.resultContainerEl.querySelector(".suggestion-item.is-selected") !== null;
	}

	/** "No match" only once nothing more is coming; until then, that the notes are still being read. */
	private emptyText(): string {
		return t(this.feeds.some((feed) => feed.reading === true) ? "searchReading" : "searchEmpty");
	}

	getSuggestions(query: string): SearchResult[] {
		return this.index.search(query, 50);
	}

	renderSuggestion(result: SearchResult, el: HTMLElement): void {
		el.addClass("rb-search-item");
		appendHighlighted(el, this.index.displayText(result.entry), result.matches);
	}

	onChooseSuggestion(result: SearchResult): void {
		const entry = result.entry;
		if (entry.kind === "variable") return this.insertText(`{{${entry.name}}}`);
		if (entry.kind === "schema") return this.insertText(schemaInsertText(entry));
		const file = this.app.vault.getAbstractFileByPath(entry.path);
		if (!(file instanceof TFile)) return;
		const leaf = this.app.workspace.getLeaf(false);
		// eState.line scrolls there; the cursor is put on the fence line explicitly as well.
		void leaf.openFile(file, { active: true, eState: { line: entry.line } }).then(() => {
			const view = leaf.view;
			if (view instanceof MarkdownView) view.editor.setCursor({ line: entry.line, ch: 0 });
		});
	}
}

/** How long Mod+K waits for schemas not read yet before it opens without them (a slow server must not hold it). */
const SCHEMA_WAIT_MS = 500;

/** The connections' schemas in the search index, as Mod+K waits for them and hears of late ones. */
export interface SchemaIndex {
	/** Reads the schemas not read yet; resolves when they are in, or after SCHEMA_WAIT_MS. */
	readonly ready: () => Promise<void>;
	/** Calls `f` whenever a schema entered the index (one that came after Mod+K opened); returns the unsubscribe. */
	readonly onUpdate: (f: () => void) => () => void;
	readonly stop: () => void;
}

/** Puts the schemas of the configured connections into the index: read (or cached) now, and again whenever one is re-read. */
export function indexSchemas(index: BlockSearchIndex, schemas: SchemaCache): SchemaIndex {
	const listeners = new Set<() => void>();
	const put = (name: string, state: Awaited<ReturnType<SchemaCache["get"]>>) => {
		index.setSchema(name, state.kind === "done" ? schemaEntries(name, state.tables) : []);
		for (const f of listeners) f();
	};
	const stop = schemas.onChange(put);
	const ready = async () => {
		const names = Object.keys(schemas.connections());
		index.keepSchemas(names);
		const reads = Promise.all(names.map(async (name) => put(name, await schemas.get(name))));
		await Promise.race([reads, new Promise((resolve) => window.setTimeout(resolve, SCHEMA_WAIT_MS))]);
	};
	return {
		ready,
		onUpdate: (f) => {
			listeners.add(f);
			return () => listeners.delete(f);
		},
		stop: () => {
			listeners.clear();
			stop();
		},
	};
}

/** How long Mod+K waits for the vault's notes before it opens with those read so far; the rest join the open list. */
const NOTES_WAIT_MS = 150;

/**
 * Mod+K: block search over the vault and the connections' schemas; variables, tables and columns
 * insert at the cursor of the active note. It opens once the index is up to date, or after
 * NOTES_WAIT_MS in a vault whose first read takes longer (thousands of notes), the notes read
 * later joining the open list.
 */
export function openBlockSearch(app: App, indexer: VaultBlockIndexer, schemas: Pick<SchemaIndex, "ready" | "onUpdate"> | null = null): void {
	const insertText = (text: string) => {
		const editor = app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (editor) editor.replaceRange(text, editor.getCursor());
	};
	const notes = Promise.race([indexer.upToDate(), new Promise((resolve) => window.setTimeout(resolve, NOTES_WAIT_MS))]);
	const feeds: SearchFeed[] = schemas ? [indexer, { onUpdate: schemas.onUpdate }] : [indexer];
	void Promise.all([notes, schemas?.ready()]).then(() => new BlockSearchModal(app, indexer.index, insertText, feeds).open());
}
