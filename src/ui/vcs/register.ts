import { Platform, type Plugin } from "obsidian";
import { actsWhileOpen, type Chord, type KeymapPreset } from "../../settings/keymap";
import type { GitFailure, VcsSession, VcsState } from "../../vcs";
import { DEFAULT_COMMIT_TEMPLATE } from "../../vcs/message";
import { notify } from "../notify";
import { t, vcsFailureKey, type StringKey } from "../strings";
import type { BranchPickerMode } from "./branch-picker";
import type * as VcsUi from "./vcs-ui";
import { VCS_VIEW_TYPE } from "./vcs-view-type";
import { AutoSyncWiring, autoSyncStatus } from "./auto-sync-wiring";

/**
 * The panel's code and the git core, required when the panel first opens or a command first runs:
 * main.js carries them as text modules, compiled then rather than at Obsidian's start
 * (docs/architecture.md, "Text modules").
 */
function vcsUi(): typeof VcsUi {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("./vcs-ui") as typeof VcsUi;
}

export interface VcsWiring {
	/** The plugin's folder inside the vault (`.obsidian/plugins/<id>`), for the history file it ignores. */
	pluginDir: string;
	/** The chord in force for an action id, or undefined when unbound. */
	chord(action: "vcs.commit" | "vcs.branch"): Chord | undefined;
	/** `[general] keymap_preset`: the Notebook preset makes vcs.commit act while the panel is open. */
	preset(): KeymapPreset;
	/** Subscribes to keymap changes; returns the unsubscribe. */
	onKeymapChange(listener: () => void): () => void;
	/** user.toml `[vcs] commit_template`, or "" for the built-in one. */
	commitTemplate(): string;
	/** user.toml `[vcs] auto_sync_minutes`; 0 (the default) is off. */
	autoSyncMinutes(): number;
	/** Subscribes to user.toml changes; returns the unsubscribe. */
	onSettingsChange(listener: () => void): () => void;
}

/**
 * Everything the version-control panel adds to the plugin (docs/vcs.md): the view, the "Open
 * version control" command and a palette command per panel action (none with a default hotkey, so
 * they are bound in Settings → Hotkeys). Returns the sync that `vcs.sync` performs (its palette
 * command and chord come from ACTIONS, src/settings/keymap.ts).
 * Nothing runs git until the panel opens or a command runs.
 */
