import { getLanguage, MarkdownView, Platform, Plugin, TFile, type Editor } from "obsidian";
import { blockAtLine, parseNote, writeCanonicalRequest, type NoteBlock } from "./src/blocks";
import { displayChord, resolveKeymap, toCodeMirrorKey } from "./src/settings/keymap";
import type { Settings } from "./src/settings/user-settings";
import { blockKey } from "./src/runner/session";
import { blockActions, type ExportHooks } from "./src/ui/block-actions";
import type { BlockHost } from "./src/ui/block-view";
import { BLOCK_RENDERERS } from "./src/ui/block-renderers";
import { blockKeymap, blockAtCursor, type BlockAction } from "./src/ui/editor/block-keymap";
import { blockWidgets } from "./src/ui/editor/block-widgets";
import { exportHooks, exportNoteAsHttp } from "./src/ui/export-actions";
import { NoteAccess } from "./src/ui/note-access";
import { PluginServices } from "./src/ui/plugin-services";
import { PluginRuntime } from "./src/ui/runtime";
import { SettingsStore } from "./src/ui/settings-store";
import { ReferenceSuggest } from "./src/ui/suggest/reference-suggest";
import { SlashSuggest } from "./src/ui/suggest/slash-suggest";
import { referenceJump } from "./src/ui/editor/reference-jump";
import { setLanguage, t } from "./src/ui/strings";
import { variableEntries, VaultBlockIndexer } from "./src/ui/block-search";
import { EnvironmentActions } from "./src/ui/environments";
import { GlobalActions } from "./src/ui/global-actions";
import { RunnableBlocksSettingTab } from "./src/ui/settings-tab";
import { defineVimCommands, toggleVimMode, type VimTarget } from "./src/ui/vim";
import { notify } from "./src/ui/notify";

const BLOCK_ACTIONS: BlockAction[] = ["block.run", "block.run_all", "block.cancel", "block.force_run", "block.copy_curl", "block.explain"];

/** The keymap in force: defaults, then the `[general] keymap_preset` chords, then user.toml's [keymap]. */
const keymapOf = (settings: Settings) => resolveKeymap(settings.keymap, settings.general.keymapPreset);

/** The block actions' chords, in CodeMirror syntax. */
function blockBindings(settings: Settings): Array<{ action: BlockAction; key: string }> {
	const { bindings } = keymapOf(settings);
	return BLOCK_ACTIONS.flatMap((action) => {
		const chord = bindings.get(action);
		return chord ? [{ action, key: toCodeMirrorKey(chord) }] : [];
	});
}

/** The http block at a 0-based line of a note's text, with the note it belongs to. */
function blockAt(filePath: string, text: string, line: number): { filePath: string; note: NoteBlock[]; block: NoteBlock } | null {
	const note = parseNote(text);
	const block = blockAtLine(note, line);
	return block && block.kind === "http" ? { filePath, note, block } : null;
}

/** Plugin entry: wires adapters and registers processors, extensions and commands. No heavy work here. */
export default class RunnableBlocksPlugin extends Plugin {
	private settingsStore!: SettingsStore;
	private services!: PluginServices;
	private runtime!: PluginRuntime;
	private notes!: NoteAccess;
	private exporter!: ExportHooks;
	private environments!: EnvironmentActions;
	private globals!: GlobalActions;

