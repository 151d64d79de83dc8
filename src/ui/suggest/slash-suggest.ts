import { EditorSuggest, type App, type Editor, type EditorPosition, type EditorSuggestContext, type EditorSuggestTriggerInfo, type TFile } from "obsidian";
import { filterTemplates, indentTemplate, slashTemplates, slashTrigger, type SlashTemplate } from "../../blocks";

/**
 * `/` at the start of a line: the seed's templates. The logic (trigger, filter, insert) is the
 * pure code of src/blocks/templates.ts; this adapter only talks to Obsidian's editor.
 */
export class SlashSuggest extends EditorSuggest<SlashTemplate> {
	constructor(
		app: App,
		/** The DB connection the DB Query template names (the first one in user.toml). */
		private readonly connection: () => string,
	) {
		super(app);
	}

	onTrigger(cursor: EditorPosition, editor: Editor, _file: TFile | null): EditorSuggestTriggerInfo | null {
		const trig = slashTrigger(editor.getLine(cursor.line), cursor.ch);
		// Obsidian offers the `/` to one suggest at a time: once the query matches none of our
		// templates we step aside, so Obsidian's own slash commands (`/bold`…) still open.
		if (!trig || filterTemplates(slashTemplates(this.connection()), trig.query).length === 0) return null;
		return { start: { line: cursor.line, ch: trig.start }, end: cursor, query: trig.query };
	}

	getSuggestions(context: EditorSuggestContext): SlashTemplate[] {
		return filterTemplates(slashTemplates(this.connection()), context.query);
	}

	renderSuggestion(value: SlashTemplate, el: HTMLElement): void {
		el.setText(value.name);
	}

	selectSuggestion(value: SlashTemplate): void {
		const ctx = this.context;
		if (!ctx) return;
		const { editor, start, end } = ctx;
		const indent = editor.getLine(start.line).slice(0, start.ch);
		const t = indentTemplate(value, indent);
		editor.replaceRange(t.text, start, end);
		editor.setCursor(editor.offsetToPos(editor.posToOffset(start) + t.cursor));
	}
}
