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
	) {
		super(app);
		this.setPlaceholder(t("searchPlaceholder"));
		this.emptyStateText = t("searchEmpty");
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

/** Puts the schemas of the configured connections into the index: read (or cached) now, and again whenever one is re-read. */
export function indexSchemas(index: BlockSearchIndex, schemas: SchemaCache): { ready: () => Promise<void>; stop: () => void } {
	const stop = schemas.onChange((name, state) => index.setSchema(name, state.kind === "done" ? schemaEntries(name, state.tables) : []));
	const ready = async () => {
		const names = Object.keys(schemas.connections());
		index.keepSchemas(names);
		const reads = Promise.all(names.map(async (name) => {
			const state = await schemas.get(name);
			index.setSchema(name, state.kind === "done" ? schemaEntries(name, state.tables) : []);
		}));
		await Promise.race([reads, new Promise((resolve) => window.setTimeout(resolve, SCHEMA_WAIT_MS))]);
	};
	return { ready, stop };
}

/** Mod+K: block search over the vault and the connections' schemas; variables, tables and columns insert at the cursor of the active note. */
export function openBlockSearch(app: App, indexer: VaultBlockIndexer, schemasReady: () => Promise<void> = () => Promise.resolve()): void {
	const insertText = (text: string) => {
		const editor = app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (editor) editor.replaceRange(text, editor.getCursor());
	};
	void Promise.all([indexer.whenReady(), schemasReady()]).then(() => new BlockSearchModal(app, indexer.index, insertText).open());
}
