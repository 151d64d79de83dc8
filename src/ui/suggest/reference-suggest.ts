import { EditorSuggest, type App, type Editor, type EditorPosition, type EditorSuggestContext, type EditorSuggestTriggerInfo, type TFile } from "obsidian";
import { parseNote, refCompletions, refTrigger, type NoteBlock, type RefCompletion } from "../../blocks";
import { bodyText } from "../../runner/alias-values";
import type { PluginRuntime } from "../runtime";

/**
 * `{{` inside a runnable block: aliases above the cursor, environment variables and built-ins
 * (the logic is src/blocks/completion.ts); Enter completes and closes the braces, Esc cancels.
 */
export class ReferenceSuggest extends EditorSuggest<RefCompletion> {
	private found: { note: NoteBlock[]; block: NoteBlock; path: string } | null = null;

	constructor(
		app: App,
		private readonly runtime: PluginRuntime,
		private readonly variables: () => string[],
	) {
		super(app);
		// Tab completes like Enter. Obsidian binds only Enter; its chooser is not public API, so
		// without it Tab simply falls through to the editor.
		this.scope.register([], "Tab", (evt) => {
			const chooser = (this as unknown as { suggestions?: { useSelectedItem?(e: KeyboardEvent): void } }).suggestions;
			if (!chooser?.useSelectedItem) return true;
			chooser.useSelectedItem(evt);
			return false;
		});
	}

	onTrigger(cursor: EditorPosition, editor: Editor, file: TFile | null): EditorSuggestTriggerInfo | null {
		// Cheap test first: the note is parsed only when the line has an open `{{`.
		if (!editor.getLine(cursor.line).slice(0, cursor.ch).includes("{{")) return null;
		const text = editor.getValue();
		const note = parseNote(text);
		const trig = refTrigger(note, text, editor.posToOffset(cursor));
		if (!trig) return null;
		this.found = { note, block: trig.block, path: file?.path ?? "" };
		return { start: editor.offsetToPos(trig.start), end: cursor, query: trig.query };
	}

	getSuggestions(context: EditorSuggestContext): RefCompletion[] {
		if (!this.found) return [];
		const session = this.runtime.sessions.note(this.found.path);
		return refCompletions(this.found.note, this.found.block, context.query, {
			variables: this.variables(),
			cachedBody: (alias) => {
				const r = session.get(alias);
				return r?.body ? bodyText(r) : undefined;
			},
		});
	}

	renderSuggestion(value: RefCompletion, el: HTMLElement): void {
		el.createSpan({ cls: "rb-suggest-label", text: value.insert });
		if (value.hint) el.createSpan({ cls: "rb-suggest-hint", text: ` ${value.hint}` });
	}

	selectSuggestion(value: RefCompletion): void {
		const ctx = this.context;
		if (!ctx) return;
		const { editor, start, end } = ctx;
		const after = editor.getLine(end.line).slice(end.ch);
		// A path that continues (…body.$. / …headers.) stays open for more typing.
		const open = value.insert.endsWith(".");
		const close = open || after.startsWith("}}") ? "" : "}}";
		editor.replaceRange(value.insert + close, start, end);
		editor.setCursor(editor.offsetToPos(editor.posToOffset(start) + value.insert.length + close.length));
	}
}
