import type { EditorView } from "@codemirror/view";
import { viewTarget, type ActionTarget } from "./action-target";

/** The part of @replit/codemirror-vim's API that Obsidian exposes as `CodeMirrorAdapter.Vim`. */
interface VimApi {
	defineEx(name: string, prefix: string, fn: (cm: { cm6?: EditorView }, params: { args?: string[]; argString?: string }) => void): void;
}

/** Obsidian's vim, when it has one loaded (vim mode on, or loaded once). Not public API: null where absent. */
export function obsidianVim(): VimApi | null {
	const adapter = (window as unknown as { CodeMirrorAdapter?: { Vim?: VimApi } }).CodeMirrorAdapter;
	return typeof adapter?.Vim?.defineEx === "function" ? adapter.Vim : null;
}

/** Where an ex command acts: the note and the cursor, as for every action. */
export type VimTarget = ActionTarget;

export interface VimHandlers {
	run(target: VimTarget | null): void;
	runAll(target: VimTarget | null): void;
	cancel(target: VimTarget | null): void;
	env(name: string): void;
}

/**
 * `:run`, `:run-all`, `:cancel`, `:env <name>`. Vim's ex parser reads a command name as a
 * word, so `:run-all` arrives as `run` with argString "-all" (docs/shortcuts.md). The editor comes
 * from vim's `cm.cm6` (codemirror-vim's adapter, not Obsidian API); where that is missing,
 * `activeTarget` reads the active editor through the public Workspace API.
 * Returns false when Obsidian has no vim to define them in.
 */
export function defineVimCommands(handlers: VimHandlers, activeTarget: () => VimTarget | null): boolean {
	const vim = obsidianVim();
	if (!vim) return false;
	const target = (cm: { cm6?: EditorView } | undefined) => (cm?.cm6?.state ? viewTarget(cm.cm6) : activeTarget());
	vim.defineEx("run", "run", (cm, params) => {
		const arg = (params.argString ?? "").trim();
		if (arg === "-all" || arg === "all") handlers.runAll(target(cm));
		else handlers.run(target(cm));
	});
	vim.defineEx("cancel", "cancel", (cm) => handlers.cancel(target(cm)));
	vim.defineEx("env", "env", (_cm, params) => handlers.env((params.args?.[0] ?? params.argString ?? "").trim()));
	return true;
}

/**
 * Flips Obsidian's own vim-mode setting (`:set vim` of the seed). The vault's config API is not
 * public, so this returns null where the app does not offer it; otherwise the new state.
 */
export function toggleVimMode(vault: unknown): boolean | null {
	const v = vault as { getConfig?(key: string): unknown; setConfig?(key: string, value: unknown): void };
	if (typeof v.getConfig !== "function" || typeof v.setConfig !== "function") return null;
	const on = !v.getConfig("vimMode");
	v.setConfig("vimMode", on);
	return on;
}
