import { getLanguage, type Plugin } from "obsidian";
import type { Chord } from "../../settings/keymap";
import { DEFAULT_COMMIT_TEMPLATE, defaultIgnoreLines, GitRepository, VcsSession } from "../../vcs";
import { notify } from "../notify";
import { desktopGit } from "./desktop-git";
import { vcsTranslator } from "./strings";
import { VCS_VIEW_TYPE, VcsView } from "./vcs-view";

export interface VcsWiring {
	/** The plugin's folder inside the vault (`.obsidian/plugins/<id>`), for the history file it ignores. */
	pluginDir: string;
	/** The chord in force for an action id, or undefined when unbound. */
	chord(action: "vcs.commit" | "vcs.branch"): Chord | undefined;
	/** Subscribes to keymap changes; returns the unsubscribe. */
	onKeymapChange(listener: () => void): () => void;
	/** user.toml `[vcs] commit_template`, or "" for the built-in one. */
	commitTemplate(): string;
}

/**
 * Everything the version-control panel adds to the plugin (docs/vcs.md): the view and the
 * "Open version control" command (no default hotkey). Returns the sync that `vcs.sync` performs
 * (its palette command and chord come from ACTIONS, src/settings/keymap.ts).
 * Nothing runs git until the panel opens or a command runs.
 */
export function registerVcs(plugin: Plugin, wiring: VcsWiring): { sync: () => void } {
	const app = plugin.app;
	const t = vcsTranslator(getLanguage());
	const git = desktopGit(app);
	const session = git
		? new VcsSession({
				open: () => GitRepository.open(git.config, git.fs),
				init: () => GitRepository.init(git.config, git.fs, defaultIgnoreLines(app.vault.configDir, `${wiring.pluginDir}/history.sqlite`)),
				probe: git.probe,
				template: () => wiring.commitTemplate() || DEFAULT_COMMIT_TEMPLATE,
				now: () => new Date(),
			})
		: null;

	plugin.registerView(
		VCS_VIEW_TYPE,
		(leaf) =>
			new VcsView(leaf, {
				session,
				t,
				chords: () => ({ commit: wiring.chord("vcs.commit") ?? null, branch: wiring.chord("vcs.branch") ?? null }),
				onKeymapChange: (listener) => wiring.onKeymapChange(listener),
				openFile: (path) => {
					const prefix = session?.repository?.prefix ?? "";
					if (path.startsWith(prefix)) void app.workspace.openLinkText(path.slice(prefix.length), "", false);
				},
				copy: (text) => void navigator.clipboard.writeText(text).then(() => notify(t("copied"))),
			}),
	);

	const open = async () => {
		const existing = app.workspace.getLeavesOfType(VCS_VIEW_TYPE)[0];
		const leaf = existing ?? app.workspace.getRightLeaf(false);
		if (!leaf) return;
		if (!existing) await leaf.setViewState({ type: VCS_VIEW_TYPE, active: true });
		await app.workspace.revealLeaf(leaf);
	};
	plugin.addCommand({ id: "open-version-control", name: t("openCommand"), callback: () => void open() });

	const runSync = (): boolean => {
		if (!session) {
			notify(t("needsDesktop"));
			return true;
		}
		void session.sync().then(() => {
			const s = session.state;
			if (s.kind === "unavailable") notify(t(s.failure.code));
			else if (s.kind === "ready" && s.problem) notify(t(s.problem.code, { ahead: s.problem.ahead ?? 0, behind: s.problem.behind ?? 0 }));
			else if (s.kind === "ready" && s.lastSync) notify(t("synced", { pulled: s.lastSync.pulled, pushed: s.lastSync.pushed }));
		});
		return true;
	};
	plugin.register(() => session?.close());
	return { sync: () => void runSync() };
}
