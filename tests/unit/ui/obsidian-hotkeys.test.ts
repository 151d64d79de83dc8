import type { App } from "obsidian";
import { parseChord, type Chord } from "../../../src/settings/keymap";
import { obsidianClashes, obsidianHotkeys } from "../../../src/ui/obsidian-hotkeys";

const chord = (text: string): Chord => {
	const p = parseChord(text);
	if (!p.ok) throw new Error(p.message);
	return p.chord;
};
const appWith = (manager: unknown) => ({ hotkeyManager: manager }) as unknown as App;

describe("Obsidian's own hotkeys", () => {
	const app = appWith({
		bakedIds: ["editor:toggle-source", "runnable-blocks:run-block", "editor:toggle-bold", "broken"],
		bakedHotkeys: [{ modifiers: ["Mod"], key: "E" }, { modifiers: ["Mod"], key: "Enter" }, { modifiers: ["Mod"], key: "B" }, { modifiers: ["Mod"], key: "" }],
	});

	it("are read from the app, leaving out this plugin's commands and unreadable entries", () => {
		expect(obsidianHotkeys(app, "runnable-blocks:").map((h) => h.command)).toEqual(["editor:toggle-source", "editor:toggle-bold"]);
	});

	it("are an empty list when the app does not expose them", () => {
		expect(obsidianHotkeys(appWith(undefined), "runnable-blocks:")).toEqual([]);
		expect(obsidianHotkeys(appWith({ bakedIds: ["x"] }), "runnable-blocks:")).toEqual([]);
	});

	it("clash with a chord that is the same key on this platform (Mod is Ctrl off macOS)", () => {
		const theirs = obsidianHotkeys(app, "runnable-blocks:");
		expect(obsidianClashes(chord("Mod+E"), theirs, false)).toEqual(["editor:toggle-source"]);
		expect(obsidianClashes(chord("Ctrl+e"), theirs, false)).toEqual(["editor:toggle-source"]);
		expect(obsidianClashes(chord("Ctrl+E"), theirs, true)).toEqual([]);
		expect(obsidianClashes(chord("Cmd+E"), theirs, true)).toEqual(["editor:toggle-source"]);
		expect(obsidianClashes(chord("Mod+Shift+E"), theirs, false)).toEqual([]);
	});
});
