import { MarkdownView, normalizePath, Platform, requestUrl, TFile, type App, type Editor } from "obsidian";
import { blockAtLine, blockKey, type DbNoteBlock, type HttpNoteBlock, type NoteBlock } from "../../blocks";
import type { ChatClient } from "../../chat/client";
import type * as ChatClientModule from "../../chat/client";
import { parseConversation, type Conversation } from "../../chat/conversation-note";
import type { SchemaLookup } from "../../chat/schema-context";
import type * as SchemaContext from "../../chat/schema-context";
import { createFallbackTransport } from "../../chat/stream-fallback";
import type { DbDeps } from "../../runner/db/db-result";
import type { Engine } from "../../runner/engine";
import { fetchTransportModule, nodeTransportModule } from "../../runner/http/transports";
import type { Preparation } from "../../runner/prepare";
import type { BlockResult } from "../../runner/result";
import { isFinal } from "../../runner/state-machine";
import type { Transport } from "../../runner/transport";
import type { ChatSettings } from "../../settings/chat-settings";
import { createObsidianTransport } from "../obsidian-transport";
import type { Notes } from "../notes";
import type { SettingsStore } from "../settings-store";

/** The note the user was editing when they turned to the panel. */
export interface EditorContext {
	path: string;
	text: string;
	blocks: readonly NoteBlock[];
	/** The runnable block under the cursor, if any. */
	block: NoteBlock | null;
	selection: string;
	editor: Editor;
}

/** A saved conversation in the chats folder. */
export interface SavedConversation {
	path: string;
	conversation: Conversation;
}

/**
 * How answers arrive: streamed, or whole because the platform cannot read a response as it
 * arrives (`platform`) or because the server refused the streaming request from here and
 * requestUrl got through (`server`, a CORS refusal).
 */
export type StreamMode = { streams: true } | { streams: false; reason: "platform" | "server" };

/** The plugin services the chat reads: the environment's secrets, and the db port where there is one. */
export interface ChatServices {
	environment(): { secretValues: string[] };
	db?(): DbDeps | undefined;
}

/** All the chat panel sees of the plugin. */
export interface ChatHost {
	settings(): ChatSettings;
	client(): ChatClient;
	streamMode(): StreamMode;
	/** Values the request must never contain: the active environment's secrets and the API key. */
	secretValues(): string[];
	editor(): EditorContext | null;
	lastResult(path: string, block: NoteBlock): BlockResult | null;
	/** The request Run would send for an http block now, or why it cannot run (`engine.prepare`). */
	prepare(path: string, note: readonly NoteBlock[], block: HttpNoteBlock): Preparation;
	/** The schema of the connection a db block uses, read through the plugin's db port; null where there is none (no db blocks here). */
	dbSchema(block: DbNoteBlock): Promise<SchemaLookup | null>;
	listConversations(): Promise<SavedConversation[]>;
	/** The conversation a note holds, or null when it is not one. */
	readConversation(path: string): Promise<SavedConversation | null>;
	/** Writes a conversation; `path` null creates a new note named `fileName` in the folder. Returns its path. */
	saveConversation(path: string | null, fileName: string, text: string): Promise<string>;
}

/** Whether `fetch` gives a response body to read as it arrives (every current WebView does). */
function fetchStreams(): boolean {
	return typeof window.fetch === "function" && typeof ReadableStream === "function" && typeof Response === "function" && "body" in Response.prototype;
}

/**
 * The plugin's ChatHost. The desktop app streams over its own node transport (no CORS, Stop
 * closes the socket); elsewhere answers stream through fetch where the platform and the
 * server's CORS allow it, and otherwise come whole through requestUrl.
 */
export class PluginChatHost implements ChatHost {
	private transport: (Transport & { close?(): void; fellBack?: boolean }) | null = null;
	private lastMarkdown: MarkdownView | null = null;

	constructor(
		private readonly app: App,
		private readonly store: SettingsStore,
		private readonly engine: Pick<Engine, "sessions" | "prepare" | "isRunnable" | "auth">,
		private readonly services: ChatServices,
		private readonly notes: Notes,
	) {}

