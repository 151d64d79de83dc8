/** @jest-environment jsdom */
import "../support/jsdom-codecs";
import { FENCE_LANGUAGES, VIEW_TYPES } from "../../main";
import { isKindFence } from "../../src/blocks";
import { BLOCK_RENDERERS } from "../../src/ui/block-renderers";
import { installDomHelpers, WorkspaceLeaf, type Component } from "../e2e/host/obsidian-shim";
import { loadedPlugin, USER_TOML } from "../support/plugin-app";

jest.mock("obsidian", () => jest.requireActual<object>("../e2e/host/obsidian-shim"));

installDomHelpers();
jest.setTimeout(30_000);

afterEach(() => document.body.empty());

/** The next task: what the page runs after the current one. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A block of `language` through its processor, as Reading view shows it; the children the processor added. */
function render(plugin: ReturnType<typeof loadedPlugin>["plugin"], language: string, content: string): Component[] {
	const children: Component[] = [];
	const el = document.body.createDiv();
	const markdown = `\`\`\`${language}\n${content}\n\`\`\``;
	const ctx = { sourcePath: "note.md", getSectionInfo: () => ({ text: markdown, lineStart: 0, lineEnd: 2 }), addChild: (c: Component) => (children.push(c), c.load()) };
	plugin.processors.get(language)?.(content, el, ctx);
	return children;
}

describe("the plugin's onload (main.ts)", () => {
	it("names the fence languages the registries give a renderer to, none for kinds that share a fence", () => {
		expect([...FENCE_LANGUAGES]).toEqual(Object.keys(BLOCK_RENDERERS).filter(isKindFence));
		expect(FENCE_LANGUAGES).not.toContain("sse");
		expect(FENCE_LANGUAGES).not.toContain("websocket");
	});

	it("registers a processor per fence language and the panels' view types, nothing else: the rest waits for the layout", () => {
		const { plugin, reads } = loadedPlugin({ [USER_TOML]: "[general]\n" });
		expect([...plugin.processors.keys()]).toEqual([...FENCE_LANGUAGES]);
		expect([...plugin.views.keys()]).toEqual([...VIEW_TYPES]);
		expect(plugin.commands).toEqual([]);
		expect(plugin.extensions).toEqual([]);
		expect(plugin.settingTabs).toEqual([]);
		expect(reads).toEqual([]);
	});

	it("starts the core once the layout is ready, a task per step: from source its module, then its registrations", async () => {
		const r = loadedPlugin();
		r.layoutReady();
		expect(r.plugin.commands).toEqual([]);
		await nextTask();
		const commands = r.plugin.commands.length;
		expect(commands).toBeGreaterThan(10);
		expect(r.plugin.views.size).toBe(2);
		// A block shown afterwards uses the same core: nothing registered twice.
		render(r.plugin, "http", "GET https://x.test/");
		expect(r.plugin.commands).toHaveLength(commands);
	});

	it("starts the core at once when enabled after Obsidian's start (the layout is ready)", () => {
		const r = loadedPlugin({}, true);
		expect(r.plugin.commands.length).toBeGreaterThan(10);
	});

	it("starts no core for a plugin unloaded before the registrations' task", async () => {
		const r = loadedPlugin();
		r.layoutReady();
		r.plugin.unload();
		await nextTask();
		expect(r.plugin.commands).toEqual([]);
	});

	it("starts no core for a plugin disabled before the layout is ready", async () => {
		const r = loadedPlugin();
		r.plugin.unload();
		r.layoutReady();
		await nextTask();
		expect(r.plugin.commands).toEqual([]);
		expect(r.plugin.extensions).toEqual([]);
	});

	it("starts the core for a block shown before the layout is ready, and renders it", async () => {
		const r = loadedPlugin();
		const children = render(r.plugin, "http", "GET https://x.test/");
		expect(children).toHaveLength(1);
		expect(r.plugin.commands.length).toBeGreaterThan(10);
		// The layout's readiness then finds the core started.
		const commands = r.plugin.commands.length;
		r.layoutReady();
		await nextTask();
		expect(r.plugin.commands).toHaveLength(commands);
	});

	it("opens a panel restored before the layout is ready with the core's view of it", async () => {
		const r = loadedPlugin();
		const leaf = new WorkspaceLeaf(r.plugin.app, r.plugin.views, () => undefined);
		await leaf.setViewState({ type: VIEW_TYPES[0] });
		expect(leaf.view?.getViewType()).toBe(VIEW_TYPES[0]);
		expect(r.plugin.commands.length).toBeGreaterThan(10);
		// The core registered its views with main.ts, not a second time with Obsidian.
		expect([...r.plugin.views.keys()]).toEqual([...VIEW_TYPES]);
	});

	it("unloads before and after the core started", () => {
		expect(() => loadedPlugin().plugin.unload()).not.toThrow();
		const r = loadedPlugin({}, true);
		expect(() => r.plugin.unload()).not.toThrow();
	});
});