export function registerVcs(plugin: Plugin, wiring: VcsWiring): { sync: () => void } {
	const app = plugin.app;
	/** Made on first use (undefined until then); null where git cannot run. */
	let made: VcsSession | null | undefined;
	const sessionNow = (): VcsSession | null =>
		made !== undefined ? made : (made = Platform.isDesktopApp ? vcsUi().createVcsSession(app, `${wiring.pluginDir}/history.sqlite`, () => wiring.commitTemplate() || DEFAULT_COMMIT_TEMPLATE) : null);

	plugin.registerView(
		VCS_VIEW_TYPE,
		(leaf) =>
			new (vcsUi().VcsView)(leaf, {
				session: sessionNow(),
				chords: () => ({ commit: wiring.chord("vcs.commit") ?? null, branch: wiring.chord("vcs.branch") ?? null, commitWhileOpen: actsWhileOpen("vcs.commit", wiring.preset()) }),
				onKeymapChange: (listener) => wiring.onKeymapChange(listener),
				openFile: (path) => {
					const prefix = made?.repository?.prefix ?? "";
					if (path.startsWith(prefix)) void app.workspace.openLinkText(path.slice(prefix.length), "", false);
				},
				copy: (text) => void navigator.clipboard.writeText(text).then(() => notify(t("vcsCopied"))),
			}),
	);

	const open = async () => {
		const existing = app.workspace.getLeavesOfType(VCS_VIEW_TYPE)[0];
		const leaf = existing ?? app.workspace.getRightLeaf(false);
		if (!leaf) return;
		if (!existing) await leaf.setViewState({ type: VCS_VIEW_TYPE, active: true });
		await app.workspace.revealLeaf(leaf);
	};
	plugin.addCommand({ id: "open-version-control", name: t("vcsOpenCommand"), callback: () => void open() });

	const failed = (f: GitFailure) => notify(t(vcsFailureKey(f.code), { ahead: f.ahead ?? 0, behind: f.behind ?? 0 }));
	/** After a palette action the panel may be closed: a notice says how it ended. */
	const report = (success: (s: Extract<VcsState, { kind: "ready" }>) => string | null) => {
		const s = made?.state;
		if (s?.kind === "unavailable") failed(s.failure);
		else if (s?.kind === "ready" && s.problem) failed(s.problem);
		else if (s?.kind === "ready") {
			const text = success(s);
			if (text) notify(text);
		}
	};

	const runSync = (): boolean => {
		const session = sessionNow();
		if (!session) {
			notify(t("vcsNeedsDesktop"));
			return true;
		}
		void session.sync().then(() => report((s) => (s.lastSync ? t("vcsSynced", { pulled: s.lastSync.pulled, pushed: s.lastSync.pushed }) : null)));
		return true;
	};

	// The panel's actions in the palette. Offered unless there is known to be no repository (mobile,
	// git missing, not a repository); before anything has looked, running one finds out.
	const repositoryCommand = (id: string, name: StringKey, run: (session: VcsSession) => Promise<void>) =>
		plugin.addCommand({
			id,
			name: t(name),
			checkCallback: (checking) => {
				// Before the session is made, only the platform is known: mobile has no git.
				if (!Platform.isDesktopApp || made?.state.kind === "unavailable") return false;
				if (checking) return true;
				const session = sessionNow();
				if (session) void run(session);
				else notify(t("vcsNeedsDesktop"));
				return true;
			},
		});
	repositoryCommand("commit-all-changes", "vcsCommitCommand", async (s) => {
		// With the panel open, as its chord: the box's message if any, and the box empties.
		// The leaf of our view type holds our view (no instanceof: that would load the view's module).
		const view = app.workspace.getLeavesOfType(VCS_VIEW_TYPE)[0]?.view as VcsUi.VcsView | undefined;
		await (view?.getViewType() === VCS_VIEW_TYPE ? view.commitAll() : s.commit("", true));
		report((r) => t("vcsCommitted", { hash: r.commits[0]?.shortHash ?? "" }));
	});
	const branchCommand = (mode: BranchPickerMode) => async (s: VcsSession) => {
		const problem = await vcsUi().pickBranch(app, s, mode, () => report((r) => t("vcsSwitchedTo", { branch: r.snapshot.status.branch.head ?? "" })));
		if (problem) failed(problem);
	};
	repositoryCommand("switch-branch", "vcsSwitchBranchCommand", branchCommand("switch"));
	repositoryCommand("create-branch", "vcsCreateBranchCommand", branchCommand("create"));

	// Git you can undo (docs/vcs.md): each change below runs after a safety point.
	repositoryCommand("undo-last-vcs-change", "vcsUndoLastCommand", async (s) => {
		await s.refresh();
		const point = s.state.kind === "ready" ? s.state.safetyPoints[0] : undefined;
		await s.undo((p, changes) => vcsUi().confirmUndo(app, p, changes));
		if (point) report(() => t("vcsUndone", { action: t(vcsUi().actionKey(point.action)) }));
		else report(() => null);
	});
	repositoryCommand("pull-vault-repository", "vcsPullCommand", async (s) => {
		await s.pull();
		report((r) => (r.lastSync ? t("vcsSynced", { pulled: r.lastSync.pulled, pushed: 0 }) : null));
	});
	const conflictsAfter = async (s: VcsSession, run: () => Promise<void>) => {
		await run();
		if (s.state.kind === "ready" && s.state.conflicts.length) new (vcsUi().ConflictModal)(app, s, null).open();
		else report(() => null);
	};
	repositoryCommand("merge-remote", "vcsMergeRemoteCommand", (s) => conflictsAfter(s, () => s.integrate("merge")));
	repositoryCommand("rebase-onto-remote", "vcsRebaseRemoteCommand", (s) => conflictsAfter(s, () => s.integrate("rebase")));
	repositoryCommand("resolve-conflicts", "vcsResolveConflictsCommand", (s) => conflictsAfter(s, () => s.refresh()));
	repositoryCommand("show-note-history", "vcsNoteHistoryCommand", async (s) => {
		const file = app.workspace.getActiveFile();
		if (!file) return void notify(t("vcsNoActiveNote"));
		await s.refresh();
		if (s.repository) new (vcsUi().HistoryModal)(app, s, `${s.repository.prefix}${file.path}`).open();
		else report(() => null);
	});
	repositoryCommand("discard-note-changes", "vcsDiscardNoteCommand", async (s) => {
		const file = app.workspace.getActiveFile();
		if (!file) return void notify(t("vcsNoActiveNote"));
		const refused = await vcsUi().discardNoteChanges(s, file.path);
		if (refused) notify(refused);
		else report(() => t("vcsDiscarded", { path: file.path }));
	});

	registerAutoSync(plugin, wiring, sessionNow);
	plugin.register(() => made?.close());
	return { sync: () => void runSync() };
}

/**
 * Auto-sync (docs/vcs.md): started once the layout is ready when `auto_sync_minutes` > 0, restarted
 * or stopped when user.toml changes; editor edits hold it back; a status-bar item shows its state.
 * With 0 minutes the git core is not loaded for it.
 */
function registerAutoSync(plugin: Plugin, wiring: VcsWiring, sessionNow: () => VcsSession | null): void {
	const app = plugin.app;
	const item = plugin.addStatusBarItem();
	item.hide();
	const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
	const autoSync = new AutoSyncWiring({
		minutes: () => wiring.autoSyncMinutes(),
		make: (intervalMs) => {
			const session = sessionNow();
			if (!session) return null;
			return new (vcsUi().AutoSync)({
				session,
				intervalMs,
				now: () => Date.now(),
				timer: (f, ms) => {
					const id = window.setTimeout(f, ms);
					return () => window.clearTimeout(id);
				},
			});
		},
		show: (state) => {
			if (!state || state.kind === "off") return void item.hide();
			const { key, vars, why } = autoSyncStatus(state, clock);
			item.setText(t(key, why ? { ...vars, why: t(why) } : vars));
			item.show();
		},
	});
	app.workspace.onLayoutReady(() => {
		autoSync.apply();
		plugin.register(wiring.onSettingsChange(() => autoSync.apply()));
	});
	plugin.registerEvent(app.workspace.on("editor-change", () => autoSync.edited()));
	plugin.addCommand({
		id: "resume-auto-sync",
		name: t("autoSyncResumeCommand"),
		checkCallback: (checking) => {
			if (!autoSync.stopped) return false;
			if (!checking) autoSync.resume();
			return true;
		},
	});
	plugin.register(() => autoSync.stop());
}
