import { parseAliasPath, type AliasPath, type Lookup, type NoteBlock } from "../blocks";
import { importLabel, importTarget, noteImports, type ImportDirective } from "../blocks/imports";
import type { BlockResult } from "./result";

// What the editor and the note-links ports read of the block side, through this text module.
export { blocksOfFile, importTarget, isHttpFile, noteImports } from "../blocks/imports";

/**
 * `# @import ./Auth.http`: a plain `{{login.…}}` that no block of the note defines reads the
 * imported file's `login` block, run first when needed exactly as a `{{[[Auth]]#login.…}}`
 * reference runs it (cross-note.ts does the running). Precedence: the note's own alias, then the
 * imports; an alias that two imported files define is an error naming both.
 */

/** An imported file's block a reference needs: its file's vault path, its alias, and how messages and chains name it. */
export interface ImportedAlias {
	path: string;
	alias: string;
	label: string;
}

/** What a block needs from the imports: the blocks to run first, or why it cannot run. */
export type ImportedNeeds = { ok: true; needs: ImportedAlias[] } | { ok: false; message: string };

/** Reads a file's blocks (the note-links port's `blocks`): null when there is no such file or it cannot be read. */
type ReadBlocks = (path: string) => Promise<readonly NoteBlock[] | null>;
type Results = (path: string) => { get(alias: string): BlockResult | undefined };
type Read = (result: BlockResult, path: AliasPath) => Lookup;

const labelOf = (d: ImportDirective, alias: string) => `${d.written}#${alias}`;
const ambiguous = (alias: string, a: { path: string; directive: ImportDirective }, b: { path: string; directive: ImportDirective }) =>
	`Alias "${alias}" is defined by two imported files, ${a.path} (${importLabel(a.directive)}) and ${b.path} (${importLabel(b.directive)}): rename one of the two blocks`;

/** The aliases a block's plain references name that the note does not define: the ones imports may hold. */
export function foreignAliases(block: NoteBlock, local: ReadonlySet<string>): string[] {
	const names = new Set<string>();
	for (const r of block.references) {
		if (r.kind !== "alias") continue;
		const alias = parseAliasPath(r.inner)?.alias;
		if (alias !== undefined && !local.has(alias)) names.add(alias);
	}
	return [...names];
}

/** The note's import directives read once; each file at most once (the peers repeat the line per request). */
function targets(directives: readonly ImportDirective[], fromPath: string): { files: Array<{ path: string; directive: ImportDirective }>; problems: string[] } {
	const files: Array<{ path: string; directive: ImportDirective }> = [];
	const problems: string[] = [];
	for (const directive of directives) {
		const target = importTarget(directive.written, fromPath);
		if (!target.ok) problems.push(`Cannot import (${importLabel(directive)}): ${target.why}`);
		else if (target.path !== fromPath && !files.some((f) => f.path === target.path)) files.push({ path: target.path, directive });
	}
	return { files, problems };
}

/**
 * Before a block of the note at `fromPath` runs: which imported blocks its references need. The
 * imported files are read once per run, on the first block that needs them; a file that cannot be
 * read fails the blocks that look there, at its directive's line and column.
 */
export function importedNeeds(readBlocks: ReadBlocks, fromPath: string, note: readonly NoteBlock[], local: ReadonlySet<string>): (block: NoteBlock) => Promise<ImportedNeeds> {
	const directives = noteImports(note);
	let table: Promise<{ byAlias: Map<string, Array<{ path: string; directive: ImportDirective }>>; problems: string[] }> | null = null;
	const load = async () => {
		const { files, problems } = targets(directives, fromPath);
		const byAlias = new Map<string, Array<{ path: string; directive: ImportDirective }>>();
		for (const file of files) {
			const blocks = await readBlocks(file.path);
			if (blocks === null) {
				problems.push(`Cannot import (${importLabel(file.directive)}): no file ${file.path} in the vault`);
				continue;
			}
			for (const b of blocks) {
				if (b.alias === null || !b.runnable) continue;
				const defined = byAlias.get(b.alias) ?? [];
				if (!defined.some((d) => d.path === file.path)) byAlias.set(b.alias, [...defined, file]);
			}
		}
		return { byAlias, problems };
	};
	return async (block) => {
		const wanted = directives.length === 0 ? [] : foreignAliases(block, local);
		if (wanted.length === 0) return { ok: true, needs: [] };
		const { byAlias, problems } = await (table ??= load());
		const needs: ImportedAlias[] = [];
		for (const alias of wanted) {
			const defined = byAlias.get(alias) ?? [];
			if (defined.length > 1) return { ok: false, message: ambiguous(alias, defined[0], defined[1]) };
			// Not found while a file could not be read: the alias may be in that file, so the import is the error.
			if (defined.length === 0 && problems.length > 0) return { ok: false, message: problems[0] };
			if (defined.length === 1) needs.push({ path: defined[0].path, alias, label: labelOf(defined[0].directive, alias) });
		}
		return { ok: true, needs };
	};
}

/** How a plain reference reads an imported block's kept result while a block is prepared (synchronously: export too). */
export interface ImportedResults {
	/** Undefined when no imported file has a result for the alias (then the reference is not theirs). */
	read(path: AliasPath): Lookup | undefined;
}

/** The imported-result reader of the note at `fromPath`: the kept results of the files its directives name. */
export function importedResults(note: readonly NoteBlock[], fromPath: string, results: Results, read: Read): ImportedResults {
	const { files } = targets(noteImports(note), fromPath);
	return {
		read(path) {
			const found = files.filter((f) => results(f.path).get(path.alias) !== undefined);
			if (found.length === 0) return undefined;
			const reference = `{{${path.alias}.${path.part}.${path.section}${path.selector ? `.${path.selector}` : ""}}}`;
			if (found.length > 1) return { ok: false, message: `Unresolved reference ${reference}: ${ambiguous(path.alias, found[0], found[1])}` };
			const value = read(results(found[0].path).get(path.alias) as BlockResult, path);
			return value.ok ? value : { ok: false, message: `Unresolved reference ${reference} (${labelOf(found[0].directive, path.alias)}): ${value.message}` };
		},
	};
}
