import type { App } from "obsidian";
import { formatChord, parseChord, type Chord } from "../../../src/settings/keymap";
import { OBSIDIAN_DEFAULT_HOTKEYS } from "../../../src/ui/obsidian-default-hotkeys";
import { commandName, obsidianClashes, obsidianHotkeys } from "../../../src/ui/obsidian-hotkeys";

const chord = (text: string): Chord => {
	const p = parseChord(text);
	if (!p.ok) throw new Error(p.message);
	return p.chord;
};
const app = (parts: Record<string, unknown>) => parts as unknown as App;
const OWN = "runnable-blocks:";
const list = (a: App) => obsidianHotkeys(a, OWN).hotkeys.map((h) => `${h.command || h.name}=${formatChord(h.chord)}`);

describe("Obsidian's own hotkeys, read from the app", () => {
	it("take the user's custom keys over a command's defaults, leaving out this plugin's commands and unreadable entries", () => {
		const manager = {
			defaultKeys: {
				"markdown:toggle-preview": [{ modifiers: ["Mod"], key: "E" }],
				"editor:toggle-bold": [{ modifiers: ["Mod"], key: "B" }],
				"editor:insert-link": [{ modifiers: ["Mod"], key: "K" }],
				broken: [{ modifiers: ["Mod"], key: "" }],
			},
			customKeys: { "editor:insert-link": [{ modifiers: ["Alt"], key: "L" }], "runnable-blocks:search-blocks": [{ modifiers: ["Mod"], key: "K" }] },
		};
		const read = obsidianHotkeys(app({ hotkeyManager: manager }), OWN);
		expect(read.source).toBe("app");
		expect(list(app({ hotkeyManager: manager }))).toEqual(["markdown:toggle-preview=Mod+E", "editor:toggle-bold=Mod+B", "editor:insert-link=Alt+L", "Paste as plain text=Mod+Shift+V"]);
	});

	it("leave out a default the user removed (custom keys: an empty list)", () => {
		const manager = { defaultKeys: { "editor:toggle-bold": [{ modifiers: ["Mod"], key: "B" }] }, customKeys: { "editor:toggle-bold": [] } };
		expect(list(app({ hotkeyManager: manager }))).toEqual(["Paste as plain text=Mod+Shift+V"]);
	});

	it("prefer the baked list, what Obsidian matches keys against, baking it first where the manager can", () => {
		const manager = {
			defaultKeys: { "editor:toggle-bold": [{ modifiers: ["Mod"], key: "B" }] },
			bakedIds: [] as string[],
			bakedHotkeys: [] as Array<{ modifiers: string; key: string }>,
			bake() {
				this.bakedIds = ["editor:toggle-bold", "other-plugin:do"];
				this.bakedHotkeys = [{ modifiers: "Alt", key: "B" }, { modifiers: "Ctrl,Shift", key: "D" }];
			},
		};
		expect(list(app({ hotkeyManager: manager }))).toEqual(["editor:toggle-bold=Alt+B", "other-plugin:do=Ctrl+Shift+D", "Paste as plain text=Mod+Shift+V"]);
	});

	it("read the defaults when the baked list is empty and bake fails", () => {
		const manager = { defaultKeys: { "editor:toggle-bold": [{ modifiers: ["Mod"], key: "B" }] }, bakedIds: [], bakedHotkeys: [], bake: () => { throw new Error("not ready"); } };
		expect(list(app({ hotkeyManager: manager }))).toEqual(["editor:toggle-bold=Mod+B", "Paste as plain text=Mod+Shift+V"]);
	});

	it("read the baked list when that is all there is, modifiers as Obsidian compiles them", () => {
		const manager = { bakedIds: ["editor:toggle-bold", "runnable-blocks:run-block", "editor:toggle-italics", 7], bakedHotkeys: [{ modifiers: "Ctrl", key: "B" }, { modifiers: "Ctrl", key: "Enter" }, { modifiers: ["Mod"], key: "I" }, { modifiers: "", key: "X" }] };
		expect(list(app({ hotkeyManager: manager }))).toEqual(["editor:toggle-bold=Ctrl+B", "editor:toggle-italics=Mod+I", "Paste as plain text=Mod+Shift+V"]);
	});

	it("name each command from the app's command list, else from the defaults table, else by its id", () => {
		expect(commandName(app({ commands: { findCommand: (id: string) => ({ name: `named ${id}` }) } }), "x:y")).toBe("named x:y");
		expect(commandName(app({ commands: { commands: { "x:y": { name: "From the record" } } } }), "x:y")).toBe("From the record");
		expect(commandName(app({}), "editor:insert-link")).toBe("Insert Markdown link");
		expect(commandName(app({}), "x:y")).toBe("x:y");
	});

	it("count the editor's own Mod+Shift+V once, even when the list has it", () => {
		const manager = { defaultKeys: { "editor:paste-plain": [{ modifiers: ["Mod", "Shift"], key: "V" }] } };
		expect(list(app({ hotkeyManager: manager }))).toEqual(["editor:paste-plain=Mod+Shift+V"]);
	});
});

describe("without app.hotkeyManager (fallback)", () => {
	it.each([
		["no manager", {}],
		["a manager of another shape", { hotkeyManager: { bakedIds: ["x"] } }],
		["a manager that is not an object", { hotkeyManager: 42 }],
	])("%s: Obsidian's documented default hotkeys stand in", (_what, parts) => {
		const read = obsidianHotkeys(app(parts), OWN);
		expect(read.source).toBe("defaults");
		expect(read.hotkeys).toHaveLength(OBSIDIAN_DEFAULT_HOTKEYS.length + 1);
		const clash = (text: string) => obsidianClashes(chord(text), read.hotkeys, false).map((h) => h.name);
		expect(clash("Mod+K")).toEqual(["Insert Markdown link"]);
		expect(clash("Mod+E")).toEqual(["Toggle reading view"]);
		expect(clash("Mod+B")).toEqual(["Toggle bold"]);
		expect(clash("Mod+Shift+V")).toEqual(["Paste as plain text"]);
		expect(clash("Mod+Shift+S")).toEqual([]);
	});

	it("every entry of the table is a chord the keymap can parse", () => {
		for (const h of OBSIDIAN_DEFAULT_HOTKEYS) expect(parseChord(h.chord)).toMatchObject({ ok: true });
	});
});

describe("clashes", () => {
	it("are the same key on this platform (Mod is Ctrl off macOS, Cmd on it)", () => {
		const theirs = obsidianHotkeys(app({ hotkeyManager: { defaultKeys: { "markdown:toggle-preview": [{ modifiers: ["Mod"], key: "E" }] } } }), OWN).hotkeys;
		const clash = (text: string, isMac: boolean) => obsidianClashes(chord(text), theirs, isMac).map((h) => h.command);
		expect(clash("Mod+E", false)).toEqual(["markdown:toggle-preview"]);
		expect(clash("Ctrl+e", false)).toEqual(["markdown:toggle-preview"]);
		expect(clash("Ctrl+E", true)).toEqual([]);
		expect(clash("Cmd+E", true)).toEqual(["markdown:toggle-preview"]);
		expect(clash("Mod+Shift+E", false)).toEqual([]);
	});
});
