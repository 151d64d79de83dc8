import type { NoteBlock } from "./note";

/** Per note, its http fences that define variables: most notes have few or none, and a run asks once per block. */
const definersOf = new WeakMap<readonly NoteBlock[], readonly NoteBlock[]>();

function definers(note: readonly NoteBlock[]): readonly NoteBlock[] {
	let found = definersOf.get(note);
	if (!found) {
		found = note.filter((b) => b.kind === "http" && b.http.variables.length > 0);
		definersOf.set(note, found);
	}
	return found;
}

/**
 * The `@name = value` variables a block sees (docs/blocks.md): those of the http fences above it
 * in the note (a later definition wins, as in REST Client and httpyac files), then its own, which
 * win over them. Environment variables come after both: precedence block > file > environment.
 */
export function fileVariablesFor(note: readonly NoteBlock[], block: NoteBlock): Record<string, string> {
	const vars: Record<string, string> = {};
	for (const b of definers(note)) {
		if (b.fence.startLine > block.fence.startLine) break;
		if (b === block) continue;
		if (b.kind === "http") for (const v of b.http.variables) vars[v.name] = v.value;
	}
	if (block.kind === "http") for (const v of block.http.variables) vars[v.name] = v.value;
	return vars;
}

/** A fence of `@name = value` lines and no request: it is read, never run (run-all skips it). */
export function definesVariablesOnly(block: NoteBlock): boolean {
	return block.kind === "http" && block.http.requestLine === -1 && block.http.variables.length > 0;
}
