import { MarkdownView, type App, type KeymapEventHandler } from "obsidian";
import { parseNote, type VariableEntry } from "../blocks";
import { ACTIONS, toObsidianHotkey, type Chord } from "../settings/keymap";
import { BlockSearchModal, type VaultBlockIndexer } from "./block-search";
import type { EnvironmentActions } from "./environments";

/** Global actions this plugin performs (reserved ones, such as chat.toggle, are never registered). */
export const GLOBAL_ACTIONS = ACTIONS.filter((a) => a.scope === "global" && !a.reserved).map((a) => a.id);

/**
 * Actions that work anywhere in the app (block search, environments, go to block N): the
 * command palette calls `perform` (commands without a default hotkey), and `bindKeys`
 * registers on `app.scope` only the chords the user bound: in user.toml's [keymap], on the
 * Keymap page or through the Notebook preset. By default it registers none (DESIGN.md §6).
 */
export class GlobalActions {
	constructor(
		private readonly app: App,
		private readonly environments: EnvironmentActions,
		private readonly indexer: VaultBlockIndexer,
	) {}

	/** Actions other modules perform (vcs.sync, src/ui/vcs/register.ts). */
	private readonly defined = new Map<string, () => boolean>();
	define(action: string, run: () => boolean): void {
		this.defined.set(action, run);
	}

	perform(action: string): boolean {
		const defined = this.defined.get(action);
		if (defined) return defined();
		if (action === "search.blocks") {
			void this.indexer.whenReady().then(() => new BlockSearchModal(this.app, this.indexer.index, (v) => this.insertVariable(v)).open());
			return true;
		}
		if (action === "env.switch") {
			this.environments.openSwitcher();
			return true;
		}
		if (action === "env.new_variable") {
			this.environments.openNewVariable();
			return true;
		}
		const goto = /^block\.goto\.(\d)$/.exec(action);
		return goto ? this.gotoBlock(Number(goto[1])) : false;
	}

	/** Registers each bound global action on the app's scope; returns the undo. */
	bindKeys(bindings: ReadonlyMap<string, Chord>): () => void {
		const handlers: KeymapEventHandler[] = [];
		for (const action of GLOBAL_ACTIONS) {
			const chord = bindings.get(action);
			if (!chord) continue;
			const { modifiers, key } = toObsidianHotkey(chord);
			handlers.push(
				this.app.scope.register(modifiers, key, () => {
					// false tells Obsidian the key was handled (and stops its default).
					return !this.perform(action);
				}),
			);
		}
		return () => handlers.forEach((h) => this.app.scope.unregister(h));
	}

	/** Choosing a variable in block search inserts `{{name}}` at the cursor of the active note. */
	private insertVariable(entry: VariableEntry): void {
		const editor = this.app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (editor) editor.replaceRange(`{{${entry.name}}}`, editor.getCursor());
	}

	/** Moves the cursor to the fence of the n-th runnable block of the active note. */
	private gotoBlock(n: number): boolean {
		const editor = this.app.workspace.getActiveViewOfType(MarkdownView)?.editor;
		if (!editor) return false;
		const block = parseNote(editor.getValue())[n - 1];
		if (!block) return false;
		editor.setCursor({ line: block.fence.startLine, ch: 0 });
		editor.scrollIntoView({ from: { line: block.fence.startLine, ch: 0 }, to: { line: block.fence.startLine, ch: 0 } }, true);
		return true;
	}
}
