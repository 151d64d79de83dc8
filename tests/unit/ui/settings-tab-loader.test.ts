/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import type { App, Plugin } from "obsidian";
import { installDomHelpers, Keymap, Scope } from "../../e2e/host/obsidian-shim";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import { EnvironmentActions } from "../../../src/ui/environments";
import { SettingTabLoader } from "../../../src/ui/settings-tab-loader";
import { loadedStore, memoryAdapter, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

async function loader() {
	const scope = new Scope();
	const app = { scope, keymap: new Keymap(scope), vault: { adapter: memoryAdapter({ [USER_TOML]: "[general]\ntimeout = 5000\n" }) } } as unknown as App;
	const store = await loadedStore(app);
	const tab = new SettingTabLoader(app, { manifest: { id: "runnable-blocks" } } as unknown as Plugin, [store, new EnvironmentActions(app, store), new SchemaCache(() => undefined)]);
	const timeout = () => [...tab.containerEl.querySelectorAll<HTMLInputElement>(".rb-setting-timeout")].map((i) => i.value);
	return { tab, store, timeout };
}

describe("SettingTabLoader", () => {
	it("draws nothing until Obsidian first shows it", async () => {
		const { tab } = await loader();
		expect(tab.containerEl.childElementCount).toBe(0);
	});

	it("draws the settings page into the element Obsidian shows, once however often it is shown", async () => {
		const { tab, timeout } = await loader();
		tab.display();
		tab.display();
		expect(timeout()).toEqual(["5000"]);
		expect(tab.containerEl.classList.contains("rb-settings")).toBe(true);
	});

	it("hands hide to the page, which stops following user.toml until shown again", async () => {
		const { tab, store, timeout } = await loader();
		tab.hide();
		tab.display();
		tab.hide();
		await store.set(["general", "timeout"], 60);
		expect(timeout()).toEqual(["5000"]);
		tab.display();
		await store.set(["general", "timeout"], 70);
		expect(timeout()).toEqual(["70"]);
	});
});
