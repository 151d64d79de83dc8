import { historyAlias, noteAliasLabel, parseNoteAliasPath, type AliasPath, type Lookup, type NoteBlock } from "../blocks";
import { failedError } from "./failures";
import type { ImportedNeeds } from "./imports";
import { failedBeforeStart, type BlockResult } from "./result";

/**
 * `{{[[Auth]]#login.…}}`: how a block reads, and first runs, an aliased block of another note.
 * The other note's results live in its own session (keyed by its path), so its panels show the
 * run and a later reference reads it without running it again; it runs with its own file
 * variables and the active environment, as if Run had been pressed there.
 */

/**
 * How the engine reaches other notes: the plugin through Obsidian's link resolution and its
 * Notes service (src/ui/note-links.ts), the CLI through the vault's files (src/cli/note-links.ts).
 */
export interface NoteLinks {
	/** The vault path of the note a wiki-link names, seen from the note at `fromPath` (Obsidian's rules); null when none. */
	resolve(link: string, fromPath: string): string | null;
	/** The blocks of a note, or of a `.http`/`.rest` file a `# @import` names (`blocksOfFile`); null when it cannot be read. */
	blocks(path: string): Promise<readonly NoteBlock[] | null>;
}

/** What a block's `{{[[Note]]#alias.…}}` read while it is prepared (synchronously): the other notes' kept results. */
export interface OtherNotes {
	read(link: string, path: AliasPath): Lookup;
}

type Results = (path: string) => { get(alias: string): BlockResult | undefined };
type Read = (result: BlockResult, path: AliasPath) => Lookup;

/** The other-note reader of the note at `fromPath`. */
export function otherNotes(links: NoteLinks, fromPath: string, results: Results, read: Read): OtherNotes {
	return {
		read(link, path) {
			const label = noteAliasLabel(link, path.alias);
			const target = links.resolve(link, fromPath);
			if (target === null) return { ok: false, message: `Unresolved reference ${label}: ${noNote(link)}` };
			const result = results(target).get(path.alias);
			if (!result) return { ok: false, message: `Unresolved reference ${label}: the block has not run yet` };
			const found = read(result, path);
			return found.ok ? found : { ok: false, message: `Unresolved reference ${label}: ${found.message}` };
		},
	};
}

/** A kept result worth reading; a failed or cancelled one is run again (the server may be back). */
const usable = (result: BlockResult | undefined): boolean => result !== undefined && result.state !== "failed" && result.state !== "cancelled";

const noNote = (link: string) => `no note "${link}" in the vault`;

/** The other notes' aliases a block references, each once, in the order written. */
export function noteDependencies(block: NoteBlock): Array<{ link: string; alias: string }> {
	const seen = new Map<string, { link: string; alias: string }>();
	for (const r of block.references) {
		if (r.kind !== "note") continue;
		const parsed = parseNoteAliasPath(r.inner);
		if (parsed) seen.set(`${parsed.link}\n${parsed.path.alias}`, { link: parsed.link, alias: parsed.path.alias });
	}
	return [...seen.values()];
}

/** A block named in a cycle's chain: its note path without `.md`, then `#` and its alias. */
export const chainLabel = (path: string, block: NoteBlock): string => `${path.replace(/\.md$/i, "")}#${block.alias ?? historyAlias(block)}`;

export interface CrossNoteRun {
	links: NoteLinks;
	fromPath: string;
	/** The blocks whose runs wait on this one, across notes, outermost first (`chainLabel`): naming one of them is a cycle. */
	chain: readonly string[];
	results: Results;
	/** Runs `block` of the note at `path` as a dependency, with that note's variables; `chain` goes to its own references. */
	run(path: string, note: readonly NoteBlock[], block: NoteBlock, chain: readonly string[]): Promise<BlockResult>;
	/** Runs of other notes' blocks under way in this engine, by `path#alias`: two blocks that need the same one wait for one run. */
	inFlight: Map<string, Promise<BlockResult>>;
	/** The imported files' blocks a block's plain references need (`# @import`, imports.ts); absent: none. */
	imported?: (block: NoteBlock) => Promise<ImportedNeeds>;
}

/**
 * Before a block runs: each other note's block it references that has no result yet is run
 * first, once. Returns the block's own result when it cannot run (a note or alias that does not
 * exist, a cycle, a dependency that failed), else null. `stack` is the in-note chain that led to
 * the block (run-note.ts), so a cycle names every hop.
 */
export function crossNoteDependencies(r: CrossNoteRun): (block: NoteBlock, stack: readonly NoteBlock[]) => Promise<BlockResult | null> {
	return async (block, stack) => {
		const needs: Array<{ path: string; alias: string; label: string }> = [];
		for (const { link, alias } of noteDependencies(block)) {
			const label = noteAliasLabel(link, alias);
			const path = r.links.resolve(link, r.fromPath);
			if (path === null) return failedBeforeStart({ code: "unresolved_reference", message: `Unresolved reference ${label}: ${noNote(link)}` });
			needs.push({ path, alias, label });
		}
		const imported = (await r.imported?.(block)) ?? { ok: true, needs: [] };
		if (!imported.ok) return failedBeforeStart({ code: "unresolved_reference", message: imported.message });
		needs.push(...imported.needs);
		for (const { path, alias, label } of needs) {
			if (usable(r.results(path).get(alias))) continue;
			const key = `${path}#${alias}`;
			const here = [...r.chain, ...stack.map((b) => chainLabel(r.fromPath, b)), chainLabel(r.fromPath, block)];
			const target = `${path.replace(/\.md$/i, "")}#${alias}`;
			if (here.includes(target)) return failedBeforeStart(failedError("dependency_cycle", undefined, [...here.slice(here.indexOf(target)), target].join(" → ")));
			let running = r.inFlight.get(key);
			if (!running) {
				// Kept in flight from the first look on, so a second block that needs it waits for this one.
				running = runOther(r, path, alias, label, here).finally(() => r.inFlight.delete(key));
				r.inFlight.set(key, running);
			}
			const result = await running;
			if (result.kind === undefined && result.error?.code === "unresolved_reference") return result;
			if (result.state === "failed" || result.state === "cancelled") {
				// A cycle found further on is this block's cycle too: it names the whole chain.
				if (result.error?.code === "dependency_cycle") return failedBeforeStart(result.error);
				return failedBeforeStart(failedError("dependency_failed", undefined, `${label}, which ${result.state === "cancelled" ? "was cancelled" : "failed"}`));
			}
		}
		return null;
	};
}

/** Reads the other note and runs its block; a note that cannot be read or lacks the alias is the referring block's `unresolved_reference`. */
async function runOther(r: CrossNoteRun, path: string, alias: string, label: string, chain: readonly string[]): Promise<BlockResult> {
	const note = await r.links.blocks(path);
	if (note === null) return failedBeforeStart({ code: "unresolved_reference", message: `Unresolved reference ${label}: the note ${path} cannot be read` });
	// The first runnable block with the alias, as prepare.ts's aliasBlocks picks (not imported: prepare.ts reads this module's types).
	const dep = note.find((b) => b.alias === alias && b.runnable);
	if (!dep) return failedBeforeStart({ code: "unresolved_reference", message: `Unresolved reference ${label}: ${path} has no block with alias "${alias}"` });
	return r.run(path, note, dep, chain);
}
