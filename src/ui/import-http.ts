import { normalizePath, type App } from "obsidian";
import { httpFileToNote } from "../blocks";
import { jetbrainsAuthImport, writeAuthImport, type AuthImport, type ImportedAuth } from "../settings/jetbrains-auth";
import { noteNameOf, sortPickedFiles, type PickedFile, type PickedFileProblem } from "../settings/picked-import-files";
import { TomlPatchError } from "../settings/toml-patch";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
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
 * Command "Import .http file" (issue 14 point 4, issue 26): the user picks `.http`/`.rest` files
 * and JetBrains' env files together (a picker sees only what is picked, not the files beside it).
 * Each `.http` file becomes a new note beside the active one (one http fence per request, as the
 * CLI's `import`), and the first opens; the env files' auth configurations are added to user.toml.
 * One notice says what was done. Loaded on first use (esbuild.config.mjs, `TEXT_MODULES`).
 */
export function importHttpFile(app: App, store: SettingsStore): void {
	const input = createEl("input", { type: "file", attr: { accept: ".http,.rest,.json", multiple: "" } });
	input.addEventListener("change", () => {
		const files = [...(input.files ?? [])];
		if (files.length > 0) void importPicked(app, store, files);
	});
	input.click();
}

/** The port the picker feeds: named files with their text, as a test can hand them too. */
export async function importPicked(app: App, store: SettingsStore, files: readonly File[]): Promise<void> {
	const read: PickedFile[] = [];
	const lines: string[] = [];
	for (const f of files) {
		try {
			read.push({ name: f.name, text: await f.text() });
		} catch (e) {
			lines.push(t("importHttpFailed", { name: f.name, reason: reasonOf(e) }));
		}
	}
	const picked = sortPickedFiles(read);
	let opened = false;
	for (const file of picked.httpFiles) {
		try {
			const name = noteNameOf(file.name);
			const folder = app.fileManager.getNewFileParent(app.workspace.getActiveFile()?.path ?? "").path;
			const note = await app.vault.create(freePath(app, folder, name), httpFileToNote(file.text, name));
			if (!opened) await app.workspace.getLeaf(false).openFile(note);
			opened = true;
			lines.push(t("importedHttp", { name: file.name, path: note.path }));
		} catch (e) {
			lines.push(t("importHttpFailed", { name: file.name, reason: reasonOf(e) }));
		}
	}
	lines.push(...picked.problems.map(problemText));
	if (picked.publicEnv || picked.privateEnv) lines.push(...(await importAuth(store, jetbrainsAuthImport(picked.publicEnv?.json, picked.privateEnv?.json))));
	if (lines.length > 0) notify(lines.join("\n"), 15000);
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

function problemText(p: PickedFileProblem): string {
	switch (p.code) {
		case "unsupported":
			return t("importFileUnsupported", { name: p.file });
		case "not_json":
			return t("importFileNotJson", { name: p.file, reason: p.detail });
		case "second_env":
			return t("importFileSecondEnv", { name: p.file, first: p.first });
	}
}

const tableOf = (c: { env: string; name: string }) => `[environments.${c.env}.auth.${c.name}]`;

/**
 * Adds the configurations to user.toml through the store's patch (comments and order kept; a file
 * that does not parse is never rewritten, and the store says so), and says what happened.
 */
async function importAuth(store: SettingsStore, imported: AuthImport): Promise<string[]> {
	const lines: string[] = [];
	if (imported.configs.length > 0) {
		let result: { written: ImportedAuth[]; kept: ImportedAuth[] } | null = null;
		const saved = await store.patch((text) => {
			const w = writeAuthImport(text, imported);
			if (!w.ok) throw new TomlPatchError(w.message);
			result = w;
			return w.text;
		});
		const done = saved ? (result as { written: ImportedAuth[]; kept: ImportedAuth[] } | null) : null;
		if (!done) lines.push(t("importAuthNotWritten", { path: store.path }));
		else {
			if (done.written.length > 0) lines.push(t("importAuthAdded", { path: store.path, tables: done.written.map(tableOf).join(", ") }));
			if (done.kept.length > 0) lines.push(t("importAuthKept", { tables: done.kept.map(tableOf).join(", ") }));
			const secrets = imported.secrets.filter((s) => done.written.some((c) => c.env === s.env && c.name === s.name));
			if (secrets.length > 0) lines.push(t("importAuthSecrets", { ids: secrets.map((s) => s.id).join(", ") }));
		}
	} else lines.push(t("importAuthNone"));
	if (imported.notes.length > 0) lines.push(t("importAuthNotes"), ...imported.notes.map((n) => `${n.env}.${n.name}${n.key ? ` "${n.key}"` : ""}: ${n.message}`));
	return lines;
}
