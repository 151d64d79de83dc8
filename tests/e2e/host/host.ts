/**
 * The test host page: provides `obsidian` and CodeMirror to the production main.js the way
 * Obsidian does (CommonJS with an injected require), and renders notes in a reading view
 * through the plugin's code block processors.
 */
import * as cmAutocomplete from "@codemirror/autocomplete";
import * as cmLanguage from "@codemirror/language";
import * as cmState from "@codemirror/state";
import * as cmView from "@codemirror/view";
import { desktopBridgeModules } from "./desktop-bridge";
import { history, undo } from "@codemirror/commands";
import * as lezerCommon from "@lezer/common";
import * as lezerHighlight from "@lezer/highlight";
import * as lezerLr from "@lezer/lr";
import { vim, Vim } from "@replit/codemirror-vim";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { scanFences } from "../../../src/blocks/fences";
import * as obsidian from "./obsidian-shim";
import { matches } from "./obsidian-ui";
import { eventsOver, type Handler } from "../../support/fake-events";

obsidian.installDomHelpers();

const files = new Map<string, string>();
const sidebarLeaves: obsidian.WorkspaceLeaf[] = [];
const binaries = new Map<string, ArrayBuffer>();
/** Milliseconds a binary read of a path takes (a slow disk or network share), for tests of late arrivals. */
const slowReads = new Map<string, number>();

/** Vault events, as Obsidian's Events: on() returns a ref, trigger() calls the handlers. */
const vaultHandlers = new Map<string, Handler[]>();
const workspaceHandlers = new Map<string, Handler[]>();
/** How many vault and workspace handlers are registered now (a plugin's unload takes all of its own off). */
function eventHandlerCount(): number {
	return [...vaultHandlers.values(), ...workspaceHandlers.values()].reduce((n, list) => n + list.length, 0);
}
function trigger(name: string, ...args: unknown[]): void {
	for (const h of vaultHandlers.get(name) ?? []) h(...args);
}
const config: Record<string, unknown> = { vimMode: false };
const rootScope = new obsidian.Scope();
const keymap = new obsidian.Keymap(rootScope);

/**
 * Obsidian's own commands whose default hotkeys the seed's global chords also use. Each records
 * its id in `obsidianFired` when it runs, so a test can tell whether a key reached Obsidian.
 */
const obsidianFired: string[] = [];
type HostHotkey = { modifiers: Array<"Mod" | "Ctrl" | "Meta" | "Shift" | "Alt">; key: string };
const obsidianCommands: Record<string, { id: string; name: string; callback: () => void }> = {};
const defaultKeys: Record<string, HostHotkey[]> = {};
for (const [id, name, modifiers, key] of [
	["editor:insert-link", "Insert Markdown link", ["Mod"], "K"],
	["markdown:toggle-preview", "Toggle reading view", ["Mod"], "E"],
	["editor:toggle-bold", "Toggle bold", ["Mod"], "B"],
	["editor:toggle-italics", "Toggle italics", ["Mod"], "I"],
	["graph:open", "Open graph view", ["Mod"], "G"],
] as const) {
	obsidianCommands[id] = { id, name, callback: () => void obsidianFired.push(id) };
	defaultKeys[id] = [{ modifiers: [...modifiers], key }];
}

/**
 * Obsidian's hotkey manager, shaped as the app keeps it (defaults, the user's custom keys, and
 * the "baked" list with compiled modifiers): it runs a command's hotkey when no scope took the
 * key, after the plugins' registrations on app.scope (obsidian-ui.ts, Keymap.afterScopes).
 */
