/**
 * The keymap policy of docs/shortcuts.md in the Chromium host: with default settings no chord
 * outside a runnable block is taken from Obsidian; the Notebook preset lists what it would
 * shadow (Mod+G too, which it widens to the open version-control panel), applies, and reverts. The host runs Obsidian's own hotkeys as commands that record
 * when they fire (tests/e2e/host/host.ts), after the plugins' app-scope chords, as Obsidian does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./support/eventually";
import { launchPluginHost, USER_TOML, type Host } from "./support/host";

jest.setTimeout(120_000);

let host: Host;
const userToml = () => readFileSync(join(host.vaultDir, USER_TOML), "utf8");
/** Presses a chord and says what received it: one of Obsidian's commands, the editor, or a modal of ours. */
async function press(chord: string): Promise<{ obsidian: string[]; modal: boolean }> {
	await host.api((h) => void h.obsidianFired.splice(0));
	await host.page.keyboard.press(chord);
	// Our modals open after the block index is ready: give them the time to, since absence is asserted too.
	await host.page.waitForTimeout(300);
	const modal = (await host.page.locator(".modal-container").count()) > 0;
	if (modal) await host.page.keyboard.press("Escape");
	return { obsidian: await host.api((h) => [...h.obsidianFired]), modal };
}

const NOTE = ["Intro text", "", "```http alias=list", "GET http://127.0.0.1:1/api/json", "```", "", "tail"].join("\n");
/** Obsidian's default hotkeys that the seed's global chords also use (docs/shortcuts.md), and what receives each in Obsidian. */
const OBSIDIAN_KEYS = [
	["Control+k", "editor:insert-link"],
	["Control+e", "markdown:toggle-preview"],
	["Control+Shift+V", "paste-as-plain-text"],
	["Control+b", "editor:toggle-bold"],
] as const;

beforeAll(async () => {
	host = await launchPluginHost({ userToml: '# mine\n[general]\n\n[environments.dev]\nbase_url = "http://127.0.0.1:1"\n' });
	await host.api((h, md) => h.openEditor(md), NOTE);
});

afterAll(async () => {
	await host?.close();
});

describe("with default settings", () => {
	it.each(OBSIDIAN_KEYS)("%s outside a block reaches Obsidian's %s, and opens nothing of ours", async (chord, command) => {
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await expect(press(chord)).resolves.toEqual({ obsidian: [command], modal: false });
	});

	it.each(OBSIDIAN_KEYS)("%s inside a block reaches Obsidian's %s too: it is no block action", async (chord, command) => {
		await host.page.locator(".cm-line", { hasText: "GET" }).click();
		await expect(press(chord)).resolves.toEqual({ obsidian: [command], modal: false });
	});

	it("Control+Shift+S, the seed's sync chord, is not taken either", async () => {
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await expect(press("Control+Shift+S")).resolves.toEqual({ obsidian: [], modal: false });
	});

	it.each(["Mod-Enter", "Mod-Shift-Enter", "Mod-.", "Mod-Shift-c", "Mod-Shift-e", "Mod-Shift-r"])("the block chord %s falls through to Obsidian's editor outside a block", async (key) => {
		await host.page.locator(".cm-line", { hasText: "Intro" }).click();
		await host.api((h) => void h.fellThrough.splice(0));
		await host.page.keyboard.press(key.replace(/-/g, "+").replace("Mod", "Control").replace(/\+([a-z])$/, (_m, c: string) => `+${c.toUpperCase()}`));
		await expect(host.api((h) => h.fellThrough.join(","))).resolves.toBe(key);
	});

	it("the Keymap page shows global actions unbound, from the default, and the block chords with Obsidian's they share", async () => {
		await host.api((h) => h.openSettings());
		const row = (action: string) => host.page.locator(`.rb-keymap-row[data-action="${action}"]`);
		await expect(row("search.blocks").locator(".rb-keymap-chord").textContent()).resolves.toBe("Unbound");
		await expect(row("search.blocks").getAttribute("data-source")).resolves.toBe("default");
		await expect(row("search.blocks").locator(".rb-keymap-source").textContent()).resolves.toBe("Default");
		await expect(row("search.blocks").locator(".rb-keymap-conflict").count()).resolves.toBe(0);
		await expect(row("block.run").locator(".rb-keymap-chord").textContent()).resolves.toBe("Ctrl+Enter");
		await expect(host.page.locator(".rb-keymap-defaults-note").count()).resolves.toBe(0);
	});
});

