import { TFile, type App } from "obsidian";
import type { NoteLinks } from "../runner/cross-note";
import type { Notes } from "./notes";

/**
 * `[[Note]]` in references, as Obsidian resolves it (`metadataCache.getFirstLinkpathDest`, the
 * same rules as the note's own links), and the note's blocks through the Notes service (the open
 * editor's when it is open, so an unsaved edit is what runs).
 */
export function obsidianNoteLinks(app: App, notes: Notes): NoteLinks {
	return {
		resolve: (link, fromPath) => app.metadataCache.getFirstLinkpathDest(link, fromPath)?.path ?? null,
		blocks: async (path) => (app.vault.getAbstractFileByPath(path) instanceof TFile ? notes.blocks(path) : null),
	};
}