const hotkeyManager = {
	defaultKeys,
	customKeys: {} as Record<string, HostHotkey[]>,
	baked: false,
	bakedIds: [] as string[],
	bakedHotkeys: [] as Array<{ modifiers: string; key: string }>,
	bake(): void {
		if (this.baked) return;
		this.bakedIds = [];
		this.bakedHotkeys = [];
		for (const [id, keys] of Object.entries({ ...this.defaultKeys, ...this.customKeys })) {
			for (const k of keys) {
				this.bakedIds.push(id);
				this.bakedHotkeys.push({ modifiers: k.modifiers.map((m) => (m === "Mod" ? "Ctrl" : m)).join(","), key: k.key });
			}
		}
		this.baked = true;
	},
	handle(e: KeyboardEvent): boolean {
		this.bake();
		for (let i = 0; i < this.bakedHotkeys.length; i++) {
			const h = this.bakedHotkeys[i];
			const command = obsidianCommands[this.bakedIds[i]];
			if (!command || !matches({ modifiers: h.modifiers.split(",").filter(Boolean) as HostHotkey["modifiers"], key: h.key }, e)) continue;
			command.callback();
			return true;
		}
		return false;
	},
};
keymap.afterScopes = (e) => hotkeyManager.handle(e);
// Mod+Shift+V is no command in Obsidian: its editor pastes as plain text. Last in line, as the editor's own.
window.addEventListener("keydown", (e) => {
	if (e.defaultPrevented || !e.ctrlKey || !e.shiftKey || e.altKey || e.key.toLowerCase() !== "v") return;
	obsidianFired.push("paste-as-plain-text");
	e.preventDefault();
});

/** The workspace layout: ready, or held back with the callbacks that wait for it (Obsidian's start). */
const layout = { ready: true, waiting: [] as (() => void)[] };

/** Holds the layout back until readyLayout, as Obsidian's start does while it loads plugins. */
function holdLayout(): void {
	layout.ready = false;
}

/** The layout is ready: runs what waited for it, in order. */
function readyLayout(): void {
	layout.ready = true;
	for (const cb of layout.waiting.splice(0)) cb();
}

