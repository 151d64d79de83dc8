/**
 * For the version-control panel's specs: a session over a real repository of a git world
 * (tests/support/git.ts), apps for the shim's modals and for the panel's workspace, and the wait for git.
 */
import type { App } from "obsidian";
import { defaultIgnoreLines, GitRepository, VcsSession } from "../../src/vcs";
import { FileSystemAdapter, Keymap, Scope, WorkspaceLeaf, type ItemView, type TFile } from "../e2e/host/obsidian-shim";
import { eventually } from "../e2e/support/eventually";
import { eventsOver, type Handler } from "./fake-events";
import { vcsFs, type GitWorld } from "./git";

/** The session over `cwd`: the test's identity, no process probe, and a fixed clock for commit messages. */
export function sessionOver(world: GitWorld, cwd = world.vault): VcsSession {
	return new VcsSession({
		open: () => GitRepository.open(world.config(cwd), vcsFs),
		init: () => GitRepository.init(world.config(cwd), vcsFs, defaultIgnoreLines(".obsidian", ".obsidian/plugins/runnable-blocks/history.sqlite")),
		probe: () => Promise.resolve("unknown"),
		template: () => "Notes {date}: {notes}",
		now: () => new Date(2026, 10, 25, 10, 0),
	});
}

/** An app for the shim's modals: a root scope and the keymap that routes keys to the open modal's scope. */
export function modalApp(): App {
	const scope = new Scope();
	return { scope, keymap: new Keymap(scope) } as unknown as App;
}

/** Waits until the assertion holds: git runs as real processes on a machine that may be busy, so the bound is generous. */
export const until = (assertion: () => unknown): Promise<void> => eventually(assertion, 30_000);

/**
 * An app over a vault folder on disk, as far as the panel and its commands reach: the right
 * sidebar's leaves (views from `views`), the vault's and workspace's events (fired by the test),
 * the active note, links opened and leaves revealed, and the layout-ready callbacks.
 */
export function workspaceApp(basePath: string, views: Map<string, (leaf: WorkspaceLeaf) => ItemView>) {
	const scope = new Scope();
	const handlers = new Map<string, Handler[]>();
	const { on } = eventsOver(handlers);
	const leaves: WorkspaceLeaf[] = [];
	const seen = {
		opened: [] as string[],
		revealed: [] as WorkspaceLeaf[],
		layoutReady: [] as Array<() => void>,
		active: null as TFile | null,
		leaves,
		fire: (name: string, ...args: unknown[]) => handlers.get(name)?.forEach((f) => f(...args)),
	};
	const app = {
		scope,
		keymap: new Keymap(scope),
		vault: { adapter: new FileSystemAdapter(basePath), configDir: ".obsidian", on },
		workspace: {
			on,
			getLeavesOfType: (type: string) => leaves.filter((l) => l.view?.getViewType() === type),
			getRightLeaf: () => {
				const leaf = new WorkspaceLeaf(app, views, (gone) => leaves.splice(leaves.indexOf(gone), 1));
				leaves.push(leaf);
				return leaf;
			},
			revealLeaf: async (leaf: WorkspaceLeaf) => void seen.revealed.push(leaf),
			openLinkText: async (path: string) => void seen.opened.push(path),
			getActiveFile: () => seen.active,
			onLayoutReady: (f: () => void) => void seen.layoutReady.push(f),
		},
	};
	return Object.assign(seen, { app: app as unknown as App });
}
