import type * as ImportHttp from "./import-http";
import { persistCookies } from "./cookie-persistence";
import { getLanguage, Platform, TFile, type App, type MarkdownPostProcessorContext, type MarkdownRenderChild, type Plugin } from "obsidian";
import { blockKey, isKindFence } from "../blocks";
import { displayChord } from "../settings/keymap";
import { withBuiltInConnections } from "../settings/connections";
import { PROTOCOL_REDIRECT_ACTION } from "../settings/auth-config";
import { createEngine, type Engine } from "../runner/engine";
import type { ExportHooks } from "./block-actions";
import { BLOCK_RENDERERS } from "./block-renderers";
import { indexSchemas, openBlockSearch, variableEntries, VaultBlockIndexer, type SchemaIndex } from "./block-search";
import { refreshSchemas, slashDb } from "./db-editor-ports";
import type { BlockHost } from "./block-host";
import { keymapOf, registerCommands, type ActionEffects } from "./commands";
import { blockWidgets } from "./editor/block-widgets";
import { referenceJump } from "./editor/reference-jump";
import { sqlAssist } from "./editor/sql-assist";
import { SchemaCache } from "../runner/db/schema-cache";
import { EnvironmentActions } from "./environments";
import { exportHooks, exportNoteAsHttp } from "./export-actions";
import { Notes } from "./notes";
import { obsidianNoteLinks, openNoteAtAlias } from "./note-links";
import { isNote, rewriteNoteReferences } from "./note-renames";
import { PluginServices } from "./plugin-services";
import { SettingsStore } from "./settings-store";
import { SettingTabLoader } from "./settings-tab-loader";
import { setLanguage, t } from "./strings";
import { notify } from "./notify";
import { ReferenceSuggest } from "./suggest/reference-suggest";
import { SlashSuggest } from "./suggest/slash-suggest";
import { PluginChatHost } from "./chat/chat-host";
import { registerChat } from "./chat/register";
import { compareResponses } from "./diff/lazy-diff";
import { registerVcs } from "./vcs/register";
import { dbErrorMarks } from "./db/error-marks";
import { compareWithPinned, lastRun, pinningEngine, pinResponse, type PinPorts } from "./pins";
import { readNoteFilesOnOpen } from "./note-files-on-open";

/**
 * The plugin at work: wires the adapters and registers the editor's extensions, suggests, commands,
 * panels and settings. main.ts requires it once the workspace is ready, or sooner for a block shown
 * before that (docs/architecture.md, "Start"); until then Obsidian's start pays for main.ts alone.
 */
export class PluginCore {
	private readonly settingsStore: SettingsStore;
	private readonly services: PluginServices;
	private readonly runtime: Engine;
	private readonly notes: Notes;
	private readonly exporter: ExportHooks;
	private readonly schemas: SchemaCache;
	private schemaIndex: SchemaIndex | null = null;
	/** What each kind's views are given (BLOCK_RENDERERS). */
	private readonly host: BlockHost;

