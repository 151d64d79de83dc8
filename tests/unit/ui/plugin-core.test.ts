/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { PROTOCOL_REDIRECT_ACTION } from "../../../src/settings/auth-config";
import { ACTION_SPECS } from "../../../src/settings/keymap";
import { installDomHelpers } from "../../e2e/host/obsidian-shim";
import { loadedPlugin, USER_TOML } from "../../support/plugin-app";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
jest.setTimeout(30_000);

afterEach(() => document.body.empty());

/** The plugin enabled once Obsidian is up (the layout ready): main.ts has started the core. */
function started(files: Record<string, string> = {}) {
	return loadedPlugin(files, true);
}

describe("the core, started when the layout is ready", () => {
	it("registers every action's palette command, its own commands, the chat and version-control panels, and no default hotkey", () => {
		const { plugin } = started();
		const ids = plugin.commands.map((c) => c.id);
		for (const spec of ACTION_SPECS) if (spec.command) expect(ids).toContain(spec.command.id);
		expect(ids).toEqual(expect.arrayContaining(["refresh-db-schemas", "insert-diff-of-two-aliases", "resume-chat"]));
		expect(new Set(ids).size).toBe(ids.length);
		expect(plugin.commands.filter((c) => "hotkeys" in c && (c as { hotkeys?: unknown[] }).hotkeys?.length)).toEqual([]);
		expect(plugin.views.size).toBe(2);
	});

	it("registers the editor's extensions and suggests, the settings tab, the status bar and the sign-in link handler", () => {
		const { plugin } = started();
		expect(plugin.extensions.length).toBeGreaterThan(0);
		expect(plugin.suggests).toHaveLength(2);
		expect(plugin.settingTabs).toHaveLength(1);
		expect([...plugin.protocolHandlers.keys()]).toEqual([PROTOCOL_REDIRECT_ACTION]);
		expect(document.querySelectorAll(".status-bar-item").length).toBeGreaterThan(0);
	});

	it("reads user.toml once started, and no note until Mod+K asks", async () => {
		const r = loadedPlugin({ [USER_TOML]: '[general]\nenvironment = "dev"\n', "a.md": "```http\nGET https://x.test/\n```\n" });
		expect(r.reads).toEqual([]);
		r.layoutReady();
		await Promise.resolve();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(r.reads).toContain(USER_TOML);
		expect(r.reads).not.toContain("a.md");
	});

	it("follows vault renames (history and cross-note references) and the workspace for the chat panel", () => {
		const { handlers } = started();
		expect(handlers.get("rename")?.length).toBeGreaterThanOrEqual(2);
		expect(handlers.has("active-leaf-change")).toBe(true);
		expect(handlers.has("file-open")).toBe(true);
	});
});