describe("the Notebook keymap preset", () => {
	const preset = () => host.page.locator(".rb-keymap-preset select");

	it("lists each Obsidian command it would shadow before writing anything; cancel writes nothing", async () => {
		await host.api((h) => h.openSettings());
		await preset().selectOption("notebook");
		const shadows = host.page.locator(".modal .rb-preset-shadow");
		await shadows.first().waitFor();
		await expect(shadows.allTextContents()).resolves.toEqual([
			"Ctrl+K: Search runnable blocks and variables, in place of Obsidian's “Insert Markdown link”",
			"Ctrl+E: Switch environment, in place of Obsidian's “Toggle reading view”",
			"Ctrl+Shift+V: New variable in the active environment, in place of Obsidian's “Paste as plain text”",
			"Ctrl+B: Toggle the chat panel, in place of Obsidian's “Toggle bold”",
			"Ctrl+G: Commit all changes in the version-control panel, whenever its panel is open, in place of Obsidian's “Open graph view”",
		]);
		expect(userToml()).not.toContain("keymap_preset");
		await host.page.locator(".modal button", { hasText: "Cancel" }).click();
		await expect(host.page.locator(".modal").count()).resolves.toBe(0);
		await expect(preset().inputValue()).resolves.toBe("obsidian");
		expect(userToml()).not.toContain("keymap_preset");
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await expect(press("Control+k")).resolves.toEqual({ obsidian: ["editor:insert-link"], modal: false });
	});

	it("applies: user.toml says so, the page shows the chords from the preset, and Mod+K opens block search", async () => {
		await host.api((h) => h.openSettings());
		await preset().selectOption("notebook");
		await host.page.locator(".modal button", { hasText: "Apply" }).click();
		await eventually(() => expect(userToml()).toMatch(/\[general\][^[]*keymap_preset = "notebook"/));
		expect(userToml()).toContain("# mine");
		const row = host.page.locator('.rb-keymap-row[data-action="search.blocks"]');
		await eventually(async () => expect(await row.getAttribute("data-source")).toBe("preset"));
		await expect(row.locator(".rb-keymap-chord").textContent()).resolves.toBe("Ctrl+K");
		await expect(row.locator(".rb-keymap-conflict").textContent()).resolves.toBe("Shadows Obsidian's “Insert Markdown link”.");
		await expect(host.page.locator('.rb-keymap-row[data-action="chat.toggle"] .rb-keymap-reserved').count()).resolves.toBe(0);
		await expect(host.page.locator('.rb-keymap-row[data-action="vcs.sync"] .rb-keymap-reserved').count()).resolves.toBe(0);
		// Mod+B is chat.toggle's everywhere and vcs.branch's in the focused panel: a note on both rows, no conflict between them.
		const chat = host.page.locator('.rb-keymap-row[data-action="chat.toggle"]');
		const branch = host.page.locator('.rb-keymap-row[data-action="vcs.branch"]');
		await expect(chat.locator(".rb-keymap-shadow").textContent()).resolves.toBe("While its panel has focus vcs.branch takes the chord.");
		await expect(branch.locator(".rb-keymap-shadow").textContent()).resolves.toBe("While its panel has focus it takes the chord from chat.toggle.");
		await expect(branch.locator(".rb-keymap-conflict", { hasText: "chat.toggle" }).count()).resolves.toBe(0);
		await expect(chat.locator(".rb-keymap-conflict", { hasText: "vcs.branch" }).count()).resolves.toBe(0);
		// Mod+G commits whenever the version-control panel is open, no longer only while it has focus.
		await expect(host.page.locator('.rb-keymap-row[data-action="vcs.commit"] .rb-keymap-while-open').textContent()).resolves.toBe("With the notebook keymap it acts whenever its panel is open, focused or not.");

		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await host.api((h) => void h.obsidianFired.splice(0));
		await host.page.keyboard.press("Control+k");
		await host.page.locator(".modal .prompt-input[placeholder^='Search blocks']").waitFor();
		await host.page.keyboard.press("Escape");
		await expect(host.api((h) => [...h.obsidianFired])).resolves.toEqual([]);
		await expect(press("Control+e")).resolves.toEqual({ obsidian: [], modal: true });
		// The preset binds chat.toggle to Mod+B, in place of Bold: the chat panel opens, and closes again.
		await expect(press("Control+b")).resolves.toEqual({ obsidian: [], modal: false });
		await expect(host.page.locator("#sidebar .rb-chat").count()).resolves.toBe(1);
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await expect(press("Control+b")).resolves.toEqual({ obsidian: [], modal: false });
		await expect(host.page.locator("#sidebar .rb-chat").count()).resolves.toBe(0);
	});

	it("reverts: back to Obsidian, Mod+K reaches Insert link again", async () => {
		await host.api((h) => h.openSettings());
		await preset().selectOption("obsidian");
		await eventually(() => expect(userToml()).toContain('keymap_preset = "obsidian"'));
		await eventually(async () => expect(await host.page.locator('.rb-keymap-row[data-action="search.blocks"]').getAttribute("data-source")).toBe("default"));
		await expect(host.page.locator(".rb-keymap-while-open").count()).resolves.toBe(0);
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		for (const [chord, command] of OBSIDIAN_KEYS) await expect(press(chord)).resolves.toEqual({ obsidian: [command], modal: false });
	});

	it("a chord bound in user.toml wins over the preset and says it comes from user.toml", async () => {
		await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), userToml().replace('keymap_preset = "obsidian"', 'keymap_preset = "notebook"') + '\n[keymap]\n"search.blocks" = "Alt+K"\n');
		await host.api((h) => h.openSettings());
		const row = host.page.locator('.rb-keymap-row[data-action="search.blocks"]');
		await eventually(async () => expect(await row.getAttribute("data-source")).toBe("user"));
		await expect(row.locator(".rb-keymap-source").textContent()).resolves.toBe("user.toml");
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await expect(press("Control+k")).resolves.toEqual({ obsidian: ["editor:insert-link"], modal: false });
		await expect(press("Alt+k")).resolves.toEqual({ obsidian: [], modal: true });
	});
});

