import type { App } from "obsidian";
import { GitRepository, VcsSession, defaultIgnoreLines } from "../../vcs";
import { desktopGit } from "./desktop-git";

/**
 * The version-control panel's code, entered through this one module: main.js carries it (and the
 * git core, src/vcs) as text modules, compiled when the panel opens or a version-control command
 * first runs, never at Obsidian's start (docs/architecture.md, "Text modules"). register.ts, which
 * Obsidian's start does run, reaches it only through `require` inside functions.
 */
export { VcsView } from "./vcs-view";
export { pickBranch } from "./branch-picker";
export { ConflictModal } from "./conflict-modal";
export { HistoryModal } from "./history-modal";
export { actionKey, confirmUndo } from "./undo-confirm";
export { discardNoteChanges } from "./discard-note";
export { AutoSync } from "../../vcs";

/** The session over the vault's repository, or null where git cannot run (mobile, no file system). */
export function createVcsSession(app: App, historyFile: string, template: () => string): VcsSession | null {
	const git = desktopGit(app);
	if (!git) return null;
	return new VcsSession({
		open: () => GitRepository.open(git.config, git.fs),
		init: () => GitRepository.init(git.config, git.fs, defaultIgnoreLines(app.vault.configDir, historyFile)),
		probe: git.probe,
		template,
		now: () => new Date(),
		sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
	});
}
