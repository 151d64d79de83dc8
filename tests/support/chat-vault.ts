/**
 * The chat panel's host (PluginChatHost) over a vault in memory, for the specs of the chat's ui.
 * Their files mock `obsidian` with the e2e host's shim, which this module's imports resolve to.
 */
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "obsidian";
import { createEngine } from "../../src/runner/engine";
import { PluginChatHost } from "../../src/ui/chat/chat-host";
import { Notes } from "../../src/ui/notes";
import { Editor, MarkdownView, Platform, TFile } from "../e2e/host/obsidian-shim";
import { answering } from "./answering-transport";
import { startOpenAiServer, type OpenAiServer } from "./openai-server";
import { loadedStore, memoryAdapter, USER_TOML } from "./settings-vault";

/**
 * A vault of markdown notes (path → text, mtime) with user.toml, and the chat's host over it with
 * a real engine (its one block answered in memory); the active markdown view is set by the test.
 * `workspace`: more of Obsidian's workspace, for the specs that open the chat panel.
 */
export async function chatVault(chatToml = "", opts: { secrets?: Record<string, string>; workspace?: Record<string, unknown> } = {}) {
	const notes = new Map<string, { text: string; mtime: number }>();
	const folders = new Set<string>();
	const fileOf = (path: string) => {
		const n = notes.get(path);
		if (!n) return folders.has(path) ? { path } : null;
		const f = new TFile(path);
		f.stat.mtime = n.mtime;
		return f;
	};
	let active: MarkdownView | null = null;
	const app = {
		vault: {
			adapter: memoryAdapter({ [USER_TOML]: `[environments.dev]\nbase = "http://api.test"\n${chatToml}` }),
			getMarkdownFiles: () => [...notes.keys()].map(fileOf).filter((f) => f instanceof TFile),
			cachedRead: (f: TFile) => Promise.resolve(notes.get(f.path)?.text ?? ""),
			getAbstractFileByPath: fileOf,
			modify: (f: TFile, text: string) => Promise.resolve(void notes.set(f.path, { text, mtime: 99 })),
			create: (path: string, text: string) => (notes.set(path, { text, mtime: 99 }), Promise.resolve(new TFile(path))),
			createFolder: (path: string) => Promise.resolve(void folders.add(path)),
		},
		workspace: { getActiveViewOfType: () => active, ...opts.workspace },
		secretStorage: { getSecret: (id: string) => opts.secrets?.[id] ?? null },
	} as unknown as App;
	const store = await loadedStore(app);
	const transport = answering({ "http://api.test/me": '{"id":7}' });
	const engine = createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: { base: "http://api.test" }, secretValues: ["env-secret"], secretNames: ["token"], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
	});
	const host = new PluginChatHost(app, store, engine, { environment: () => ({ secretValues: ["env-secret"] }) }, new Notes(app));
	/** Opens `text` as the active note with the cursor at `offset` (and a selection to `to`). */
	const open = (path: string, text: string, offset: number, to = offset) => {
		const cm = new EditorView({ state: EditorState.create({ doc: text, selection: { anchor: offset, head: to } }) });
		active = new MarkdownView(new TFile(path), new Editor(cm));
	};
	const leave = () => (active = null);
	return { app, store, engine, host, notes, folders, open, leave };
}

/**
 * A local OpenAI-compatible server for the spec file, started before its tests, with answers
 * streamed over the desktop transport as in the desktop app; the platform is restored after.
 */
export function openAiServerOnDesktop(): () => OpenAiServer {
	let server: OpenAiServer;
	const desktop = Platform.isDesktopApp;
	beforeAll(async () => {
		server = await startOpenAiServer();
		Platform.isDesktopApp = true;
	});
	afterAll(async () => {
		Platform.isDesktopApp = desktop;
		await server.close();
	});
	return () => server;
}
