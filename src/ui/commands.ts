import type { Extension } from "@codemirror/state";
import { MarkdownView, type App, type Editor, type KeymapEventHandler, type MarkdownFileInfo, type Plugin, type TFile } from "obsidian";
import type { HttpNoteBlock, NoteBlock } from "../blocks";
import { ACTION_SPECS, ACTIONS, resolveKeymap, toCodeMirrorKey, toObsidianHotkey, type Action, type ActionId, type ActionOf, type Chord } from "../settings/keymap";
import type { Settings } from "../settings/user-settings";
import { isRunnable, snippetFormats } from "../runner/engine";
import { editorTarget, runnableBlockAt, type ActionTarget } from "./action-target";
import { blockKeymap } from "./editor/block-keymap";
import type { EnvironmentActions } from "./environments";
import type { Notes } from "./notes";
import { notify } from "./notify";
import { t, type StringKey } from "./strings";
import { defineVimCommands, toggleVimMode } from "./vim";

/** What actions do, provided by the plugin: each member is one effect. */
export interface ActionEffects {
	run(path: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], force: boolean): void;
	/** Cancels a block's run; false when it was not running. */
	cancel(path: string, block: NoteBlock): boolean;
	copyAsCurl(path: string, note: readonly NoteBlock[], block: NoteBlock): void;
	/** Runs a db block's EXPLAIN (its last statement's plan) instead of the block. */
	explain(path: string, note: readonly NoteBlock[], block: NoteBlock): void;
	searchBlocks(): void;
	switchEnvironment(): void;
	newVariable(): void;
	toggleChat(): void;
	syncVault(): void;
	/** Forgets every OAuth token of the session; the next run that needs one signs in again. */
	clearAuthTokens(): void;
	/** Writes the http block's last response under it (docs/pins.md). */
	pin(path: string, block: HttpNoteBlock): void;
	/** Opens the http block's last response against its pinned one in the diff view. */
	comparePin(path: string, block: HttpNoteBlock): void;
}

type GotoId = Extract<ActionId, `block.goto.${string}`>;
const isGoto = (id: ActionId): id is GotoId => id.startsWith("block.goto.");
const gotoNumber = (id: GotoId) => Number(id.slice("block.goto.".length));

/** The actions that have a palette command. */
type PaletteActionId = Extract<(typeof ACTIONS)[number], { command: object }>["id"];

/**
 * Each palette command's name in the UI strings, so the palette follows Obsidian's language;
 * ACTIONS keeps the English title, which the docs cite. Go to block N is `cmdGoToBlock`.
 */
const COMMAND_NAMES: Record<Exclude<PaletteActionId, GotoId>, StringKey> = {
	"block.run": "cmdRunBlock",
	"block.run_all": "cmdRunAllBlocks",
	"block.cancel": "cmdCancelBlock",
	"block.copy_curl": "cmdCopyBlockAsCurl",
	"block.explain": "cmdExplainBlock",
	"block.force_run": "cmdForceRunBlock",
	"block.pin": "cmdPinResponse",
	"block.compare_pin": "cmdCompareWithPinned",
	"search.blocks": "cmdSearchBlocks",
	"env.switch": "cmdSwitchEnvironment",
	"env.new_variable": "cmdNewVariable",
	"chat.toggle": "cmdToggleChat",
	"vcs.sync": "cmdSyncVault",
	"auth.clear": "cmdClearAuthTokens",
};

const paletteName = (id: PaletteActionId): string => (isGoto(id) ? t("cmdGoToBlock", { n: gotoNumber(id) }) : t(COMMAND_NAMES[id]));

/**
 * Performs an action where the user is: the one dispatcher behind block chords, palette
 * commands, vim ex commands and global chords. Returns whether it acted; a chord that did not
 * act falls through to Obsidian.
 */
