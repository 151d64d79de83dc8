import { readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, posix, sep } from "node:path";
import { blocksOfFile } from "../blocks/imports";
import type { NoteLinks } from "../runner/cross-note";

/** Folders Obsidian does not index (its config, git's) and one it would, but a vault's tooling fills. */
const SKIPPED = (name: string) => name.startsWith(".") || name === "node_modules";

/**
 * `[[Note]]` in the CLI, as Obsidian resolves a link (`getFirstLinkpathDest`), with the vault's
 * files in place of its index: a `./` or `../` link from the note's folder; a note of that name
 * (or path) in the note's own folder; a vault path; else the note of that name (or path ending) anywhere,
 * the shortest path first, then by name. Names compare case-insensitively, as Obsidian's do; a
 * link without an extension means `.md`. Outside a vault, links are paths from the note's folder.
 * `root`: the vault, or null; paths in and out are vault paths (absolute outside a vault).
 */
export function vaultNoteLinks(root: string | null): NoteLinks {
	let notes: string[] | null = null;
	const all = () => (notes ??= root === null ? [] : listNotes(root, ""));
	const abs = (path: string) => (root === null || isAbsolute(path) ? path : join(root, ...path.split("/")));
	return {
		resolve(link, fromPath) {
			const wanted = /\.md$/i.test(link) ? link : `${link}.md`;
			const folder = posix.dirname(fromPath.split(sep).join("/"));
			if (root === null) return isFile(posix.join(folder, wanted)) ? posix.join(folder, wanted) : null;
			const byPath = new Map(all().map((p) => [p.toLowerCase(), p]));
			if (wanted.startsWith("./") || wanted.startsWith("../")) return byPath.get(posix.join(folder, wanted).toLowerCase()) ?? null;
			const exact = byPath.get(posix.join(folder, wanted).toLowerCase()) ?? byPath.get(posix.normalize(wanted).toLowerCase());
			if (exact) return exact;
			const ending = `/${wanted.toLowerCase()}`;
			const found = all().filter((p) => `/${p.toLowerCase()}`.endsWith(ending));
			found.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
			return found[0] ?? null;
		},
		// A note, or a `.http` file named by `# @import`.
		blocks(path) {
			try {
				return Promise.resolve(blocksOfFile(path, readFileSync(abs(path), "utf8")));
			} catch {
				return Promise.resolve(null);
			}
		},
	};
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** Every `.md` file under `dir` of the vault, as vault paths. */
function listNotes(root: string, dir: string): string[] {
	const out: string[] = [];
	let entries;
	try {
		entries = readdirSync(dir === "" ? root : join(root, dir), { withFileTypes: true });
	} catch {
		return out;
	}
	for (const e of entries) {
		if (SKIPPED(e.name)) continue;
		const path = dir === "" ? e.name : `${dir}/${e.name}`;
		if (e.isDirectory()) out.push(...listNotes(root, path));
		else if (e.isFile() && /\.md$/i.test(e.name)) out.push(path);
	}
	return out;
}
