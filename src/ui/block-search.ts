import { MarkdownView, SuggestModal, TFile, type App, type EventRef } from "obsidian";
import { BlockSearchIndex, schemaEntries, schemaInsertText, type SearchResult, type VariableEntry } from "../blocks";
import type { SchemaCache } from "../runner/db/schema-cache";
import type { Settings } from "../settings/user-settings";
import { t } from "./strings";

/** Variables of every environment, as search entries (names only: values are never indexed). */
export function variableEntries(settings: Settings): VariableEntry[] {
	return Object.entries(settings.environments).flatMap(([environment, vars]) => Object.entries(vars).map(([name, v]): VariableEntry => ({ kind: "variable", environment, name, secret: "secret" in v })));
}

/**
 * Keeps the Mod+K index in step with the vault: every note is read once after the layout is
 * ready, then only the file a vault event names is re-read.
 */
export class VaultBlockIndexer {
	readonly index = new BlockSearchIndex();
	private ready: Promise<void> | null = null;

	constructor(private readonly app: App) {}

	/** Subscribes to vault events; returns the refs for the plugin to register. */
	watch(): EventRef[] {
		const vault = this.app.vault;
		const reread = (file: unknown) => {
			if (file instanceof TFile && file.path.endsWith(".md")) void vault.cachedRead(file).then((text) => this.index.updateFile(file.path, text));
		};
		return [
			vault.on("create", reread),
			vault.on("modify", reread),
			vault.on("delete", (file) => this.index.removeFile(file.path)),
			vault.on("rename", (file, oldPath) => this.index.renameFile(oldPath, file.path)),
		];
	}

	/** The first full read, started on first use (never during start-up). */
	whenReady(): Promise<void> {
		this.ready ??= (async () => {
			for (const file of this.app.vault.getMarkdownFiles()) this.index.updateFile(file.path, await this.app.vault.cachedRead(file));
		})();
		return this.ready;
	}
}

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
		/** Where a schema read after the modal opened is announced (a slow server, a cold start). */
		private readonly onSchemaUpdate?: SchemaIndex["onUpdate"],
	) {
		super(app);
		this.setPlaceholder(t("searchPlaceholder"));
		this.emptyStateText = t("searchEmpty");
	}

	private unsubscribe: (() => void) | null = null;

	override onOpen(): void {
		// A schema that arrives while the list is open joins it: the query is searched again, as typing would.
		this.unsubscribe = this.onSchemaUpdate?.(() => this.inputEl.dispatchEvent(new Event("input"))) ?? null;
	}

	override onClose(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
	}

	getSuggestions(query: string): SearchResult[] {
		return this.index.search(query, 50);
	}

	renderSuggestion(result: SearchResult, el: HTMLElement): void {
		el.addClass("rb-search-item");
		const text = this.index.displayText(result.entry);
		let at = 0;
		// Matched characters are marked the way Obsidian's own fuzzy results are.
		for (const [from, to] of result.matches) {
			if (from > at) el.appendText(text.slice(at, from));
			el.createSpan({ cls: "suggestion-highlight", text: text.slice(from, to) });
			at = to;
		}
		if (at < text.length) el.appendText(text.slice(at));
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

/** Mod+K: block search over the vault and the connections' schemas; variables, tables and columns insert at the cursor of the active note. */
export function openBlockSearch(app: App, indexer: VaultBlockIndexer, schemas: Pick<SchemaIndex, "ready" | "onUpdate"> | null = null): void {
	const insertText = (text: string) => {
		const editor = app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (editor) editor.replaceRange(text, editor.getCursor());
	};
	void Promise.all([indexer.whenReady(), schemas?.ready()]).then(() => new BlockSearchModal(app, indexer.index, insertText, schemas?.onUpdate).open());
}
