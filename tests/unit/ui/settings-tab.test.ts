/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import type { App, Plugin } from "obsidian";
import { closeSettingTab, installDomHelpers, Keymap, notices, openSettingTab, playSettingsApi, Scope } from "../../e2e/host/obsidian-shim";
import { eventually } from "../../e2e/support/eventually";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import { EnvironmentActions } from "../../../src/ui/environments";
import { SettingTabLoader } from "../../../src/ui/settings-tab-loader";
import { loadedStore, memoryAdapter, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
const scope = new Scope();
const keymap = new Keymap(scope);
const press = (init: KeyboardEventInit) => window.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
afterEach(() => {
	for (let open = document.querySelectorAll(".modal-container").length; open > 0; open--) press({ key: "Escape" });
});

const TOML = '# kept\n[general]\nenvironment = "dev"\ntimeout = 5000\n\n[environments.dev]\nbase = "http://127.0.0.1"\n\n[environments.prod]\nbase = "https://example.com"\n';

type Api = "1.12" | "1.13";
let api: Api = "1.12";

/**
 * The page drawn from a user.toml in a memory vault; no hotkey manager, so Obsidian's default
 * hotkeys are assumed. Obsidian 1.12 calls display(); 1.13 draws the rows the tab gives once its
 * idle moment after start has passed.
 */
async function page(toml = TOML) {
	document.body.empty();
	notices.length = 0;
	playSettingsApi(api);
	const idle: Array<() => void> = [];
	window.requestIdleCallback = (callback) => idle.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
	const adapter = memoryAdapter({ [USER_TOML]: toml });
	const secrets = new Map<string, string>();
	const app = { scope, keymap, vault: { adapter }, secretStorage: { setSecret: (id: string, v: string) => secrets.set(id, v), getSecret: (id: string) => secrets.get(id) ?? null } } as unknown as App;
	const store = await loadedStore(app);
	const plugin = { manifest: { id: "runnable-blocks" }, register: () => undefined } as unknown as Plugin;
	const tab = new SettingTabLoader(app, plugin, store, new EnvironmentActions(app, store), new SchemaCache(() => undefined));
	for (const moment of idle.splice(0)) moment();
	document.body.appendChild(tab.containerEl);
	openSettingTab(tab);
	const el = tab.containerEl;
	const setting = (name: string) => [...el.querySelectorAll<HTMLElement>(".setting-item")].find((s) => s.querySelector(".setting-item-name")?.textContent === name)!;
	const change = (input: HTMLInputElement | HTMLSelectElement, value: string) => {
		input.value = value;
		input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? "change" : "input"));
		if (input instanceof HTMLInputElement) input.dispatchEvent(new Event("change"));
	};
	const button = (within: HTMLElement, text: string) => [...within.querySelectorAll("button")].find((b) => b.textContent === text)!;
	const row = (action: string) => el.querySelector<HTMLElement>(`.rb-keymap-row[data-action="${action}"]`)!;
	return { tab, store, el, secrets, setting, change, button, row, close: () => closeSettingTab(tab), toml: () => adapter.files.get(USER_TOML) ?? "" };
}

