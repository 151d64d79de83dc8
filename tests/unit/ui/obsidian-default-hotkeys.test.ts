import { OBSIDIAN_DEFAULT_HOTKEYS, OBSIDIAN_EDITOR_KEYS } from "../../../src/ui/obsidian-default-hotkeys";

describe("Obsidian's default hotkeys", () => {
	it("name each command once, and each chord once", () => {
		const commands = OBSIDIAN_DEFAULT_HOTKEYS.map((h) => h.command);
		const chords = OBSIDIAN_DEFAULT_HOTKEYS.map((h) => h.chord);
		expect(new Set(commands).size).toBe(commands.length);
		expect(new Set(chords).size).toBe(chords.length);
	});

	it("go to tabs 1 to 8 with Mod and their digit, the last with Mod+9", () => {
		const tabs = OBSIDIAN_DEFAULT_HOTKEYS.filter((h) => h.command.startsWith("workspace:goto-"));
		expect(tabs.map((h) => [h.command, h.chord])).toEqual([...Array.from({ length: 8 }, (_, i) => [`workspace:goto-tab-${i + 1}`, `Mod+${i + 1}`]), ["workspace:goto-last-tab", "Mod+9"]]);
		expect(tabs[0].name).toBe("Go to tab #1");
	});

	it("count the editor's own keys apart, without a command id", () => {
		expect(OBSIDIAN_EDITOR_KEYS.every((k) => k.command === "" && !OBSIDIAN_DEFAULT_HOTKEYS.some((h) => h.chord === k.chord))).toBe(true);
	});
});