const app = {
	keymap,
	scope: rootScope,
	vault: {
		configDir: ".obsidian",
		adapter: {
			exists: (p: string) => Promise.resolve(files.has(p) || binaries.has(p)),
			read: (p: string) => Promise.resolve(files.get(p) ?? ""),
			// Written through to the vault folder on disk (the test server's /__vault/), so tests can read the real file.
			write: async (p: string, d: string) => {
				files.set(p, d);
				await fetch(`/__vault/${encodeURIComponent(p)}`, { method: "PUT", body: d });
			},
			readBinary: async (p: string) => {
				const delay = slowReads.get(p);
				if (delay) await new Promise((r) => setTimeout(r, delay));
				return binaries.get(p) ?? new ArrayBuffer(0);
			},
			writeBinary: (p: string, d: ArrayBuffer) => Promise.resolve(void binaries.set(p, d)),
			rename: (a: string, b: string) => {
				const d = binaries.get(a);
				if (d) binaries.set(b, d);
				binaries.delete(a);
				return Promise.resolve();
			},
			remove: (p: string) => Promise.resolve(void (files.delete(p) || binaries.delete(p))),
			// Like Obsidian's: the files directly inside a folder, as vault paths.
			list: (dir: string) => {
				const inside = [...files.keys(), ...binaries.keys()].filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"));
				return Promise.resolve({ files: inside, folders: [] as string[] });
			},
		},
		...eventsOver(vaultHandlers),
		createFolder: () => Promise.resolve(),
		getAbstractFileByPath: (p: string) => (files.has(p) || binaries.has(p) ? new obsidian.TFile(p) : null),
		getMarkdownFiles: () => [...files.keys()].filter((p) => p.endsWith(".md")).map((p) => new obsidian.TFile(p)),
		cachedRead: (f: obsidian.TFile) => Promise.resolve(files.get(f.path) ?? ""),
		read: (f: obsidian.TFile) => Promise.resolve(files.get(f.path) ?? ""),
		create: (p: string, d: string) => (files.set(p, d), trigger("create", new obsidian.TFile(p)), Promise.resolve(new obsidian.TFile(p))),
		createBinary: async (p: string, d: ArrayBuffer) => {
			if (files.has(p) || binaries.has(p)) throw new Error("File already exists.");
			binaries.set(p, d);
			await fetch(`/__vault/${encodeURIComponent(p)}`, { method: "PUT", body: d });
			trigger("create", new obsidian.TFile(p));
			return new obsidian.TFile(p);
		},
		modify: (f: obsidian.TFile, d: string) => (files.set(f.path, d), trigger("modify", f), Promise.resolve()),
		process: async (f: obsidian.TFile, fn: (t: string) => string) => {
			files.set(f.path, fn(files.get(f.path) ?? ""));
			trigger("modify", f);
			return files.get(f.path);
		},
		getConfig: (k: string) => config[k],
		setConfig: (k: string, v: unknown) => {
			config[k] = v;
			if (k === "vimMode") applyVim();
		},
	},
	workspace: {
		// Ready unless a test holds it back (holdLayout), as Obsidian's start does while it loads plugins.
		get layoutReady() {
			return layout.ready;
		},
		onLayoutReady: (cb: () => void) => (layout.ready ? cb() : layout.waiting.push(cb)),
		// The open editor, if any, as Obsidian's markdown leaf.
		getLeavesOfType: (type: string) => (type === "markdown" ? (editor ? [{ view: activeView() }] : []) : sidebarLeaves.filter((l) => l.view?.getViewType() === type)),
		// The right sidebar (#sidebar): leaves for the plugin's registered views.
		getRightLeaf: () => sideLeaf(),
		revealLeaf: () => Promise.resolve(),
		getActiveViewOfType: () => (editor ? activeView() : null),
		get activeEditor() {
			return editor ? activeView() : null;
		},
		getActiveFile: () => (editor ? new obsidian.TFile(editorPath) : null),
		/** A leaf that opens a file in the host's one editor; eState.line puts the cursor there, as Obsidian does. */
		getLeaf: () => ({
			get view() {
				return editor ? activeView() : null;
			},
			openFile: (f: obsidian.TFile, state?: { eState?: { line?: number } }) => {
				openEditor(files.get(f.path) ?? "", f.path);
				const line = state?.eState?.line;
				if (line !== undefined && editor) editor.dispatch({ selection: { anchor: editor.state.doc.line(line + 1).from }, scrollIntoView: true });
				return Promise.resolve();
			},
		}),
		// Workspace events the host raises: file-open, when openEditor opens a note.
		...eventsOver(workspaceHandlers),
		// The plugin changed its editor extensions: later editors pick them up (openEditor reads them).
		updateOptions: () => undefined,
	},
	// Cross-note references: links resolve by name or path ending, the shortest path first (Obsidian's rule for unique names).
	metadataCache: {
		// Note properties: a note's front matter as Obsidian's cache holds it (null for a file it does not know).
		getFileCache: (f: obsidian.TFile) => {
			const text = files.get(f.path);
			if (text === undefined) return null;
			const front = frontMatterOf(text);
			return front ? { frontmatter: front.data } : {};
		},
		getFirstLinkpathDest: (link: string, _from: string) => {
			const wanted = (link.endsWith(".md") ? link : `${link}.md`).toLowerCase();
			const found = [...files.keys()].filter((p) => p.toLowerCase() === wanted || p.toLowerCase().endsWith(`/${wanted}`)).sort((a, b) => a.length - b.length);
			return found[0] === undefined ? null : new obsidian.TFile(found[0]);
		},
		fileToLinktext: (f: obsidian.TFile) => f.path.replace(/^.*\//, "").replace(/\.md$/, ""),
	},
	// New notes go to the vault root, Obsidian's default "new file location".
	fileManager: {
		getNewFileParent: () => ({ path: "/" }),
		// As Obsidian's: the properties are changed in place, front matter created where a note has none.
		processFrontMatter: async (f: obsidian.TFile, fn: (front: Record<string, unknown>) => void) => {
			const text = files.get(f.path) ?? "";
			const front = frontMatterOf(text);
			const data = front?.data ?? {};
			fn(data);
			files.set(f.path, `---\n${stringifyYaml(data)}---\n${front ? text.slice(front.end) : text}`);
			trigger("modify", f);
		},
	},
	secretStorage: {
		secrets: new Map<string, string>(),
		getSecret(id: string) {
			return this.secrets.get(id) ?? null;
		},
		setSecret(id: string, v: string) {
			this.secrets.set(id, v);
		},
		listSecrets() {
			return [...this.secrets.keys()];
		},
	},
	hotkeyManager: hotkeyManager as typeof hotkeyManager | undefined,
	commands: {
		commands: { ...obsidianCommands } as Record<string, { id: string; name: string }>,
		findCommand(id: string) {
			return this.commands[id];
		},
	},
};

/** Stands for an Obsidian version that does not expose its hotkey list (the plugin's fallback). */
function hideHotkeyManager(): void {
	app.hotkeyManager = undefined;
}

function activeView(): obsidian.MarkdownView {
	return new obsidian.MarkdownView(new obsidian.TFile(editorPath), new obsidian.Editor(editor as cmView.EditorView));
}

let plugin: obsidian.Plugin | null = null;

/**
 * Evaluates main.js as a CommonJS function into `module`. This page does it with `new Function`
 * and a require over `modules` (Obsidian's loader in a browser page); the desktop host
 * (tests/desktop/support/desktop-host.ts) passes a node:vm one over Node's require.
 */
type Evaluate = (code: string, module: { exports: Record<string, unknown> }, modules: Record<string, unknown>) => void;

async function loadPlugin(evaluate?: Evaluate): Promise<string[]> {
	const code = await (await fetch("/main.js")).text();
	const module = { exports: {} as Record<string, unknown> };
	// Obsidian provides these to plugins (docs/architecture.md); anything else main.js must bundle.
	const modules: Record<string, unknown> = { obsidian, "@codemirror/state": cmState, "@codemirror/view": cmView, "@codemirror/language": cmLanguage, "@codemirror/autocomplete": cmAutocomplete, "@lezer/common": lezerCommon, "@lezer/highlight": lezerHighlight, "@lezer/lr": lezerLr };
	const require = (name: string) => {
		if (name in modules) return modules[name];
		throw new Error(`main.js required "${name}", which Obsidian does not provide`);
	};
	Object.assign(modules, bridgeModules);
	if (evaluate) evaluate(code, module, modules);
	else new Function("module", "exports", "require", code)(module, module.exports, require);
	const Ctor = (module.exports.default ?? module.exports) as new (a: unknown, m: unknown) => obsidian.Plugin;
	plugin = new Ctor(app, { id: "runnable-blocks", version: "0.1.0" });
	plugin.load();
	for (const c of plugin.commands) app.commands.commands[`runnable-blocks:${c.id}`] = c;
	return [...plugin.processors.keys()];
}

/** Disables the plugin, as Obsidian does on quit or when it is turned off (onunload). */
function unloadPlugin(): void {
	plugin?.unload();
	plugin = null;
}

/** Renders a note like Reading view: each fence through its processor, other text as paragraphs. */
function renderReading(markdown: string, sourcePath = "note.md"): number {
	files.set(sourcePath, markdown);
	const root = document.getElementById("reading") as HTMLElement;
	root.empty();
	const lines = markdown.split("\n");
	let line = 0;
	let rendered = 0;
	for (const fence of scanFences(markdown)) {
		const text = lines.slice(line, fence.startLine).join("\n").trim();
		if (text) root.createEl("p", { text });
		const section = root.createDiv({ cls: "markdown-preview-section" });
		const handler = plugin?.processors.get(fence.lang);
		if (handler) {
			const ctx = {
				sourcePath,
				getSectionInfo: () => ({ text: markdown, lineStart: fence.startLine, lineEnd: fence.endLine }),
				addChild: (c: obsidian.Component) => c.load(),
			};
			handler(fence.content, section, ctx);
			rendered++;
		} else section.createEl("pre", { text: fence.content });
		line = fence.endLine + 1;
	}
	return rendered;
}

/** Opens the note in a real CodeMirror editor with the plugin's editor extensions (Source mode). */
function openEditor(markdown: string, sourcePath = "note.md"): void {
	files.set(sourcePath, markdown);
	editorPath = sourcePath;
	const parent = document.getElementById("editor") as HTMLElement;
	parent.empty();
	editor?.destroy();
	editor = new cmView.EditorView({
		parent,
		state: cmState.EditorState.create({
			doc: markdown,
			extensions: [
				vimSlot.of(config.vimMode ? vim() : []),
				obsidian.editorInfoField.init(() => ({ file: new obsidian.TFile(sourcePath) })),
				obsidian.editorLivePreviewField,
				history(),
				// Obsidian's editor soft-wraps long lines; it never scrolls sideways.
				cmView.EditorView.lineWrapping,
				...((plugin?.extensions ?? []) as cmState.Extension[]),
				// Stands for Obsidian's own handling of the same keys: it counts what falls through.
				cmView.keymap.of(["Mod-Enter", "Mod-Shift-Enter", "Mod-Shift-c", "Mod-.", "Mod-Shift-e", "Mod-Shift-r"].map((key) => ({ key, run: () => (fellThrough.push(key), true) }))),
				// Obsidian re-evaluates its editor suggests as the user types.
				cmView.EditorView.updateListener.of((u) => {
					if (!u.docChanged) return;
					const ed = new obsidian.Editor(u.view);
					for (const s of (plugin?.suggests ?? []) as Array<obsidian.EditorSuggest<unknown>>) void s.hostUpdate(ed, new obsidian.TFile(editorPath));
				}),
			],
		}),
	});
	for (const h of workspaceHandlers.get("file-open") ?? []) h(new obsidian.TFile(sourcePath));
}

let editor: cmView.EditorView | null = null;
const vimSlot = new cmState.Compartment();
// Obsidian exposes its vim (@replit/codemirror-vim) to plugins as CodeMirrorAdapter.Vim.
(window as unknown as Record<string, unknown>).CodeMirrorAdapter = { Vim };
function applyVim(): void {
	editor?.dispatch({ effects: vimSlot.reconfigure(config.vimMode ? vim() : []) });
}
let editorPath = "note.md";

function undoEditor(): boolean {
	return editor ? undo(editor) : false;
}
const fellThrough: string[] = [];

function editorCursorLine(): number {
	return editor ? editor.state.doc.lineAt(editor.state.selection.main.head).number - 1 : -1;
}

function editorText(): string {
	return editor?.state.doc.toString() ?? "";
}

/** Runs a palette command as Obsidian would: checked and editor commands only when their check passes. */
function runCommand(id: string): boolean {
	const c = plugin?.commands.find((x) => x.id === id);
	if (!c) throw new Error(`no command ${id}`);
	if (c.callback) return (c.callback(), true);
	if (c.checkCallback) {
		if (c.checkCallback(true) !== true) return false;
		c.checkCallback(false);
		return true;
	}
	if (!editor) return false;
	const view = activeView();
	if (c.editorCheckCallback) {
		if (c.editorCheckCallback(true, view.editor, view) !== true) return false;
		c.editorCheckCallback(false, view.editor, view);
		return true;
	}
	c.editorCallback?.(view.editor, view);
	return true;
}

/** The palette name of one of the plugin's commands (Obsidian shows it after the plugin's name), or null. */
function commandName(id: string): string | null {
	return plugin?.commands.find((x) => x.id === id)?.name ?? null;
}

/** The plugin's settings tab. */
function settingTab(): obsidian.PluginSettingTab {
	const tab = plugin?.settingTabs[0];
	if (!tab) throw new Error("the plugin registered no settings tab");
	return tab;
}

/** Opens the plugin's settings tab, as Settings → Community plugins → Runnable Blocks. */
function openSettings(): void {
	const root = document.getElementById("settings") as HTMLElement;
	root.empty();
	const tab = settingTab();
	root.appendChild(tab.containerEl);
	obsidian.openSettingTab(tab);
}

/** Closes it, as choosing another tab or closing the settings does. */
function closeSettings(): void {
	obsidian.closeSettingTab(settingTab());
}

/** The names of the rows Obsidian 1.13 holds for its settings search (none before 1.13). */
function settingsIndex(): string[] {
	return ((settingTab() as { settingItems?: Array<{ name: string }> }).settingItems ?? []).map((item) => item.name);
}

/** Renames a note as Obsidian's file explorer does: the file moves, then vault "rename" (its links in code are left as they are). */
function renameFile(oldPath: string, newPath: string): void {
	files.set(newPath, files.get(oldPath) ?? "");
	files.delete(oldPath);
	trigger("rename", new obsidian.TFile(newPath), oldPath);
}

/** The YAML front matter at the top of a note, and where the text after it starts. */
function frontMatterOf(text: string): { data: Record<string, unknown>; end: number } | null {
	const m = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/.exec(text);
	if (!m) return null;
	const data: unknown = parseYaml(m[1]);
	return { data: data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {}, end: m[0].length };
}

/** A note's properties as Obsidian's metadata cache reads them (null without front matter): how tests see what the plugin wrote. */
function frontMatter(path: string): Record<string, unknown> | null {
	return app.metadataCache.getFileCache(new obsidian.TFile(path))?.frontmatter ?? null;
}

/** A vault event, as Obsidian would raise it after an edit outside the plugin. */
async function writeFile(path: string, text: string): Promise<void> {
	const existed = files.has(path);
	await app.vault.adapter.write(path, text);
	// Obsidian raises "raw" for every file change, the config folder included; vault events only for notes.
	trigger("raw", path);
	if (!path.startsWith(`${app.vault.configDir}/`)) trigger(existed ? "modify" : "create", new obsidian.TFile(path));
}

function setTheme(theme: "light" | "dark"): void {
	document.body.classList.toggle("theme-dark", theme === "dark");
	document.body.classList.toggle("theme-light", theme === "light");
}

/**
 * A leaf in the right sidebar (#sidebar) for one of the plugin's views. While focus is inside
 * the view, its scope is on the keymap, as Obsidian does for the active leaf (the version-control
 * panel's Mod+B); detaching it pops the scope.
 */
function sideLeaf(): obsidian.WorkspaceLeaf {
	const leaf = new obsidian.WorkspaceLeaf(app, plugin?.views ?? new Map<string, (leaf: obsidian.WorkspaceLeaf) => obsidian.ItemView>(), (l) => sidebarLeaves.splice(sidebarLeaves.indexOf(l), 1));
	const open = leaf.setViewState.bind(leaf);
	leaf.setViewState = async (state) => {
		await open(state);
		const view = leaf.view;
		if (!view) return;
		view.containerEl.tabIndex = -1;
		view.containerEl.addEventListener("focusin", () => view.scope && keymap.pushScope(view.scope));
		view.containerEl.addEventListener("focusout", (e) => {
			if (view.scope && !view.containerEl.contains(e.relatedTarget as Node | null)) keymap.popScope(view.scope);
		});
	};
	const detach = leaf.detach.bind(leaf);
	leaf.detach = () => {
		if (leaf.view?.scope) keymap.popScope(leaf.view.scope);
		detach();
	};
	sidebarLeaves.push(leaf);
	return leaf;
}
/** Closes every side view of a type, as closing its sidebar tab does. */
function closeViews(type: string): Promise<void> {
	for (const leaf of sidebarLeaves.filter((l) => l.view?.getViewType() === type)) leaf.detach();
	return Promise.resolve();
}
/** The desktop app, as far as the version-control panel needs it, through the test server (desktop-bridge.ts). */
let bridgeModules: Record<string, unknown> = {};
function useDesktopBridge(vaultDir: string): void {
	bridgeModules = desktopBridgeModules();
	obsidian.Platform.isDesktopApp = true;
	useVaultFolder(vaultDir);
}
/**
 * The mobile app, as far as a plugin can tell: Platform says mobile, and nothing Node-side is
 * provided (the page's `require` gives only what Obsidian gives every plugin). Before loadPlugin.
 */
function useMobileApp(): void {
	Object.assign(obsidian.Platform, { isDesktopApp: false, isDesktop: false, isMobile: true, isMobileApp: true });
	bridgeModules = {};
}
/** Makes the vault adapter a FileSystemAdapter over a real folder (the desktop host, whose writes land there). */
function useVaultFolder(path: string): void {
	Object.setPrototypeOf(app.vault.adapter, new obsidian.FileSystemAdapter(path));
}

const hostApi = { eventHandlerCount, holdLayout, readyLayout, renameFile, closeViews, useVaultFolder, useDesktopBridge, useMobileApp, obsidianFired, hideHotkeyManager, runCommand, commandName, openSettings, closeSettings, settingsIndex, playSettingsApi: obsidian.playSettingsApi, writeFile, config, secrets: app.secretStorage.secrets, loadPlugin, unloadPlugin, renderReading, openEditor, editorText, editorCursorLine, undoEditor, fellThrough, setTheme, notices: obsidian.notices, files, binaries, slowReads, frontMatter };
/** What tests reach as `window.__host` (tests/e2e/support/host-api.ts); its one declaration, taken from the page itself. */
export type HostApi = typeof hostApi;
(window as unknown as { __host: HostApi }).__host = hostApi;
