import RunnableBlocksPlugin from "../../main";
import { Keymap, Plugin, Scope, TFile } from "../e2e/host/obsidian-shim";
import { eventsOver, type Handler } from "./fake-events";
export const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

/**
 * The plugin constructed on an app as Obsidian gives it, as far as onload reaches: a vault with
 * its events and an adapter that logs every read, a workspace whose layout becomes ready when
 * the test says so (or is ready already: the plugin enabled once Obsidian is up).
 */
export function loadedPlugin(files: Record<string, string> = {}, layoutReadyAtLoad = false) {
	const store = new Map(Object.entries(files));
	const reads: string[] = [];
	const handlers = new Map<string, Handler[]>();
	const { on } = eventsOver(handlers);
	const layout = { ready: layoutReadyAtLoad, waiting: [] as (() => void)[] };
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
		workspace: { on, get layoutReady() { return layout.ready; }, onLayoutReady: (cb: () => void) => (layout.ready ? cb() : layout.waiting.push(cb)), getLeavesOfType: () => [], getActiveViewOfType: () => null, getActiveFile: () => null, updateOptions: () => undefined },
		secretStorage: { getSecret: () => null, setSecret: () => undefined, listSecrets: () => [] },
		metadataCache: { on, getFileCache: () => null },
	};
	const plugin = new RunnableBlocksPlugin(app as never, { id: "runnable-blocks", version: "0.0.0" } as never) as unknown as Plugin;
	plugin.load();
	const layoutReady = () => {
		layout.ready = true;
		for (const cb of layout.waiting.splice(0)) cb();
	};
	return { plugin, reads, handlers, store, layoutReady };
}

