import { EditorSuggest, type App, type Editor, type EditorPosition, type EditorSuggestContext, type EditorSuggestTriggerInfo, type TFile } from "obsidian";
import { refCompletions, refTrigger, type NoteBlock, type RefCompletion } from "../../blocks";
import type * as Imports from "../../runner/imports";
import { bodyText, httpFields } from "../../runner/http/http-run";
import type { Engine } from "../../runner/engine";
import { obsidianNoteLinks } from "../note-links";
import { Notes } from "../notes";

/**
 * `{{` inside a runnable block: aliases above the cursor, other notes (`[[`) and their aliases, environment variables and built-ins
 * (the logic is src/blocks/completion.ts); Enter completes and closes the braces, Esc cancels.
 */
export class ReferenceSuggest extends EditorSuggest<RefCompletion> {
	private found: { note: readonly NoteBlock[]; block: NoteBlock; path: string } | null = null;

	constructor(
		app: App,
		private readonly runtime: Engine,
		private readonly variables: () => string[],
		private readonly notes: Notes = new Notes(app),
	) {
		super(app);
		// Tab completes like Enter (Obsidian binds only Enter).
		this.scope.register([], "Tab", (evt) => this.completeWithTab(evt));
	}

	/** The suggestions as last rendered, by element: where Tab looks for the highlighted one. */
	private readonly rendered = new Map<HTMLElement, RefCompletion>();

	/**
	 * Tab: through Obsidian's chooser (`this.suggestions`, not public API) where it exists, as
	 * Enter does; else the suggestion Obsidian highlights (`is-selected`), else the first shown.
	 * Returns false when it completed (the key is used), true to let Tab through.
	 */
	completeWithTab(evt: KeyboardEvent): boolean {
		const chooser = (this as unknown as { suggestions?: { useSelectedItem?: unknown } }).suggestions;
		if (typeof chooser?.useSelectedItem === "function") {
			(chooser.useSelectedItem as (e: KeyboardEvent) => void).call(chooser, evt);
			return false;
		}
		const shown = [...this.rendered];
		const highlighted = shown.find(([el]) => el.classList.contains("is-selected") || el.parentElement?.classList.contains("is-selected") === true);
		const chosen = (highlighted ?? shown[0])?.[1];
		if (!chosen || !this.context) return true;
		this.selectSuggestion(chosen);
		this.close();
		return false;
	}

	onTrigger(cursor: EditorPosition, editor: Editor, file: TFile | null): EditorSuggestTriggerInfo | null {
		// Cheap test first: the note is parsed only when the line has an open `{{`.
		if (!editor.getLine(cursor.line).slice(0, cursor.ch).includes("{{")) return null;
		const text = editor.getValue();
		const note = this.notes.ofEditor(editor);
		const trig = refTrigger(note, text, editor.posToOffset(cursor));
		if (!trig) return null;
		this.found = { note, block: trig.block, path: file?.path ?? "" };
		return { start: editor.offsetToPos(trig.start), end: cursor, query: trig.query };
	}

	async getSuggestions(context: EditorSuggestContext): Promise<RefCompletion[]> {
		this.rendered.clear();
		if (!this.found) return [];
		const { path } = this.found;
		const session = this.runtime.sessions.note(path);
		// `[[`: the vault's notes as this note would link them; `[[Note]]#`: that note's blocks, read first.
		const other = context.query.startsWith("[[") ? await this.otherNote(context.query, path) : null;
		const imported = context.query.startsWith("[[") || !this.found.note.some((b) => b.fence.content.includes("@import")) ? [] : await this.imported(this.found.note, path);
		const sessions = [session, ...imported.map((i) => this.runtime.sessions.note(i.path))];
		return refCompletions(this.found.note, this.found.block, context.query, {
			...other,
			imported,
			variables: this.variables(),
			cachedBody: (alias) => {
				// The note's own result first, then an imported file's (`# @import`).
				const r = sessions.map((s) => s.get(alias)).find((found) => found !== undefined);
				const http = r && httpFields(r);
				return http?.body ? bodyText(http) : undefined;
			},
		});
	}

	/** The files the note's `# @import` lines name, with their blocks (a missing one is left out: the run reports it). */
	private async imported(note: readonly NoteBlock[], fromPath: string): Promise<Array<{ file: string; path: string; blocks: readonly NoteBlock[] }>> {
		// The import module is a text module, required here on the first completion in a note that imports.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const { importTarget, noteImports } = require("../../runner/imports") as typeof Imports;
		const links = obsidianNoteLinks(this.app, this.notes);
		const out: Array<{ file: string; path: string; blocks: readonly NoteBlock[] }> = [];
		for (const d of noteImports(note)) {
			const target = importTarget(d.written, fromPath);
			const blocks = target.ok && !out.some((o) => o.path === target.path) ? await links.blocks(target.path) : null;
			if (target.ok && blocks) out.push({ file: d.written, path: target.path, blocks });
		}
		return out;
	}

	private async otherNote(query: string, fromPath: string): Promise<{ notes: string[]; noteBlocks: (link: string) => readonly NoteBlock[] | undefined }> {
		const link = /^\[\[([^\]]+)\]\]#/.exec(query)?.[1];
		const target = link === undefined ? null : this.app.metadataCache.getFirstLinkpathDest(link, fromPath);
		const blocks = target ? await this.notes.blocks(target.path) : undefined;
		const notes = link === undefined ? this.app.vault.getMarkdownFiles().map((f) => this.app.metadataCache.fileToLinktext(f, fromPath, true)) : [];
		return { notes, noteBlocks: (l) => (l === link ? blocks : undefined) };
	}

	renderSuggestion(value: RefCompletion, el: HTMLElement): void {
		this.rendered.set(el, value);
		el.createSpan({ cls: "rb-suggest-label", text: value.insert });
		if (value.hint) el.createSpan({ cls: "rb-suggest-hint", text: ` ${value.hint}` });
	}

	selectSuggestion(value: RefCompletion): void {
		const ctx = this.context;
		if (!ctx) return;
		const { editor, start, end } = ctx;
		const after = editor.getLine(end.line).slice(end.ch);
		// A path that continues (…body.$. / …headers.) stays open for more typing.
		const open = value.insert.endsWith(".") || value.insert.endsWith("#");
		const close = open || after.startsWith("}}") ? "" : "}}";
		editor.replaceRange(value.insert + close, start, end);
		editor.setCursor(editor.offsetToPos(editor.posToOffset(start) + value.insert.length + close.length));
	}
}
