import { parseNote, type NoteBlock } from "./note";

/** Blocks of recently parsed note texts, for readers without an editor state (Reading view, commands). */
export interface NoteCache {
	/** The blocks of `text`: parsed once while the text is among the last few asked for. */
	blocksOf(text: string): readonly NoteBlock[];
}

/**
 * A cache keyed by the note's text. Reading view renders each block of a note from the same
 * section text, so one parse serves them all; a few entries cover notes open side by side.
 */
export function createNoteCache(size = 4): NoteCache {
	const entries: Array<{ text: string; blocks: readonly NoteBlock[] }> = [];
	return {
		blocksOf(text) {
			const at = entries.findIndex((e) => e.text === text);
			const entry = at >= 0 ? entries.splice(at, 1)[0] : { text, blocks: parseNote(text) };
			entries.unshift(entry);
			if (entries.length > size) entries.pop();
			return entry.blocks;
		},
	};
}