describe("where Obsidian does not expose its hotkey list", () => {
	it("the page says conflicts come from Obsidian's default hotkeys, and the preset still lists what it would shadow", async () => {
		await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), "[general]\n");
		await host.api((h) => h.hideHotkeyManager());
		await host.api((h) => h.openSettings());
		await eventually(async () => expect(await host.page.locator(".rb-keymap-preset select").inputValue()).toBe("obsidian"));
		await expect(host.page.locator(".rb-keymap-defaults-note").count()).resolves.toBe(1);
		await expect(host.page.locator('.rb-keymap-row[data-action="block.run"] .rb-keymap-conflict').textContent()).resolves.toBe("Outside runnable blocks, Obsidian's “Open link under cursor in new tab” keeps it.");
		await host.page.locator(".rb-keymap-preset select").selectOption("notebook");
		await host.page.locator(".modal .rb-preset-shadow").first().waitFor();
		await expect(host.page.locator(".modal .rb-preset-shadow").allTextContents()).resolves.toEqual([
			"Ctrl+K: Search runnable blocks and variables, in place of Obsidian's “Insert Markdown link”",
			"Ctrl+E: Switch environment, in place of Obsidian's “Toggle reading view”",
			"Ctrl+Shift+V: New variable in the active environment, in place of Obsidian's “Paste as plain text”",
			"Ctrl+B: Toggle the chat panel, in place of Obsidian's “Toggle bold”",
			"Ctrl+G: Commit all changes in the version-control panel, whenever its panel is open, in place of Obsidian's “Open graph view”",
		]);
		await host.page.locator(".modal button", { hasText: "Cancel" }).click();
	});
});
