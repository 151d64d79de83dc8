import { TFile, type App } from "obsidian";
import type * as Imports from "../runner/imports";
import type { NoteLinks } from "../runner/cross-note";
import type { Notes } from "./notes";
import { notify } from "./notify";
import { t } from "./strings";

/**
 * `[[Note]]` in references, as Obsidian resolves it (`metadataCache.getFirstLinkpathDest`, the
 * same rules as the note's own links), and the note's blocks through the Notes service (the open
 * editor's when it is open, so an unsaved edit is what runs).
 */
export function obsidianNoteLinks(app: App, notes: Notes): NoteLinks {
	return {
		resolve: (link, fromPath) => app.metadataCache.getFirstLinkpathDest(link, fromPath)?.path ?? null,
		blocks: async (path) => {
			if (!(app.vault.getAbstractFileByPath(path) instanceof TFile)) return null;
			// A `.http` file named by `# @import` is read as the import command reads it; a note through Notes (its open editor's text).
			if (!/\.(http|rest)$/i.test(path)) return notes.blocks(path);
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- a text module, read on first use
			return (require("../runner/imports") as typeof Imports).blocksOfFile(path, await notes.text(path));
		},
	};
}

/** Mod+Click on `{{[[Note]]#alias…}}`: opens the note (from the active one, as its links resolve) with the cursor on the block's fence. */
export async function openNoteAtAlias(app: App, notes: Notes, link: string, alias: string): Promise<void> {
	const file = app.metadataCache.getFirstLinkpathDest(link, app.workspace.getActiveFile()?.path ?? "");
	if (!file) return notify(t("crossNoteNotFound", { link: `[[${link}]]` }));
	const block = (await notes.blocks(file.path)).find((b) => b.alias === alias);
	await app.workspace.getLeaf(false).openFile(file, { eState: { line: block?.fence.startLine ?? 0 } });
}
