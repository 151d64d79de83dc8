/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import type { App, Plugin } from "obsidian";
import { closeSettingTab, installDomHelpers, Keymap, openSettingTab, playSettingsApi, Scope } from "../../e2e/host/obsidian-shim";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import { EnvironmentActions } from "../../../src/ui/environments";
import { SettingTabLoader } from "../../../src/ui/settings-tab-loader";
import type * as SettingsTabModule from "../../../src/ui/settings-tab";
import { loadedStore, memoryAdapter, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));
/** How many settings pages were made: each is the page's module required and put to work. */
const mockPages = { made: 0 };
jest.mock("../../../src/ui/settings-tab", () => {
	const actual = jest.requireActual<typeof SettingsTabModule>("../../../src/ui/settings-tab");
	class CountedPage extends actual.SettingsPage {
		constructor(...args: ConstructorParameters<typeof actual.SettingsPage>) {
			super(...args);
			mockPages.made++;
		}
	}
	return { ...actual, SettingsPage: CountedPage };
});

installDomHelpers();

/** A definition as the tab gives it to Obsidian 1.13. */
interface Row {
	name: string;
	desc?: string;
	aliases?: string[];
}

async function loader(api: "1.12" | "1.13") {
	playSettingsApi(api);
	mockPages.made = 0;
	const idle: Array<() => void> = [];
	window.requestIdleCallback = (callback) => idle.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
	const scope = new Scope();
	const app = { scope, keymap: new Keymap(scope), vault: { adapter: memoryAdapter({ [USER_TOML]: '[general]\ntimeout = 5000\n\n[environments.dev]\nbase = "http://127.0.0.1"\n' }) } } as unknown as App;
	const store = await loadedStore(app);
	const stops: Array<() => void> = [];
	const plugin = { manifest: { id: "runnable-blocks" }, register: (stop: () => void) => stops.push(stop) } as unknown as Plugin;
	const tab = new SettingTabLoader(app, plugin, store, new EnvironmentActions(app, store), new SchemaCache(() => undefined));
	const timeout = () => [...tab.containerEl.querySelectorAll<HTMLInputElement>(".rb-setting-timeout")].map((i) => i.value);
	// What Obsidian 1.13 holds for its settings search (the host's tab keeps it as Obsidian does).
	const indexed = () => (tab as unknown as { settingItems?: Row[] }).settingItems ?? [];
	const search = (query: string) => indexed().filter((r) => [r.name, r.desc ?? "", ...(r.aliases ?? [])].some((text) => text.toLowerCase().includes(query))).map((r) => r.name);
	const idleMoment = () => idle.splice(0).forEach((moment) => moment());
	return { tab, store, timeout, indexed, search, idleMoment, idle, stops };
}

afterAll(() => playSettingsApi("1.12"));

describe("SettingTabLoader, on Obsidian before 1.13", () => {
	it("draws nothing until Obsidian first shows it, and asks for no idle moment", async () => {
		const { tab, idle } = await loader("1.12");
		expect(tab.containerEl.childElementCount).toBe(0);
		expect(idle).toHaveLength(0);
		expect(mockPages.made).toBe(0);
	});

	it("draws the settings page into the element Obsidian shows, once however often it is shown", async () => {
		const { tab, timeout } = await loader("1.12");
		openSettingTab(tab);
		openSettingTab(tab);
		expect(timeout()).toEqual(["5000"]);
		expect(tab.containerEl.classList.contains("rb-settings")).toBe(true);
	});

	it("hands hide to the page, which stops following user.toml until shown again", async () => {
		const { tab, store, timeout } = await loader("1.12");
		closeSettingTab(tab);
		openSettingTab(tab);
		closeSettingTab(tab);
		await store.set(["general", "timeout"], 60);
		expect(timeout()).toEqual(["5000"]);
		openSettingTab(tab);
		await store.set(["general", "timeout"], 70);
		expect(timeout()).toEqual(["70"]);
	});
});

describe("SettingTabLoader, on Obsidian 1.13", () => {
	it("gives Obsidian no rows as it is added, so the start makes nothing of the page; the next idle moment gives every row to its search", async () => {
		const { tab, indexed, search, idleMoment } = await loader("1.13");
		// What Obsidian 1.13 does as the tab is added.
		(tab as unknown as { update(): void }).update();
		expect(indexed()).toEqual([]);
		expect(mockPages.made).toBe(0);
		idleMoment();
		expect(mockPages.made).toBe(1);
		expect(search("timeout")).toEqual(["Default timeout"]);
		expect(search("run the block")).toContain("block.run");
		// Also by terms the same in every language: a user.toml key, an option, a chord, a protocol.
		expect(search("parallel")).toEqual(["Blocks run at once"]);
		expect(search("ctrl+enter")).toEqual(["block.run"]);
		expect(search("obsidian")).toEqual(expect.arrayContaining(["Transport", "Keymap preset"]));
		expect(search("postgres")).toEqual(["Connections"]);
		expect(search("mtls")).toEqual(["TLS per server"]);
		expect(indexed().map((r) => r.name)).toEqual(expect.arrayContaining(["Settings file", "Environments", "dev", "base", "Keymap", "Keymap preset", "Version control", "Connections", "New connection", "TLS per server"]));
	});

	it("makes nothing of the page when the plugin is disabled before its idle moment", async () => {
		const { indexed, idleMoment, stops } = await loader("1.13");
		for (const stop of stops) stop();
		idleMoment();
		expect(mockPages.made).toBe(0);
		expect(indexed()).toEqual([]);
	});

	it("gives the rows again when user.toml changes, and stops with the plugin", async () => {
		const { store, search, idleMoment, stops } = await loader("1.13");
		idleMoment();
		expect(search("staging")).toEqual([]);
		await store.set(["environments", "staging", "base"], "http://127.0.0.2");
		expect(search("staging")).toEqual(["staging"]);
		for (const stop of stops) stop();
		await store.set(["environments", "qa", "base"], "http://127.0.0.3");
		expect(search("qa")).toEqual([]);
	});

	it("is drawn by Obsidian from its rows, and follows user.toml while shown", async () => {
		const { tab, store, timeout, idleMoment } = await loader("1.13");
		idleMoment();
		const display = jest.spyOn(tab, "display");
		openSettingTab(tab);
		expect(display).not.toHaveBeenCalled();
		expect(timeout()).toEqual(["5000"]);
		await store.set(["general", "timeout"], 70);
		expect(timeout()).toEqual(["70"]);
	});

	it("opened before its idle moment, draws itself; its rows go to Obsidian once it is closed", async () => {
		const { tab, store, timeout, indexed, search, idleMoment } = await loader("1.13");
		openSettingTab(tab);
		expect(timeout()).toEqual(["5000"]);
		idleMoment();
		await store.set(["general", "timeout"], 70);
		expect(timeout()).toEqual(["70"]);
		// While the page draws itself, Obsidian is not handed rows to draw over it.
		expect(indexed()).toEqual([]);
		closeSettingTab(tab);
		expect(search("timeout")).toEqual(["Default timeout"]);
		const display = jest.spyOn(tab, "display");
		openSettingTab(tab);
		expect(display).not.toHaveBeenCalled();
		expect(timeout()).toEqual(["70"]);
		expect(mockPages.made).toBe(1);
	});
});
