import { TFile, type App } from "obsidian";
import type { NotePropertiesPort } from "../runner/engine";
import { notify } from "./notify";
import { t } from "./strings";

/**
 * The notes' front matter in the plugin: read from Obsidian's metadata cache, written through
 * `processFrontMatter` (it creates front matter where a note has none, keeps the other
 * properties, and Obsidian's YAML keeps each value's type). A write that fails says so.
 */
export function obsidianNoteProperties(app: App): NotePropertiesPort {
	return {
		read(filePath) {
			const file = app.vault.getAbstractFileByPath(filePath);
			if (!(file instanceof TFile)) return undefined;
			const front = app.metadataCache.getFileCache(file)?.frontmatter;
			return front ? { ...front } : {};
		},
		async write(filePath, values) {
			const file = app.vault.getAbstractFileByPath(filePath);
			if (!(file instanceof TFile)) return notify(t("propertiesNotWritten", { note: filePath, reason: t("propertiesNoNote") }));
			try {
				await app.fileManager.processFrontMatter(file, (front: Record<string, unknown>) => {
					for (const [name, value] of Object.entries(values)) front[name] = value;
				});
			} catch (e) {
				notify(t("propertiesNotWritten", { note: filePath, reason: e instanceof Error ? e.message : String(e) }));
			}
		},
	};
}
