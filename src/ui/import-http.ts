import { normalizePath, type App } from "obsidian";
import { httpFileToNote } from "../blocks";
import { notify } from "./notify";
import { t } from "./strings";

/** A vault path for a new note that no file holds yet: `name.md`, else `name 1.md`, … */
function freePath(app: App, folder: string, name: string): string {
	const dir = folder === "/" ? "" : `${folder}/`;
	const at = (n: number) => normalizePath(`${dir}${name}${n === 0 ? "" : ` ${n}`}.md`);
	let n = 0;
	while (app.vault.getAbstractFileByPath(at(n))) n++;
	return at(n);
}

/**
 * Command "Import .http file" (issue 14 point 4): the user picks a `.http`/`.rest` file; it
 * becomes a new note beside the active one (one http fence per request, as the CLI's `import`),
 * which then opens.
 */
export function importHttpFile(app: App): void {
	const input = createEl("input", { type: "file", attr: { accept: ".http,.rest" } });
	input.addEventListener("change", () => {
		const file = input.files?.[0];
		if (!file) return;
		void (async () => {
			try {
				const name = file.name.replace(/\.(http|rest)$/i, "");
				const folder = app.fileManager.getNewFileParent(app.workspace.getActiveFile()?.path ?? "").path;
				const note = await app.vault.create(freePath(app, folder, name), httpFileToNote(await file.text(), name));
				await app.workspace.getLeaf(false).openFile(note);
				notify(t("importedHttp", { name: file.name, path: note.path }));
			} catch (e) {
				notify(t("importHttpFailed", { name: file.name, reason: e instanceof Error ? e.message : String(e) }));
			}
		})();
	});
	input.click();
}
