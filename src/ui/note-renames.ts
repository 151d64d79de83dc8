import { TFile, type App } from "obsidian";
import { linkNamesPath, noteLinkSpans } from "../blocks";
import type { Notes } from "./notes";

/**
 * Obsidian's link updater rewrites `[[links]]` on a rename, but never inside code: its index has no
 * links from fenced blocks. So a `{{[[Auth]]#login.…}}` would break when Auth.md is renamed or
 * moved; this rewrites it. Only the link inside each reference changes (through `vault.process`,
 * atomic), and only where the link named the old path and no longer names any note, so a link
 * that still resolves (another note of the old name) is left as written.
 */
export async function rewriteNoteReferences(app: App, notes: Notes, file: TFile, oldPath: string): Promise<number> {
	let changed = 0;
	for (const source of app.vault.getMarkdownFiles()) {
		const text = await app.vault.cachedRead(source);
		if (!text.includes("{{[[")) continue;
		const stale = (link: string) => linkNamesPath(link, source.path, oldPath) && app.metadataCache.getFirstLinkpathDest(link, source.path) === null;
		if (!noteLinkSpans(notes.ofText(text)).some((s) => stale(s.link))) continue;
		const linkText = app.metadataCache.fileToLinktext(file, source.path, true);
		await app.vault.process(source, (current) => {
			// Spans of the text as it is now (it may have changed since the read), last first so earlier offsets hold.
			let out = current;
			for (const s of noteLinkSpans(notes.ofText(current)).reverse()) {
				if (!stale(s.link)) continue;
				out = out.slice(0, s.from) + linkText + out.slice(s.to);
				changed++;
			}
			return out;
		});
	}
	return changed;
}

/** Whether a rename concerns notes (a folder's notes arrive one event each). */
export const isNote = (file: unknown): file is TFile => file instanceof TFile && file.path.endsWith(".md");
