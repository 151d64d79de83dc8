/**
 * The settings page of production main.js, loaded as Obsidian desktop loads it, on Obsidian 1.13
 * (docs/settings.md, "Settings search"): the tab gives Obsidian its rows for the settings search
 * in an idle moment after start, so neither the start nor the core's steps compile the page; then
 * Obsidian draws the rows, and what is changed there reaches user.toml.
 */
import { launchDesktopHost, waitFor, watchTextModules, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";
const PAGE = ["src/ui/settings-tab.ts", "src/ui/connection-settings.ts", "src/ui/settings-rows.ts"];
let host: DesktopHost;
let evaluated: string[];

beforeAll(async () => {
	host = await launchDesktopHost();
	evaluated = watchTextModules(host);
	host.page.playSettingsApi("1.13");
	await host.loadPlugin();
	await waitFor("the core's commands", () => host.page.commandName("commit-all-changes"));
});

afterAll(async () => {
	host?.page.playSettingsApi("1.12");
	await host?.close();
});

describe("the settings page on Obsidian 1.13", () => {
	it("compiles nothing of the page while the plugin and its core start; the next idle moment gives every row to Obsidian's search", () => {
		expect(evaluated).toEqual(["src/ui/plugin-core.ts"]);
		expect(host.page.settingsIndex()).toEqual([]);
		expect(host.idle()).toBe(1);
		expect(evaluated).toEqual(expect.arrayContaining(PAGE));
		expect(host.page.settingsIndex()).toEqual(expect.arrayContaining(["Default timeout", "Blocks run at once", "Keymap preset", "block.run", "Connections", "TLS per server"]));
	});

	it("is drawn by Obsidian from its rows; a value changed there is written to user.toml, and the page is drawn again from it", async () => {
		const before = evaluated.length;
		host.page.openSettings();
		const field = host.document.querySelector<HTMLInputElement>(".rb-setting-parallel");
		expect(field?.value).toBe("4");
		field!.value = "2";
		field!.dispatchEvent(new host.window.Event("change"));
		await waitFor("user.toml to say parallel = 2", () => /^parallel = 2$/m.test(host.page.files.get(USER_TOML) ?? ""));
		await waitFor("the page drawn again from user.toml", () => host.document.querySelector<HTMLInputElement>(".rb-setting-parallel")?.value === "2");
		host.page.closeSettings();
		// Drawn and drawn again without compiling the page twice (the write compiled user.toml's parser).
		expect(evaluated.slice(before).filter((id) => PAGE.includes(id))).toEqual([]);
		expect(host.errors).toEqual([]);
	});
});
