import type { EditorView } from "@codemirror/view";

/** The part of @replit/codemirror-vim's API that Obsidian exposes as `CodeMirrorAdapter.Vim`. */
interface VimApi {
	defineEx(name: string, prefix: string, fn: (cm: { cm6?: EditorView }, params: { args?: string[]; argString?: string }) => void): void;
}

/** Obsidian's vim, when it has one loaded (vim mode on, or loaded once). */
export function obsidianVim(): VimApi | null {
	const adapter = (window as unknown as { CodeMirrorAdapter?: { Vim?: VimApi } }).CodeMirrorAdapter;
	return adapter?.Vim ?? null;
}

export interface VimHandlers {
	run(view: EditorView | null): void;
	runAll(view: EditorView | null): void;
	cancel(view: EditorView | null): void;
	env(name: string): void;
}

/**
 * `:run`, `:run-all`, `:cancel`, `:env <name>`. Vim's ex parser reads a command name as a
 * word, so `:run-all` arrives as `run` with argString "-all" (DESIGN.md §6).
 * Returns false when Obsidian has no vim to define them in.
 */
export function defineVimCommands(handlers: VimHandlers): boolean {
	const vim = obsidianVim();
	if (!vim) return false;
	vim.defineEx("run", "run", (cm, params) => {
		const arg = (params.argString ?? "").trim();
		if (arg === "-all" || arg === "all") handlers.runAll(cm.cm6 ?? null);
		else handlers.run(cm.cm6 ?? null);
	});
	vim.defineEx("cancel", "cancel", (cm) => handlers.cancel(cm.cm6 ?? null));
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
