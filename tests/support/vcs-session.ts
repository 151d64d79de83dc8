/**
 * A version-control session over a real repository of a git world (tests/support/git.ts), for the
 * panel's specs: the test's identity, no process probe, and a fixed clock for commit messages.
 */
import type { App } from "obsidian";
import { defaultIgnoreLines, GitRepository, VcsSession } from "../../src/vcs";
import { Keymap, Scope } from "../e2e/host/obsidian-shim";
import { eventually } from "../e2e/support/eventually";
import { vcsFs, type GitWorld } from "./git";

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