export function performAction(id: ActionId, target: ActionTarget | null, fx: ActionEffects): boolean {
	if (isGoto(id)) {
		const block = target?.note[gotoNumber(id) - 1];
		if (!target || !block) return false;
		target.moveTo(block.fence.startLine);
		return true;
	}
	switch (id) {
		case "block.run":
		case "block.force_run": {
			const block = target && runnableBlockAt(target);
			if (!target || !block) return false;
			fx.run(target.path, target.note, [block], id === "block.force_run");
			return true;
		}
		case "block.copy_curl": {
			// Only a block whose kind writes curl has a request to copy: on any other block the chord falls through to Obsidian.
			const block = target ? runnableBlockAt(target) : undefined;
			if (!target || !copiesAsCurl(block)) return false;
			fx.copyAsCurl(target.path, target.note, block);
			return true;
		}
		case "block.run_all":
			if (!target) return false;
			fx.run(target.path, target.note, target.note.filter(isRunnable), false);
			return true;
		case "block.cancel": {
			if (!target) return false;
			// Inside a block: that block; elsewhere (vim's :cancel): every running block of the note.
			const block = runnableBlockAt(target);
			if (block) return fx.cancel(target.path, block);
			return target.note.map((b) => fx.cancel(target.path, b)).some(Boolean);
		}
		case "block.explain": {
			// Only a db block has a plan: on any other block the chord falls through to Obsidian.
			const block = target && runnableBlockAt(target);
			if (!target || block?.kind !== "db") return false;
			fx.explain(target.path, target.note, block);
			return true;
		}
		case "block.pin":
		case "block.compare_pin": {
			// Only an http block has a response to pin: on any other block the chord falls through.
			const block = target && runnableBlockAt(target);
			if (!target || block?.kind !== "http") return false;
			if (id === "block.pin") fx.pin(target.path, block);
			else fx.comparePin(target.path, block);
			return true;
		}
		case "search.blocks":
			fx.searchBlocks();
			return true;
		case "env.switch":
			fx.switchEnvironment();
			return true;
		case "env.new_variable":
			fx.newVariable();
			return true;
		case "chat.toggle":
			fx.toggleChat();
			return true;
		case "vcs.sync":
			fx.syncVault();
			return true;
		case "auth.clear":
			fx.clearAuthTokens();
			return true;
		case "vcs.commit":
		case "vcs.branch":
			return false; // the version-control panel performs them on its own scope (src/ui/vcs)
		default: {
			const unhandled: never = id;
			throw new Error(`no dispatch for action ${String(unhandled)}`);
		}
	}
}

/** Whether the block's kind exports as curl (http; an SSE stream as `curl -N`): copy as curl's blocks. */
function copiesAsCurl(block: NoteBlock | undefined): block is NoteBlock {
	return block !== undefined && snippetFormats(block.kind).includes("curl");
}

/** Whether the palette offers an action's command where the user is. */
export function isAvailable(action: Action, target: ActionTarget | null): boolean {
	if (isGoto(action.id)) return target !== null && target.note.length >= gotoNumber(action.id);
	if (action.id === "block.explain") return target !== null && runnableBlockAt(target)?.kind === "db";
	if (action.id === "block.copy_curl") return target !== null && copiesAsCurl(runnableBlockAt(target));
	if (action.id === "block.pin" || action.id === "block.compare_pin") return target !== null && runnableBlockAt(target)?.kind === "http";
	if (action.scope === "block") return target !== null && runnableBlockAt(target) !== undefined;
	return true;
}

/** The keymap in force: defaults, then the `[general] keymap_preset` chords, then user.toml's [keymap]. */
export const keymapOf = (settings: Settings) => resolveKeymap(settings.keymap, settings.general.keymapPreset);

/** The actions this plugin registers (reserved ones are listed on the Keymap page only). */
const LIVE_ACTIONS = ACTION_SPECS.filter((a) => !a.reserved);

/** Block chords in CodeMirror syntax: they act only inside a runnable block. */
function blockBindings(bindings: ReadonlyMap<ActionId, Chord>): Array<{ action: ActionOf<"block">; key: string }> {
	return LIVE_ACTIONS.flatMap((a) => {
		const chord = bindings.get(a.id);
		return a.scope === "block" && chord ? [{ action: a.id as ActionOf<"block">, key: toCodeMirrorKey(chord) }] : [];
	});
}

/** Registers each bound global action on the app's scope; returns the undo. */
function bindGlobalChords(app: App, bindings: ReadonlyMap<ActionId, Chord>, perform: (id: ActionId) => boolean): () => void {
	const handlers: KeymapEventHandler[] = [];
	for (const action of LIVE_ACTIONS) {
		const chord = bindings.get(action.id);
		if (action.scope !== "global" || !chord) continue;
		const { modifiers, key } = toObsidianHotkey(chord);
		// false tells Obsidian the key was handled (and stops its default).
		handlers.push(app.scope.register(modifiers, key, () => !perform(action.id)));
	}
	return () => handlers.forEach((h) => app.scope.unregister(h));
}

/** What the plugin hands the command module. */
export interface CommandDeps {
	notes: Notes;
	fx: ActionEffects;
	settings(): Settings;
	/** Calls back whenever user.toml changes; returns the undo. */
	onSettingsChange(listener: () => void): () => void;
	environments: Pick<EnvironmentActions, "switchTo">;
	exportNote(file: TFile, text: string): void;
	reloadSettings(): void;
	clearCache(): void;
	/** Picks a .http/.rest file and writes it as a new note (import-http.ts). */
	importHttp(): void;
}