describe.each<Api>(["1.12", "1.13"])("the settings page, as Obsidian %s draws it", (version) => {
	beforeEach(() => (api = version));
	afterAll(() => playSettingsApi("1.12"));

	it("names the file it writes and draws the sections from user.toml", async () => {
		const p = await page();
		expect(p.setting("Settings file").textContent).toContain(`Everything here is written to ${USER_TOML}`);
		const headings = [...p.el.querySelectorAll(".setting-item-heading .setting-item-name")].map((h) => h.textContent);
		expect(headings).toEqual(expect.arrayContaining(["Environments", "Keymap", "Version control"]));
		expect(p.el.querySelector<HTMLInputElement>(".rb-setting-timeout")?.value).toBe("5000");
		expect([...p.el.querySelectorAll(".rb-env-row .setting-item-name")].map((n) => n.textContent)).toEqual(["dev", "prod"]);
	});

	describe("General", () => {
		it("writes a valid timeout into user.toml, comments kept", async () => {
			const p = await page();
			p.change(p.el.querySelector<HTMLInputElement>(".rb-setting-timeout")!, "750");
			await eventually(() => expect(p.store.settings.general.timeout).toBe(750));
			expect(p.toml()).toMatch(/^# kept\n\[general\]/);
		});

		it.each([
			["rb-setting-timeout", "0", "Runnable Blocks: The timeout is a whole number of milliseconds above 0.", "5000"],
			["rb-setting-parallel", "1.5", "Runnable Blocks: Blocks run at once is a whole number from 1 to", ""],
		])("refuses a bad value in .%s, says why and shows the value in force", async (cls, value, message) => {
			const p = await page();
			const input = p.el.querySelector<HTMLInputElement>(`.${cls}`)!;
			const before = input.value;
			p.change(input, value);
			expect(notices[0]).toContain(message);
			expect(input.value).toBe(before);
			expect(p.toml()).toBe(TOML);
		});

		it("switches the active environment from the dropdown", async () => {
			const p = await page();
			p.change(p.setting("Active environment").querySelector("select")!, "prod");
			await eventually(() => expect(p.store.settings.general.environment).toBe("prod"));
			// The page follows user.toml: the row of prod now says it is active.
			await eventually(() => expect(p.setting("prod").querySelector(".setting-item-description")?.textContent).toBe("Active"));
		});
	});

	describe("Environments", () => {
		it("renames an environment, and the active one stays active under its new name", async () => {
			const p = await page();
			const dev = p.setting("dev");
			p.change(dev.querySelector("input")!, "local");
			p.button(dev, "Rename").click();
			await eventually(() => expect(p.store.settings.general.environment).toBe("local"));
			expect(Object.keys(p.store.settings.environments)).toEqual(["local", "prod"]);
		});

		it("edits, makes secret and deletes a variable", async () => {
			const p = await page();
			const base = () => p.el.querySelector<HTMLElement>(".rb-variable-row")!;
			p.change(base().querySelector("input")!, "http://127.0.0.9");
			await eventually(() => expect(p.store.settings.environments.dev.base).toEqual({ value: "http://127.0.0.9" }));
			p.button(base(), "Make secret").click();
			await eventually(() => expect(p.store.settings.environments.dev.base).toEqual({ secret: "runnable-blocks-dev-base" }));
			expect(p.secrets.get("runnable-blocks-dev-base")).toBe("http://127.0.0.9");
			expect(base().textContent).toContain("Secret, stored as “runnable-blocks-dev-base”.");
			base().querySelector<HTMLElement>('[aria-label="Delete base"]')!.click();
			await eventually(() => expect(p.store.settings.environments.dev).toEqual({}));
		});
	});

	describe("Keymap", () => {
		it("shows each action's chord and where it comes from", async () => {
			const p = await page('[keymap]\n"block.cancel" = "Mod+Shift+X"\n');
			expect(p.row("block.run").querySelector(".rb-keymap-chord")?.textContent).toBe("Ctrl+Enter");
			expect(p.row("block.run").dataset.source).toBe("default");
			expect(p.row("block.cancel").dataset.source).toBe("user");
			expect(p.row("block.cancel").querySelector(".rb-keymap-source")?.textContent).toBe("user.toml");
			expect(p.row("search.blocks").querySelector(".rb-keymap-chord")?.textContent).toBe("Unbound");
			expect(p.el.querySelector(".rb-keymap-defaults-note")).not.toBeNull();
		});

		it("warns of a chord two actions share and of the Obsidian hotkey a chord takes", async () => {
			const p = await page('[keymap]\n"block.cancel" = "Mod+Enter"\n"search.blocks" = "Mod+K"\n');
			expect(p.row("block.run").querySelector(".rb-keymap-conflict")?.textContent).toBe("Same chord as block.cancel. Outside runnable blocks, Obsidian's “Open link under cursor in new tab” keeps it.");
			expect(p.row("search.blocks").querySelector(".rb-keymap-conflict")?.textContent).toBe("Shadows Obsidian's “Insert Markdown link”.");
			expect(p.row("block.copy_curl").querySelector(".rb-keymap-conflict")).toBeNull();
		});

		it("captures the next chord pressed and writes it; Escape gives up", async () => {
			const p = await page();
			const chord = () => p.row("block.run").querySelector<HTMLButtonElement>(".rb-keymap-chord")!;
			chord().click();
			expect(chord().textContent).toBe("Press a chord…");
			press({ key: "Escape" });
			expect(chord().textContent).toBe("Ctrl+Enter");
			chord().click();
			press({ key: "j", code: "KeyJ", ctrlKey: true, shiftKey: true });
			await eventually(() => expect(p.row("block.run").dataset.source).toBe("user"));
			expect(chord().textContent).toBe("Ctrl+Shift+J");
			expect(p.toml()).toContain('"block.run" = "Mod+Shift+J"');
		});

		it("resets an action to its default", async () => {
			const p = await page('[keymap]\n"block.cancel" = "Mod+Shift+X"\n');
			p.row("block.cancel").querySelector<HTMLElement>('[aria-label="Reset to default"]')!.click();
			await eventually(() => expect(p.row("block.cancel").dataset.source).toBe("default"));
			expect(p.toml()).not.toContain("block.cancel");
		});

		it("asks before the notebook preset takes Obsidian's chords: Apply writes it, Cancel shows the preset in force again", async () => {
			const p = await page();
			const preset = () => p.el.querySelector<HTMLSelectElement>(".rb-keymap-preset select")!;
			p.change(preset(), "notebook");
			expect(document.querySelector(".rb-preset-confirm")?.textContent).toContain("Ctrl+K: Search runnable blocks and variables, in place of Obsidian's “Insert Markdown link”");
			p.button(document.querySelector(".modal")!, "Cancel").click();
			expect(preset().value).toBe("obsidian");
			expect(p.toml()).toBe(TOML);
			p.change(preset(), "notebook");
			p.button(document.querySelector(".modal")!, "Apply").click();
			await eventually(() => expect(p.store.settings.general.keymapPreset).toBe("notebook"));
		});
	});

	describe("Version control", () => {
		it("refuses a template with an unknown placeholder, and an empty one goes back to the default", async () => {
			const p = await page('[vcs]\ncommit_template = "notes: {count}"\n');
			const field = p.el.querySelector<HTMLInputElement>(".rb-setting-commit-template")!;
			p.change(field, "notes {nope}");
			expect(notices[0]).toMatch(/^Runnable Blocks: Commit message template: unknown placeholder \{nope\}/);
			expect(field.value).toBe("notes: {count}");
			p.change(field, "  ");
			await eventually(() => expect(p.toml()).not.toContain("commit_template"));
		});
	});

	it("follows user.toml while shown, and stops when hidden", async () => {
		const p = await page();
		await p.store.set(["general", "timeout"], 1234);
		expect(p.el.querySelector<HTMLInputElement>(".rb-setting-timeout")?.value).toBe("1234");
		p.close();
		await p.store.set(["general", "timeout"], 4321);
		expect(p.el.querySelector<HTMLInputElement>(".rb-setting-timeout")?.value).toBe("1234");
	});
});