	/** Remembers the last note the user worked in: with the panel focused there is no active editor. */
	trackLeaf(): void {
		const view = this.app.workspace.getActiveViewOfType(MarkdownView);
		if (view) this.lastMarkdown = view;
	}

	settings(): ChatSettings {
		return this.store.settings.chat;
	}

	client(): ChatClient {
		this.transport ??= Platform.isDesktopApp ? nodeTransportModule().createNodeTransport() : fetchStreams() ? createFallbackTransport(new (fetchTransportModule().FetchTransport)(), createObsidianTransport(requestUrl)) : createObsidianTransport(requestUrl);
		// The client and the schema lookup are required on first use: main.js carries them as text modules.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const { createChatClient } = require("../../chat/client") as typeof ChatClientModule;
		return createChatClient(this.transport, { baseUrl: this.settings().baseUrl, apiKey: this.apiKey() }, { idleTimeoutMs: this.settings().timeoutMs });
	}

	streamMode(): StreamMode {
		if (this.client().streams) return { streams: true };
		return { streams: false, reason: this.transport?.fellBack ? "server" : "platform" };
	}

	async dbSchema(block: DbNoteBlock): Promise<SchemaLookup | null> {
		const deps = this.services.db?.();
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see client()
		return deps ? (require("../../chat/schema-context") as typeof SchemaContext).connectionSchema(deps, block) : null;
	}

	private apiKey(): string | null {
		const id = this.settings().apiKeySecret;
		return id ? (this.app.secretStorage.getSecret(id) ?? null) : null;
	}

	secretValues(): string[] {
		const key = this.apiKey();
		// The session's OAuth tokens too: a response or a request shown in the context may carry one.
		return [...this.services.environment().secretValues, ...this.engine.auth.values(), ...(key ? [key] : [])];
	}

	editor(): EditorContext | null {
		const view = this.app.workspace.getActiveViewOfType(MarkdownView) ?? this.lastMarkdown;
		if (!view?.file || !view.editor) return null;
		const editor = view.editor;
		const text = editor.getValue();
		const blocks = this.notes.ofEditor(editor);
		const block = blockAtLine(blocks, editor.getCursor().line);
		return { path: view.file.path, text, blocks, block: block && this.engine.isRunnable(block) ? block : null, selection: editor.getSelection(), editor };
	}

	lastResult(path: string, block: NoteBlock): BlockResult | null {
		const snapshot = this.engine.sessions.note(path).snapshot(blockKey(block));
		return isFinal(snapshot.state) ? (snapshot as BlockResult) : null;
	}

	prepare(path: string, note: readonly NoteBlock[], block: HttpNoteBlock): Preparation {
		return this.engine.prepare(path, note, block);
	}

	async listConversations(): Promise<SavedConversation[]> {
		const folder = `${normalizePath(this.settings().folder)}/`;
		const files = this.app.vault
			.getMarkdownFiles()
			.filter((f) => f.path.startsWith(folder))
			.sort((a, b) => b.stat.mtime - a.stat.mtime);
		const out: SavedConversation[] = [];
		for (const f of files) {
			const conversation = parseConversation(await this.app.vault.cachedRead(f));
			if (conversation) out.push({ path: f.path, conversation });
		}
		return out;
	}

	async readConversation(path: string): Promise<SavedConversation | null> {
		const file = this.app.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) return null;
		const conversation = parseConversation(await this.app.vault.cachedRead(file));
		return conversation ? { path: file.path, conversation } : null;
	}

	async saveConversation(path: string | null, fileName: string, text: string): Promise<string> {
		const existing = path ? this.app.vault.getAbstractFileByPath(path) : null;
		if (existing instanceof TFile) {
			await this.app.vault.modify(existing, text);
			return existing.path;
		}
		const folder = normalizePath(this.settings().folder);
		if (!this.app.vault.getAbstractFileByPath(folder)) await this.app.vault.createFolder(folder);
		let target = normalizePath(`${folder}/${fileName}`);
		for (let n = 2; this.app.vault.getAbstractFileByPath(target); n++) target = normalizePath(`${folder}/${fileName.replace(/\.md$/, "")} ${n}.md`);
		const file = await this.app.vault.create(target, text);
		return file.path;
	}

	dispose(): void {
		this.transport?.close?.();
	}
}