	constructor(private readonly plugin: Plugin) {
		setLanguage(getLanguage());
		const pluginDir = `${this.app.vault.configDir}/plugins/${plugin.manifest.id}`;
		this.settingsStore = new SettingsStore(this.app, pluginDir);
		this.notes = new Notes(this.app);
		this.services = new PluginServices(this.app, this.settingsStore, pluginDir, obsidianNoteLinks(this.app, this.notes));
		// A block with the `pin` token rewrites its pin after each successful run, whoever started it.
		this.runtime = pinningEngine(createEngine(this.services), { app: this.app, notes: this.notes, secrets: () => this.secretValues() });
		this.exporter = exportHooks(this.runtime, this.services);
		const host = (this.host = this.blockHost());
		// Schemas of the connections for SQL completion, hover and Mod+K: read on first use, kept until refreshed.
		const schemas = (this.schemas = new SchemaCache(() => this.services.db()));
		this.plugin.registerEditorExtension([
			blockWidgets(host),
			referenceJump(() => Platform.isMacOS, (link, alias) => void openNoteAtAlias(this.app, this.notes, link, alias)),
			dbErrorMarks((path) => this.runtime.sessions.note(path)),
			sqlAssist({ connections: () => withBuiltInConnections(this.settingsStore.settings.connections), schemas }),
		]);
		// The browser's return from a sign-in on mobile (docs/auth.md): only the registration here, the sign-in code loads with the first sign-in.
		this.plugin.registerObsidianProtocolHandler(PROTOCOL_REDIRECT_ACTION, (data) => this.services.receiveAuthRedirect(data));
		this.plugin.registerEditorSuggest(new SlashSuggest(this.app, slashDb(this.app, this.settingsStore, schemas)));
		this.plugin.registerEditorSuggest(new ReferenceSuggest(this.app, this.runtime, () => Object.keys(this.services.environment().variables), this.notes));

		const environments = new EnvironmentActions(this.app, this.settingsStore);
		const indexer = new VaultBlockIndexer(this.app);
		for (const ref of indexer.watch()) this.plugin.registerEvent(ref);
		const schemaIndex = indexSchemas(indexer.index, schemas);
		this.schemaIndex = schemaIndex;
		this.plugin.register(schemaIndex.stop);
		this.plugin.register(this.settingsStore.onChange((s) => indexer.index.setVariables(variableEntries(s))));
		this.plugin.addSettingTab(new SettingTabLoader(this.app, this.plugin, this.settingsStore, environments, schemas));
		this.plugin.addCommand({ id: "refresh-db-schemas", name: t("refreshSchemas"), callback: () => void refreshSchemas(schemas) });
		this.plugin.register(environments.attachStatusBar(this.plugin.addStatusBarItem()));
		// The chat panel (src/ui/chat): its view; chat.toggle (palette, or a chord the user binds) toggles it.
		const toggleChat = registerChat(this.plugin, new PluginChatHost(this.app, this.settingsStore, this.runtime, this.services, this.notes));
		// The version-control panel (src/ui/vcs, docs/vcs.md): its view; vcs.sync performs its sync.
		const vcs = registerVcs(this.plugin, {
			pluginDir,
			chord: (action) => keymapOf(this.settingsStore.settings).bindings.get(action),
			preset: () => this.settingsStore.settings.general.keymapPreset,
			onKeymapChange: (listener) => this.settingsStore.onChange(listener),
			commitTemplate: () => this.settingsStore.settings.vcs.commitTemplate,
			autoSyncMinutes: () => this.settingsStore.settings.vcs.autoSyncMinutes,
			onSettingsChange: (listener) => this.settingsStore.onChange(listener),
		});
		registerCommands(this.plugin, {
			notes: this.notes,
			fx: this.actionEffects(environments, indexer, toggleChat, vcs.sync),
			settings: () => this.settingsStore.settings,
			onSettingsChange: (listener) => this.settingsStore.onChange(listener),
			environments,
			exportNote: (file, text) => void exportNoteAsHttp(this.app, this.runtime, file, this.notes.ofText(text)),
			reloadSettings: () => void this.settingsStore.load(),
			clearCache: () => this.runtime.cache.clear(),
			// The import (and JetBrains' auth mapping) is a text module, required by its command (docs/architecture.md, "Text modules").
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
			importHttp: () => (require("./import-http") as typeof ImportHttp).importHttpFile(this.app, this.settingsStore),
		});
		// Diff blocks (issue 16): a textdiff fence filled once from two responses of this note.
		this.plugin.addCommand({
			id: "insert-diff-of-two-aliases",
			name: t("cmdInsertDiff"),
			editorCallback: (editor, view) => {
				const path = view.file?.path;
				if (!path) return;
				const aliases = this.notes.ofText(editor.getValue()).flatMap((b) => (b.alias ? [b.alias] : []));
				compareResponses().insertDiffOfAliases(this.app, this.runtime.sessions.note(path), aliases, (text) => {
					const line = editor.getCursor().line;
					const current = editor.getLine(line);
					editor.replaceRange(current.trim() ? `\n${text}` : text, { line, ch: current.length });
				});
			},
		});

		this.plugin.registerEvent(
			this.app.vault.on("rename", (file, oldPath) => {
				if (file instanceof TFile) this.runtime.renameFile(oldPath, file.path);
			}),
		);
		// Cross-note references: Obsidian's link updater leaves fenced code alone (src/ui/note-renames.ts).
		this.plugin.registerEvent(
			this.app.vault.on("rename", (file, oldPath) => {
				if (!isNote(file)) return;
				void rewriteNoteReferences(this.app, this.notes, file, oldPath).then((count) => {
					if (count > 0) notify(t("crossNoteRenamed", { count: String(count), note: file.path.replace(/^.*\//, "").replace(/\.md$/, "") }));
				});
			}),
		);
		// user.toml is read once the workspace is ready, not during start-up.
		this.app.workspace.onLayoutReady(() => {
			// The cookie jar is read from cookies.json once user.toml says whether to (persist_cookies).
			void this.settingsStore.load().then(() => this.plugin.register(persistCookies(this.app, this.runtime.cookies, this.settingsStore, pluginDir)));
			this.plugin.register(this.settingsStore.watch());
			this.plugin.register(this.services.watchHistory());
			const readOnOpen = readNoteFilesOnOpen(this.runtime, this.notes);
			this.plugin.registerEvent(this.app.workspace.on("file-open", (file) => void readOnOpen(file)));
			void readOnOpen(this.app.workspace.getActiveFile());
		});
	}

	private get app(): App {
		return this.plugin.app;
	}

	/** A fence's processor: its kind's view of the block (main.ts registered the processors). */
	reading(language: string, source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext): MarkdownRenderChild | null {
		const renderer = isKindFence(language) ? BLOCK_RENDERERS[language as keyof typeof BLOCK_RENDERERS] : undefined;
		return renderer ? renderer.reading(el, source, ctx, this.host) : null;
	}

	unload(): void {
		void this.runtime.close();
	}

	/** What each action does in this plugin. */
	private actionEffects(environments: EnvironmentActions, indexer: VaultBlockIndexer, toggleChat: () => Promise<void>, syncVault: () => void): ActionEffects {
		return {
			run: (path, note, targets, force) => void this.runtime.run(path, note, targets, { force }),
			cancel: (path, block) => this.runtime.sessions.note(path).cancel(blockKey(block)),
			copyAsCurl: (path, note, block) => this.exporter.copy(path, note, block, "curl"),
			explain: (path, note, block) => void this.runtime.run(path, note, [block], { kindOptions: { db: { explain: { analyze: false } } } }),
			searchBlocks: () => openBlockSearch(this.app, indexer, this.schemaIndex),
			switchEnvironment: () => environments.openSwitcher(),
			newVariable: () => environments.openNewVariable(),
			toggleChat: () => void toggleChat(),
			syncVault,
			clearAuthTokens: () => {
				this.runtime.auth.clear();
				notify(t("authTokensCleared"));
			},
			pin: (path, block) => void pinResponse(this.pinPorts(), path, blockKey(block), lastRun(this.runtime, path, block)),
			comparePin: (path, block) => void compareWithPinned(this.pinPorts(), path, block),
		};
	}

	/** Masked in pins as in history: the environment's secrets and the session's auth tokens. */
	private secretValues(): string[] {
		return [...this.services.environment().secretValues, ...this.runtime.auth.values()];
	}

	private pinPorts(): PinPorts {
		return { app: this.app, engine: this.runtime, notes: this.notes, secrets: () => this.secretValues() };
	}

	private blockHost(): BlockHost {
		return {
			app: this.app,
			engine: this.runtime,
			services: this.services,
			notes: this.notes,
			settings: () => this.settingsStore.settings,
			session: (path) => this.runtime.sessions.note(path),
			runKeyLabel: () => {
				const chord = keymapOf(this.settingsStore.settings).bindings.get("block.run");
				return chord ? displayChord(chord, Platform.isMacOS) : "";
			},
		};
	}
}
