import { EditorSuggest, type App, type Editor, type EditorPosition, type EditorSuggestContext, type EditorSuggestTriggerInfo, type TFile } from "obsidian";
import { dbQueryRows, dbQueryTemplate, filterTemplates, indentTemplate, slashTemplates, slashTrigger, type SlashTemplate } from "../../blocks";
import { t } from "../strings";

/** What /DB Query needs from the plugin: the connections, a connection's first table, and a way to add one. */
export interface SlashDbPort {
	/** Names of the configured connections, in user.toml order. */
	connections(): string[];
	/** The first table of the connection's schema, as written in SQL (undefined when it has none or cannot be read). */
	firstTable(name: string): Promise<string | undefined>;
	/** Asks for a new connection; its name, or null when the user cancelled. */
	newConnection(): Promise<string | null>;
}

/**
 * `/` at the start of a line: the seed's templates, with DB Query opened up into one row per
 * connection and "New connection…". The logic (trigger, filter, insert) is the pure code of
 * src/blocks/templates.ts; this adapter only talks to Obsidian's editor.
 */
export class SlashSuggest extends EditorSuggest<SlashTemplate> {
	constructor(
		app: App,
		private readonly db: SlashDbPort,
	) {
		super(app);
	}

	private templates(): SlashTemplate[] {
		return dbQueryRows(slashTemplates(), this.db.connections(), t("newConnectionEllipsis"));
	}

	onTrigger(cursor: EditorPosition, editor: Editor, _file: TFile | null): EditorSuggestTriggerInfo | null {
		const trig = slashTrigger(editor.getLine(cursor.line), cursor.ch);
		// Obsidian offers the `/` to one suggest at a time: once the query matches none of our
		// templates we step aside, so Obsidian's own slash commands (`/bold`…) still open.
		if (!trig || filterTemplates(this.templates(), trig.query).length === 0) return null;
		return { start: { line: cursor.line, ch: trig.start }, end: cursor, query: trig.query };
	}

	getSuggestions(context: EditorSuggestContext): SlashTemplate[] {
		const found = filterTemplates(this.templates(), context.query);
		// Read the schemas while the user picks, so the chosen row's first table is at hand.
		for (const row of found) if (row.connection) void this.db.firstTable(row.connection);
		return found;
	}

	renderSuggestion(value: SlashTemplate, el: HTMLElement): void {
		el.setText(value.name);
		if (value.connection !== undefined) el.createSpan({ cls: "rb-suggest-hint", text: ` ${value.connection ?? t("newConnectionEllipsis")}` });
	}

	selectSuggestion(value: SlashTemplate): void {
		const ctx = this.context;
		if (!ctx) return;
		const { editor, start, end } = ctx;
		const indent = editor.getLine(start.line).slice(0, start.ch);
		if (value.connection === undefined) return insert(editor, start, end, indentTemplate(value, indent));
		void (async () => {
			const name = value.connection ?? (await this.db.newConnection());
			if (name === null) return;
			insert(editor, start, end, indentTemplate(dbQueryTemplate(name, await this.db.firstTable(name)), indent));
		})();
	}
}

function insert(editor: Editor, start: EditorPosition, end: EditorPosition, template: SlashTemplate): void {
	editor.replaceRange(template.text, start, end);
	editor.setCursor(editor.offsetToPos(editor.posToOffset(start) + template.cursor));
}