	override onload(): void {
		setLanguage(getLanguage());
		const pluginDir = `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
		this.settingsStore = new SettingsStore(this.app, pluginDir);
		this.services = new PluginServices(this.app, this.settingsStore, pluginDir);
		this.runtime = new PluginRuntime(this.services);
		this.notes = new NoteAccess(this.app);
		this.exporter = exportHooks(this.runtime, this.services);
		const host = this.blockHost();

		for (const [language, renderer] of Object.entries(BLOCK_RENDERERS)) {
			if (renderer) this.registerMarkdownCodeBlockProcessor(language, (source, el, ctx) => ctx.addChild(renderer.reading(el, source, ctx, host)));
		}
		// Obsidian applies changes to this array on workspace.updateOptions(): the keymap follows user.toml.
		const keys = () => blockKeymap(blockBindings(this.settingsStore.settings), (action, view) => this.blockKey(action, blockAtCursor(view)));
		const editorExtensions = [blockWidgets(host), keys(), referenceJump(() => Platform.isMacOS)];
		this.registerEditorExtension(editorExtensions);
		this.register(
			this.settingsStore.onChange(() => {
				editorExtensions[1] = keys();
				this.app.workspace.updateOptions();
			}),
		);

		this.registerEditorSuggest(new SlashSuggest(this.app, () => Object.keys(this.settingsStore.settings.connections)[0] ?? "app"));
		this.registerEditorSuggest(new ReferenceSuggest(this.app, this.runtime, () => Object.keys(this.services.environment().variables)));

		this.addBlockCommand("run-block", "Run block", "block.run");
		this.addBlockCommand("run-all-blocks", "Run all blocks in the note", "block.run_all");
		this.addBlockCommand("cancel-block", "Cancel running block", "block.cancel");
		this.addBlockCommand("force-run-block", "Force re-run block (skip cache)", "block.force_run");
		this.addBlockCommand("copy-block-as-curl", "Copy block as curl", "block.copy_curl");
		this.addCommand({
			id: "export-note-as-http",
			name: "Export note as .http",
			editorCheckCallback: (checking, editor, view) => {
				if (!(view instanceof MarkdownView) || !view.file) return false;
				if (!checking) void exportNoteAsHttp(this.app, this.runtime, this.services, view.file, editor.getValue());
				return true;
			},
		});
		this.addCommand({ id: "reload-settings", name: "Reload settings from user.toml", callback: () => void this.settingsStore.load() });
		this.addGlobalCommands();
		this.addCommand({ id: "clear-cache", name: "Clear response cache", callback: () => this.services.cache.clear() });

		this.registerEvent(
			this.app.vault.on("rename", (file, oldPath) => {
				if (file instanceof TFile) this.runtime.renameFile(oldPath, file.path);
			}),
		);
		// user.toml is read once the workspace is ready, not during start-up.
		this.app.workspace.onLayoutReady(() => {
			void this.settingsStore.load();
			this.register(this.settingsStore.watch());
			this.register(this.services.watchHistory());
			this.defineVim();
		});
	}

	/** Environments, block search, the settings page, the status bar and vim. */
	private addGlobalCommands(): void {
		this.environments = new EnvironmentActions(this.app, this.settingsStore);
		const indexer = new VaultBlockIndexer(this.app);
		for (const ref of indexer.watch()) this.registerEvent(ref);
		this.globals = new GlobalActions(this.app, this.environments, indexer);
		this.addSettingTab(new RunnableBlocksSettingTab(this.app, this, this.settingsStore, this.environments));
		this.register(this.environments.attachStatusBar(this.addStatusBarItem()));

		// Global chords follow user.toml: none unless the user binds them ([keymap] or the Notebook
		// preset); re-registered on app.scope whenever it changes.
		let unbind = this.globals.bindKeys(keymapOf(this.settingsStore.settings).bindings);
		this.register(() => unbind());
		this.register(
			this.settingsStore.onChange((s) => {
				unbind();
				unbind = this.globals.bindKeys(keymapOf(s).bindings);
				indexer.index.setVariables(variableEntries(s));
			}),
		);

		const globalCommand = (id: string, name: string, action: string) => this.addCommand({ id, name, callback: () => void this.globals.perform(action) });
		globalCommand("search-blocks", "Search runnable blocks and variables", "search.blocks");
		globalCommand("switch-environment", "Switch environment", "env.switch");
		globalCommand("new-variable", "New variable in the active environment", "env.new_variable");
		for (let n = 1; n <= 9; n++) {
			this.addCommand({
				id: `go-to-block-${n}`,
				name: `Go to block ${n} of the note`,
				editorCheckCallback: (checking, editor) => {
					if (parseNote(editor.getValue()).length < n) return false;
					if (!checking) this.globals.perform(`block.goto.${n}`);
					return true;
				},
			});
		}
		this.addCommand({ id: "set-vim", name: "Set vim (toggle vim mode)", callback: () => this.toggleVim() });
	}

	/** `:set vim` of the seed: Obsidian's own vim-mode setting, toggled. */
	private toggleVim(): void {
		const on = toggleVimMode(this.app.vault);
		if (on === null) return notify(t("vimUnavailable"));
		if (on) this.defineVim();
		notify(t(on ? "vimOn" : "vimOff"));
	}

	/** :run, :run-all, :cancel, :env <name> in Obsidian's vim. */
	private defineVim(): void {
		const active = (): VimTarget | null => {
			const info = this.app.workspace.activeEditor;
			return info?.editor ? { path: info.file?.path ?? "", text: info.editor.getValue(), line: info.editor.getCursor().line } : null;
		};
		defineVimCommands(
			{
				run: (target) => {
					if (!this.blockKey("block.run", target && blockAt(target.path, target.text, target.line))) notify(t("notInBlock"));
				},
				runAll: (target) => {
					if (target) this.runNote(target.path, parseNote(target.text));
				},
				// Inside a block: that block; elsewhere: every running block of the note.
				cancel: (target) => {
					if (!target) return;
					const found = blockAt(target.path, target.text, target.line);
					if (found) this.blockKey("block.cancel", found);
					else for (const b of parseNote(target.text)) this.runtime.sessions.note(target.path).cancel(blockKey(b));
				},
				env: (name) => {
					const names = Object.keys(this.settingsStore.settings.environments);
					if (names.includes(name)) void this.environments.switchTo(name);
					else notify(t("unknownEnvironment", { name, names: names.length ? names.join(", ") : t("noneYet") }));
				},
			},
			active,
		);
	}

	override onunload(): void {
		this.runtime.sessions.cancelAll();
		void this.services.dispose();
	}

	private blockHost(): BlockHost {
		const exporter = this.exporter;
		return {
			session: (path) => this.runtime.sessions.note(path),
			actions: (path, block) => blockActions(this.app, this.runtime, this.notes, exporter, path, block),
			writeRequest: (path, block, request) =>
				void this.notes.edit(path, (text) => {
					const current = parseNote(text).find((b) => blockKey(b) === blockKey(block));
					return current ? writeCanonicalRequest(text, current, request) : null;
				}),
			runKeyLabel: () => {
				const chord = keymapOf(this.settingsStore.settings).bindings.get("block.run");
				return chord ? displayChord(chord, Platform.isMacOS) : "";
			},
		};
	}

	/** A block command: shown in the palette only while the cursor is inside an http block. */
	private addBlockCommand(id: string, name: string, action: BlockAction): void {
		this.addCommand({
			id,
			name,
			editorCheckCallback: (checking, editor, view) => {
				const found = view instanceof MarkdownView && view.file ? this.blockFromEditor(editor, view.file.path) : null;
				if (!found) return false;
				if (!checking) this.blockKey(action, found);
				return true;
			},
		});
	}

	private blockFromEditor(editor: Editor, filePath: string): { filePath: string; note: NoteBlock[]; block: NoteBlock } | null {
		return blockAt(filePath, editor.getValue(), editor.getCursor().line);
	}

	/** Runs every http block of a note, in dependency order. */
	private runNote(filePath: string, note: NoteBlock[]): void {
		void this.runtime.run(filePath, note, note.filter((b) => b.kind === "http"));
	}

	/** Performs a block action; returns whether it handled the key. */
	private blockKey(action: BlockAction, target: { filePath: string; note: NoteBlock[]; block: NoteBlock } | null): boolean {
		if (!target) return false;
		const { filePath, note, block } = target;
		switch (action) {
			case "block.run":
			case "block.force_run":
				void this.runtime.run(filePath, note, [block], action === "block.force_run");
				return true;
			case "block.run_all":
				this.runNote(filePath, note);
				return true;
			case "block.cancel":
				return this.runtime.sessions.note(filePath).cancel(blockKey(block));
			case "block.copy_curl":
				this.exporter.copy(filePath, block, "curl");
				return true;
			default:
				return false;
		}
	}
}
