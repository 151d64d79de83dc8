/** @jest-environment jsdom */
import type { App } from "obsidian";
import { installDomHelpers, Keymap, Scope } from "../../e2e/host/obsidian-shim";
import { KeymapPresetModal, type PresetChange } from "../../../src/ui/keymap-preset-modal";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;

function open(changes: PresetChange[]) {
	document.body.empty();
	const calls: string[] = [];
	new KeymapPresetModal(app, changes, () => calls.push("apply"), () => calls.push("cancel")).open();
	const items = (cls: string) => [...document.querySelectorAll(`li.${cls}`)].map((li) => li.textContent);
	const click = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text)!.click();
	return { calls, items, click, text: () => document.body.textContent ?? "" };
}

const search: PresetChange = { chord: "Ctrl+K", action: "Search blocks", shadows: ["Insert link"], whilePanelOpen: false };
const env: PresetChange = { chord: "Ctrl+E", action: "Switch environment", shadows: [], whilePanelOpen: false };
const commit: PresetChange = { chord: "Ctrl+G", action: "Commit", shadows: ["Open graph view", "Open local graph"], whilePanelOpen: true };

describe("KeymapPresetModal", () => {
	it("lists each chord with the Obsidian command it would shadow, and free chords apart", () => {
		const m = open([search, env, commit]);
		expect(document.querySelector(".modal-title")?.textContent).toBe("Apply the notebook keymap?");
		expect(m.items("rb-preset-shadow")).toEqual([
			"Ctrl+K: Search blocks, in place of Obsidian's “Insert link”",
			"Ctrl+G: Commit, whenever its panel is open, in place of Obsidian's “Open graph view”",
			"Ctrl+G: Commit, whenever its panel is open, in place of Obsidian's “Open local graph”",
		]);
		expect(m.items("rb-preset-free")).toEqual(["Ctrl+E: Switch environment"]);
		expect(m.text()).not.toContain("No hotkey of Obsidian is shadowed.");
	});

	it("says when no Obsidian hotkey is shadowed", () => {
		const m = open([env, { ...env, chord: "Ctrl+J", action: "Stream", whilePanelOpen: true }]);
		expect(m.items("rb-preset-free")).toEqual(["Ctrl+E: Switch environment", "Ctrl+J: Stream, whenever its panel is open"]);
		expect(m.text()).toContain("No hotkey of Obsidian is shadowed.");
	});

	it("applies only on Apply, and closes", () => {
		const m = open([search]);
		m.click("Apply");
		expect(m.calls).toEqual(["apply"]);
		expect(document.querySelector(".rb-preset-confirm")).toBeNull();
	});

	it.each([
		["Cancel", (m: ReturnType<typeof open>) => m.click("Cancel")],
		["Escape", () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", cancelable: true }))],
	])("cancels, writing nothing, when closed with %s", (_how, close) => {
		const m = open([search]);
		close(m);
		expect(m.calls).toEqual(["cancel"]);
		expect(document.querySelector(".modal-container")).toBeNull();
	});
});
