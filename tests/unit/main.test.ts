/** @jest-environment jsdom */
import "../support/jsdom-codecs";
import RunnableBlocksPlugin from "../../main";
import { PROTOCOL_REDIRECT_ACTION } from "../../src/settings/auth-config";
import { ACTION_SPECS } from "../../src/settings/keymap";
import { isKindFence } from "../../src/blocks";
import { BLOCK_RENDERERS } from "../../src/ui/block-renderers";
import { installDomHelpers, Keymap, Plugin, Scope, TFile } from "../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../e2e/host/obsidian-shim"));

installDomHelpers();
jest.setTimeout(30_000);

type Handler = (...args: unknown[]) => void;
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

/**
 * The plugin constructed on an app as Obsidian gives it, as far as onload reaches: a vault with
 * its events and an adapter that logs every read, a workspace whose layout becomes ready when
 * the test says so.
 */
function loaded(files: Record<string, string> = {}) {
	const store = new Map(Object.entries(files));
	const reads: string[] = [];
	const handlers = new Map<string, Handler[]>();
	const on = (name: string, fn: Handler) => {
		handlers.set(name, [...(handlers.get(name) ?? []), fn]);
		return { name };
	};
	let layoutReady: (() => void) | null = null;
	const rootScope = new Scope();
	const app = {
		scope: rootScope,
		keymap: new Keymap(rootScope),
		vault: {
			configDir: ".obsidian",
			adapter: {
				exists: (p: string) => Promise.resolve(store.has(p)),
				read: (p: string) => (reads.push(p), store.has(p) ? Promise.resolve(store.get(p) ?? "") : Promise.reject(new Error(`ENOENT: ${p}`))),
				write: (p: string, d: string) => Promise.resolve(void store.set(p, d)),
				stat: () => Promise.resolve(null),
			},
			on,
			getMarkdownFiles: () => [...store.keys()].filter((p) => p.endsWith(".md")).map((p) => new TFile(p)),
			cachedRead: (f: TFile) => (reads.push(f.path), Promise.resolve(store.get(f.path) ?? "")),
			getAbstractFileByPath: (p: string) => (store.has(p) ? new TFile(p) : null),
		},
		workspace: { on, onLayoutReady: (cb: () => void) => (layoutReady = cb), getLeavesOfType: () => [], getActiveViewOfType: () => null, updateOptions: () => undefined },
		secretStorage: { getSecret: () => null, setSecret: () => undefined, listSecrets: () => [] },
		metadataCache: { on, getFileCache: () => null },
	};
	const plugin = new RunnableBlocksPlugin(app as never, { id: "runnable-blocks", version: "0.0.0" } as never) as unknown as Plugin;
	plugin.load();
	return { plugin, reads, handlers, store, layoutReady: () => layoutReady?.() };
}

afterEach(() => document.body.empty());

describe("the plugin's onload", () => {
	it("registers a code block processor per fence language with a renderer, none for kinds that share a fence", () => {
		const { plugin } = loaded();
		const fences = Object.keys(BLOCK_RENDERERS).filter(isKindFence);
		expect([...plugin.processors.keys()]).toEqual(fences);
		expect(fences).toEqual(expect.arrayContaining(["http", "db", "textdiff"]));
		expect(fences).not.toContain("sse");
		expect(fences).not.toContain("websocket");
	});

	it("registers every action's palette command, its own commands, the chat and version-control panels, and no default hotkey", () => {
		const { plugin } = loaded();
		const ids = plugin.commands.map((c) => c.id);
		for (const spec of ACTION_SPECS) if (spec.command) expect(ids).toContain(spec.command.id);
		expect(ids).toEqual(expect.arrayContaining(["refresh-db-schemas", "insert-diff-of-two-aliases", "resume-chat"]));
		expect(new Set(ids).size).toBe(ids.length);
		expect(plugin.commands.filter((c) => "hotkeys" in c && (c as { hotkeys?: unknown[] }).hotkeys?.length)).toEqual([]);
		expect(plugin.views.size).toBe(2);
	});

	it("registers the editor's extensions and suggests, the settings tab, the status bar and the sign-in link handler", () => {
		const { plugin } = loaded();
		expect(plugin.extensions.length).toBeGreaterThan(0);
		expect(plugin.suggests).toHaveLength(2);
		expect(plugin.settingTabs).toHaveLength(1);
		expect([...plugin.protocolHandlers.keys()]).toEqual([PROTOCOL_REDIRECT_ACTION]);
		expect(document.querySelectorAll(".status-bar-item").length).toBeGreaterThan(0);
	});

	it("reads nothing from the vault while it loads: user.toml waits for the layout, and the notes for Mod+K", async () => {
		const r = loaded({ [USER_TOML]: '[general]\nenvironment = "dev"\n', "a.md": "```http\nGET https://x.test/\n```\n" });
		expect(r.reads).toEqual([]);
		r.layoutReady();
		await Promise.resolve();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(r.reads).toContain(USER_TOML);
		expect(r.reads).not.toContain("a.md");
	});

	it("follows vault renames (history and cross-note references) and the workspace for the chat panel", () => {
		const { handlers } = loaded();
		expect(handlers.get("rename")?.length).toBeGreaterThanOrEqual(2);
		expect(handlers.has("active-leaf-change")).toBe(true);
		expect(handlers.has("file-open")).toBe(true);
	});
});
