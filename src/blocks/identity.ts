import type { NoteBlock } from "./note";

/**
 * Identity of a block within a note that survives edits of its text: the alias when it has
 * one, otherwise its position among the note's runnable blocks (`#0`, `#1`…). Sessions, views,
 * the editor's widgets and the CLI all key a block's run by it.
 */
export function blockKey(block: Pick<NoteBlock, "alias" | "index" | "runnable">): string {
	return block.alias !== null && block.runnable ? `@${block.alias}` : `#${block.index}`;
}

/** History key of a block: its alias, or `#L<fence line>` (1-based) without one. */
export function historyAlias(block: Pick<NoteBlock, "alias" | "fence">): string {
	return block.alias ?? `#L${block.fence.startLine + 1}`;
}
