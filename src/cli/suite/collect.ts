import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { parseNote } from "../../blocks";
import { isRunnable } from "../../runner/engine";
import { UsageError } from "../usage";
import { globBase, globToRegExp, isGlob } from "./glob";

/** Folders a walk never enters: Obsidian's config, packages, and every dot-folder (.git, .trash). */
function skipsFolder(name: string): boolean {
	return name.startsWith(".") || name === "node_modules";
}

/** True when a note has at least one block `run` would run. */
export function hasRunnableBlocks(text: string): boolean {
	// Cheap test first: a note without a fence is most of a vault.
	return text.includes("```") && parseNote(text).some(isRunnable);
}

/** Every file below `dir` that `keep` accepts (absolute paths), skipping the folders above. */
export function filesBelow(dir: string, keep: (name: string) => boolean): string[] {
	const found: string[] = [];
	const walk = (d: string) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			const path = join(d, entry.name);
			if (entry.isDirectory()) {
				if (!skipsFolder(entry.name)) walk(path);
			} else if (entry.isFile() && keep(entry.name)) found.push(path);
		}
	};
	walk(dir);
	return found;
}

const markdownBelow = (dir: string) => filesBelow(dir, (name) => name.endsWith(".md"));

/** The files a glob names (any extension), sorted; used for report files, which a shell may leave unexpanded. */
export function filesMatching(pattern: string, cwd: string): string[] {
	const posix = pattern.split(sep).join("/").replace(/^\.\//, "");
	const base = resolve(cwd, globBase(posix));
	const matcher = globToRegExp(resolve(cwd, posix).split(sep).join("/"));
	if (!(statSync(base, { throwIfNoEntry: false })?.isDirectory() ?? false)) return [];
	return filesBelow(base, () => true)
		.filter((abs) => matcher.test(abs.split(sep).join("/")))
		.sort(byPath);
}

/** A note's path as the suite names it: relative to the working folder, forward slashes (the same on every CI machine). */
export function suitePath(abs: string, cwd: string): string {
	const rel = relative(cwd, abs);
	return (rel === "" ? abs : rel).split(sep).join("/");
}

/**
 * The notes `run <folder or glob>…` runs, sorted by path (code-unit order, the same on every
 * machine and locale), each once. A named file is taken as it is (even without runnable
 * blocks: `run` says so); folders and globs yield the `.md` files below them that have a
 * runnable block, never inside dot-folders or node_modules. An argument that names nothing is
 * a usage error: a typo in a CI file must not pass as an empty suite.
 */
export function collectNotes(args: readonly string[], cwd: string): string[] {
	const notes = new Set<string>();
	/** Adds the note when it qualifies; says whether it did (a note named twice still counts for both). */
	const add = (abs: string, explicit: boolean): boolean => {
		if (!explicit && !hasRunnableBlocks(readFileSync(abs, "utf8"))) return false;
		notes.add(suitePath(abs, cwd));
		return true;
	};
	for (const arg of args) {
		let matched = 0;
		if (isGlob(arg)) {
			for (const abs of filesMatching(arg, cwd)) if (abs.endsWith(".md") && add(abs, false)) matched++;
			if (matched === 0) throw new UsageError(`${arg}: no note with runnable blocks matches`);
			continue;
		}
		const abs = resolve(cwd, arg);
		const stat = statSync(abs, { throwIfNoEntry: false });
		if (!stat) throw new UsageError(`${arg}: no such file or folder`);
		if (stat.isDirectory()) {
			for (const md of markdownBelow(abs)) if (add(md, false)) matched++;
			if (matched === 0) throw new UsageError(`${arg}: no note with runnable blocks in this folder`);
		} else add(abs, true);
	}
	return [...notes].sort(byPath);
}

/** Code-unit order: locale-independent, so every shard sorts alike. */
export function byPath(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
