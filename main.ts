import type * as ImportHttp from "./src/ui/import-http";
import { persistCookies } from "./src/ui/cookie-persistence";
import { getLanguage, Platform, Plugin, TFile } from "obsidian";
import { blockKey, isKindFence } from "./src/blocks";
import { displayChord } from "./src/settings/keymap";
import { withBuiltInConnections } from "./src/settings/connections";
import { PROTOCOL_REDIRECT_ACTION } from "./src/settings/auth-config";
import { createEngine, type Engine } from "./src/runner/engine";
import type { ExportHooks } from "./src/ui/block-actions";
import { BLOCK_RENDERERS } from "./src/ui/block-renderers";
import { indexSchemas, openBlockSearch, variableEntries, VaultBlockIndexer, type SchemaIndex } from "./src/ui/block-search";
import { refreshSchemas, slashDb } from "./src/ui/db-editor-ports";
import type { BlockHost } from "./src/ui/block-host";
import { keymapOf, registerCommands, type ActionEffects } from "./src/ui/commands";
import { blockWidgets } from "./src/ui/editor/block-widgets";
import { referenceJump } from "./src/ui/editor/reference-jump";
import { sqlAssist } from "./src/ui/editor/sql-assist";
import { SchemaCache } from "./src/runner/db/schema-cache";
import { EnvironmentActions } from "./src/ui/environments";
import { exportHooks, exportNoteAsHttp } from "./src/ui/export-actions";
import { Notes } from "./src/ui/notes";
import { obsidianNoteLinks, openNoteAtAlias } from "./src/ui/note-links";
import { isNote, rewriteNoteReferences } from "./src/ui/note-renames";
import { PluginServices } from "./src/ui/plugin-services";
import { SettingsStore } from "./src/ui/settings-store";
import { SettingTabLoader } from "./src/ui/settings-tab-loader";
import { setLanguage, t } from "./src/ui/strings";
import { notify } from "./src/ui/notify";
import { ReferenceSuggest } from "./src/ui/suggest/reference-suggest";
import { SlashSuggest } from "./src/ui/suggest/slash-suggest";
import { PluginChatHost } from "./src/ui/chat/chat-host";
import { registerChat } from "./src/ui/chat/register";
import { compareResponses } from "./src/ui/diff/lazy-diff";
import { registerVcs } from "./src/ui/vcs/register";
import { dbErrorMarks } from "./src/ui/db/error-marks";
import { compareWithPinned, lastRun, pinningEngine, pinResponse, type PinPorts } from "./src/ui/pins";

/** Plugin entry: wires adapters and registers processors, extensions and commands. No heavy work here. */
export default class RunnableBlocksPlugin extends Plugin {
	private settingsStore!: SettingsStore;
	private services!: PluginServices;
	private runtime!: Engine;
	private notes!: Notes;
	private exporter!: ExportHooks;
	private schemas!: SchemaCache;
	private schemaIndex: SchemaIndex | null = null;

	override onload(): void {
		setLanguage(getLanguage());
		const pluginDir = `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
		this.settingsStore = new SettingsStore(this.app, pluginDir);
		this.notes = new Notes(this.app);
		this.services = new PluginServices(this.app, this.settingsStore, pluginDir, obsidianNoteLinks(this.app, this.notes));
		// A block with the `pin` token rewrites its pin after each successful run, whoever started it.
		this.runtime = pinningEngine(createEngine(this.services), { app: this.app, notes: this.notes, secrets: () => this.secretValues() });
		this.exporter = exportHooks(this.runtime, this.services);
		const host = this.blockHost();

		for (const [language, renderer] of Object.entries(BLOCK_RENDERERS)) {
			// A kind sharing another's fence (sse, websocket in ```http) is rendered by that fence's processor.
			if (renderer && isKindFence(language)) this.registerMarkdownCodeBlockProcessor(language, (source, el, ctx) => ctx.addChild(renderer.reading(el, source, ctx, host)));
		}
		// Schemas of the connections for SQL completion, hover and Mod+K: read on first use, kept until refreshed.
		const schemas = (this.schemas = new SchemaCache(() => this.services.db()));
		this.registerEditorExtension([
			blockWidgets(host),
			referenceJump(() => Platform.isMacOS, (link, alias) => void openNoteAtAlias(this.app, this.notes, link, alias)),
			dbErrorMarks((path) => this.runtime.sessions.note(path)),
			sqlAssist({ connections: () => withBuiltInConnections(this.settingsStore.settings.connections), schemas }),
		]);
		// The browser's return from a sign-in on mobile (docs/auth.md): only the registration here, the sign-in code loads with the first sign-in.
		this.registerObsidianProtocolHandler(PROTOCOL_REDIRECT_ACTION, (data) => this.services.receiveAuthRedirect(data));
		this.registerEditorSuggest(new SlashSuggest(this.app, slashDb(this.app, this.settingsStore, schemas)));
		this.registerEditorSuggest(new ReferenceSuggest(this.app, this.runtime, () => Object.keys(this.services.environment().variables), this.notes));

		const environments = new EnvironmentActions(this.app, this.settingsStore);
		const indexer = new VaultBlockIndexer(this.app);
		for (const ref of indexer.watch()) this.registerEvent(ref);
		const schemaIndex = indexSchemas(indexer.index, schemas);
		this.schemaIndex = schemaIndex;
		this.register(schemaIndex.stop);
		this.register(this.settingsStore.onChange((s) => indexer.index.setVariables(variableEntries(s))));
		this.addSettingTab(new SettingTabLoader(this.app, this, [this.settingsStore, environments, schemas]));
		this.addCommand({ id: "refresh-db-schemas", name: t("refreshSchemas"), callback: () => void refreshSchemas(schemas) });
		this.register(environments.attachStatusBar(this.addStatusBarItem()));
		// The chat panel (src/ui/chat): its view; chat.toggle (palette, or a chord the user binds) toggles it.
		const toggleChat = registerChat(this, new PluginChatHost(this.app, this.settingsStore, this.runtime, this.services, this.notes));
		// The version-control panel (src/ui/vcs, docs/vcs.md): its view; vcs.sync performs its sync.
		const vcs = registerVcs(this, {
			pluginDir,
			chord: (action) => keymapOf(this.settingsStore.settings).bindings.get(action),
			preset: () => this.settingsStore.settings.general.keymapPreset,
			onKeymapChange: (listener) => this.settingsStore.onChange(listener),
			commitTemplate: () => this.settingsStore.settings.vcs.commitTemplate,
			autoSyncMinutes: () => this.settingsStore.settings.vcs.autoSyncMinutes,
			onSettingsChange: (listener) => this.settingsStore.onChange(listener),
		});
		registerCommands(this, {
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
			importHttp: () => (require("./src/ui/import-http") as typeof ImportHttp).importHttpFile(this.app, this.settingsStore),
		});
		// Diff blocks (issue 16): a textdiff fence filled once from two responses of this note.
		this.addCommand({
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

		this.registerEvent(
			this.app.vault.on("rename", (file, oldPath) => {
				if (file instanceof TFile) this.runtime.renameFile(oldPath, file.path);
			}),
		);
		// Cross-note references: Obsidian's link updater leaves fenced code alone (src/ui/note-renames.ts).
		this.registerEvent(
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
			void this.settingsStore.load().then(() => this.register(persistCookies(this.app, this.runtime.cookies, this.settingsStore, pluginDir)));
			this.register(this.settingsStore.watch());
			this.register(this.services.watchHistory());
		});
	}

	override onunload(): void {
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
