/** @jest-environment jsdom */
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "obsidian";
import { Editor, installDomHelpers, Keymap, Scope, TFile, type EditorSuggest } from "../../../e2e/host/obsidian-shim";
import type { SlashTemplate } from "../../../../src/blocks";
import { eventually } from "../../../e2e/support/eventually";
import { SlashSuggest, type SlashDbPort } from "../../../../src/ui/suggest/slash-suggest";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// jsdom lays nothing out and its ranges have no rectangles; the host asks CodeMirror for one to place the list.
const noRect = { left: 0, right: 0, top: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) };
Range.prototype.getClientRects = () => Object.assign([], { item: () => null });
Range.prototype.getBoundingClientRect = () => noRect;
const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;
const press = (key: string) => window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));

/** A db port with two connections; the first table of each is asked for and recorded. */
function port(newName: string | null = "fresh"): SlashDbPort & { asked: string[] } {
	const asked: string[] = [];
	return {
		asked,
		connections: () => ["local", "prod"],
		firstTable: (name) => (asked.push(name), Promise.resolve(name === "local" ? "users" : undefined)),
		newConnection: () => Promise.resolve(newName),
	};
}

/** An editor holding `doc` with the cursor at its end, and the suggest as Obsidian drives it after each edit. */
async function typed(doc: string, db = port()) {
	document.body.empty();
	const view = new EditorView({ state: EditorState.create({ doc, selection: { anchor: doc.length } }), parent: document.body });
	const editor = new Editor(view);
	// The host's EditorSuggest is the class it extends here: its hooks drive it as Obsidian does.
	const suggest = new SlashSuggest(app, db) as unknown as EditorSuggest<SlashTemplate>;
	await suggest.hostUpdate(editor, new TFile("note.md"));
	const rows = () => [...document.querySelectorAll(".suggestion-item")].map((r) => r.textContent);
	return { view, editor, suggest, db, rows, text: () => view.state.doc.toString(), cursor: () => view.state.selection.main.head };
}

afterEach(() => {
	for (let open = document.querySelectorAll(".suggestion-container").length; open > 0; open--) press("Escape");
});

describe("SlashSuggest", () => {
	it("offers the templates matching what follows / at the start of a line, DB Query once per connection", async () => {
		const s = await typed("intro\n/db");
		expect(s.rows()).toEqual(["DB Query local", "DB Query prod", "DB Query New connection…"]);
		// The schemas are read while the user picks.
		expect(s.db.asked).toEqual(["local", "prod"]);
	});

	it.each([
		["a / inside a line", "see /http"],
		["a query no template matches, leaving / to Obsidian's own commands", "/bold"],
	])("stays closed for %s", async (_case, doc) => {
		const s = await typed(doc);
		expect(s.suggest.isOpen()).toBe(false);
	});

	it("replaces /query by the template, indented as the line, with the cursor where the template puts it", async () => {
		const s = await typed("- item\n  /http get");
		expect(s.rows()).toEqual(["HTTP GET"]);
		press("Enter");
		expect(s.text()).toBe("- item\n  ```http\n  GET {{base_url}}/\n  ```\n");
		expect(s.text().slice(s.cursor())).toMatch(/^\{\{base_url\}\}/);
	});

	it("writes DB Query for the chosen connection with its first table", async () => {
		const s = await typed("/db");
		press("Enter");
		await eventually(() => expect(s.text()).toBe("```db connection=local\nSELECT * FROM users LIMIT 100;\n```\n"));
		expect(s.text().slice(s.cursor())).toMatch(/^\* FROM users/);
	});

	it("asks for a new connection, and inserts nothing when the user cancels", async () => {
		const made = await typed("/db new", port("fresh"));
		press("Enter");
		await eventually(() => expect(made.text()).toBe("```db connection=fresh\nSELECT * FROM table_name LIMIT 100;\n```\n"));
		const cancelled = await typed("/db new", port(null));
		press("Enter");
		await eventually(() => expect(cancelled.suggest.isOpen()).toBe(false));
		expect(cancelled.text()).toBe("/db new");
	});
});