/**
 * Every way in to an action, wired to `performAction`: palette commands (none with a default
 * hotkey), the block keymap in the editor, global chords on the app's scope (only those the
 * user bound, docs/shortcuts.md) and vim's ex commands; plus the palette-only commands.
 */
export function registerCommands(plugin: Plugin, deps: CommandDeps): void {
	const { app } = plugin;
	const perform = (id: ActionId, target: ActionTarget | null) => performAction(id, target, deps.fx);
	const targetOf = (editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => editorTarget(editor, ctx.file?.path ?? "", deps.notes);
	/** The active note's editor: global chords act there. */
	const activeTarget = (): ActionTarget | null => {
		const view = app.workspace.getActiveViewOfType(MarkdownView);
		return view ? editorTarget(view.editor, view.file?.path ?? "", deps.notes) : null;
	};
	/** The active editor of any kind (a note, an embed): vim's ex commands act there when vim does not say. */
	const activeEditorTarget = (): ActionTarget | null => {
		const info = app.workspace.activeEditor;
		return info?.editor ? editorTarget(info.editor, info.file?.path ?? "", deps.notes) : null;
	};

	for (const action of LIVE_ACTIONS) {
		const command = action.command;
		if (!command) continue;
		// An action with a command is one of PaletteActionId (the type cannot follow `command` through ACTION_SPECS).
		const name = paletteName(action.id as PaletteActionId);
		if (action.scope === "global" && !isGoto(action.id)) {
			plugin.addCommand({ id: command.id, name, callback: () => void perform(action.id, null) });
			continue;
		}
		plugin.addCommand({
			id: command.id,
			name,
			editorCheckCallback: (checking, editor, ctx) => {
				// Block commands show only in a note's editor with the cursor inside a block that can run.
				if (action.scope === "block" && !(ctx instanceof MarkdownView && ctx.file)) return false;
				const target = targetOf(editor, ctx);
				if (!isAvailable(action, target)) return false;
				if (!checking) perform(action.id, target);
				return true;
			},
		});
	}

	// Obsidian applies changes to this array on workspace.updateOptions(): the keymap follows user.toml.
	const keys = (): Extension => blockKeymap(blockBindings(keymapOf(deps.settings()).bindings), perform);
	const editorExtensions = [keys()];
	plugin.registerEditorExtension(editorExtensions);
	// Global chords follow user.toml: none unless the user binds them ([keymap] or the Notebook preset).
	let unbind = bindGlobalChords(app, keymapOf(deps.settings()).bindings, (id) => perform(id, activeTarget()));
	plugin.register(() => unbind());
	plugin.register(
		deps.onSettingsChange(() => {
			editorExtensions[0] = keys();
			app.workspace.updateOptions();
			unbind();
			unbind = bindGlobalChords(app, keymapOf(deps.settings()).bindings, (id) => perform(id, activeTarget()));
		}),
	);

	// :run, :run-all, :cancel, :env <name> in Obsidian's vim, once its adapter is loaded.
	const defineVim = () =>
		defineVimCommands(
			{
				run: (target) => {
					if (!perform("block.run", target)) notify(t("notInBlock"));
				},
				runAll: (target) => void perform("block.run_all", target),
				cancel: (target) => void perform("block.cancel", target),
				env: (name) => {
					const names = Object.keys(deps.settings().environments);
					if (names.includes(name)) void deps.environments.switchTo(name);
					else notify(t("unknownEnvironment", { name, names: names.length ? names.join(", ") : t("noneYet") }));
				},
			},
			activeEditorTarget,
		);
	app.workspace.onLayoutReady(() => defineVim());

	plugin.addCommand({
		id: "export-note-as-http",
		name: t("cmdExportNote"),
		editorCheckCallback: (checking, editor, view) => {
			if (!(view instanceof MarkdownView) || !view.file) return false;
			if (!checking) deps.exportNote(view.file, editor.getValue());
			return true;
		},
	});
	plugin.addCommand({ id: "reload-settings", name: t("cmdReloadSettings"), callback: () => deps.reloadSettings() });
	plugin.addCommand({ id: "clear-cache", name: t("cmdClearCache"), callback: () => deps.clearCache() });
	plugin.addCommand({ id: "import-http-file", name: t("cmdImportHttp"), callback: () => deps.importHttp() });
	plugin.addCommand({
		id: "set-vim",
		name: t("cmdSetVim"),
		// `:set vim` (docs/shortcuts.md): Obsidian's own vim-mode setting, toggled.
		callback: () => {
			const on = toggleVimMode(app.vault);
			if (on === null) return notify(t("vimUnavailable"));
			if (on) defineVim();
			notify(t(on ? "vimOn" : "vimOff"));
		},
	});
}
