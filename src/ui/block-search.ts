import { MarkdownView, SuggestModal, TFile, type App, type EventRef } from "obsidian";
import { BlockSearchIndex, type SearchResult, type VariableEntry } from "../blocks";
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

/** search.blocks (Mod+K when bound): fuzzy search over runnable blocks and variables; choosing a block opens its note there. */
export class BlockSearchModal extends SuggestModal<SearchResult> {
	constructor(
		app: App,
		private readonly index: BlockSearchIndex,
		/** What choosing a variable does (the plugin inserts `{{name}}` at the cursor). */
		private readonly chooseVariable: (entry: VariableEntry) => void,
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
		if (entry.kind === "variable") {
			this.chooseVariable(entry);
			return;
		}
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

/** Mod+K: block search over the vault; choosing a variable inserts `{{name}}` at the cursor of the active note. */
export function openBlockSearch(app: App, indexer: VaultBlockIndexer): void {
	const insertVariable = (entry: VariableEntry) => {
		const editor = app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (editor) editor.replaceRange(`{{${entry.name}}}`, editor.getCursor());
	};
	void indexer.whenReady().then(() => new BlockSearchModal(app, indexer.index, insertVariable).open());
}
