import { normalizePath, TFile, type App } from "obsidian";
import { parseNote, type NoteBlock } from "../blocks";
import { prepareRequest } from "../runner/prepare";
import { requestForFile } from "../runner/request";
import { exported } from "../runner/snippets/quote";
import { snippet, toCurl, toHttpFile, type HttpFileEntry, type SnippetFormat, type SnippetOptions } from "../runner/snippets/generators";
import { locateBodyFile } from "../runner/file-parts";
import type { ExportHooks } from "./block-actions";
import { notify } from "./notify";
import { t } from "./strings";
import type { Engine, EnginePorts } from "../runner/engine";

/** Aliases a block's references name: with no result yet, export says to run them first. */
function aliasesOf(block: NoteBlock): Set<string> {
	return new Set(block.references.filter((r) => r.kind === "alias").map((r) => r.inner.split(".")[0]));
}

/**
 * Export to the clipboard. Everything up to `navigator.clipboard.writeText` is synchronous
 * (no await), so the write happens inside the click or key handler's user gesture.
 */
export function exportHooks(runtime: Engine, services: Pick<EnginePorts, "environment" | "defaultTimeoutMs" | "files">): ExportHooks {
	const write = (filePath: string, block: NoteBlock, make: (req: Parameters<typeof toCurl>[0], opts: SnippetOptions) => string, label: string): void => {
		const session = runtime.sessions.note(filePath);
		const env = services.environment();
		// The clipboard gets the real values (a copied command must run); an unset secret says so.
		const prepared = prepareRequest(block, {
			env: env.variables,
			aliases: aliasesOf(block),
			result: (a) => session.get(a),
			defaultTimeoutMs: services.defaultTimeoutMs(),
			secretNames: new Set(env.secretNames),
			unsetSecrets: new Set(env.unsetSecretNames),
		});
		if (!prepared.ok) return notify(t("cannotExport", { reason: prepared.error.message }));
		const request = prepared.request;
		const files = services.files?.();
		const locate = files?.locate ? (path: string) => locateBodyFile(files, filePath, path) : undefined;
		const written = exported(() => make(request, { locate }));
		if (!written.ok) return notify(t("cannotExport", { reason: written.error.message }));
		void navigator.clipboard.writeText(written.text).then(
			() => notify(t("copiedAs", { format: label })),
			(e: unknown) => notify(t("clipboardFailed", { reason: e instanceof Error ? e.message : String(e) })),
		);
	};
	return {
		copy: (filePath, block, format: SnippetFormat) => write(filePath, block, (r, opts) => snippet(format, r, block.alias, opts), format === "http" ? ".http" : format),
		sendAsCurl: (filePath, block) => write(filePath, block, (r, opts) => toCurl(r, { ...opts, output: `${block.alias ?? "response"}.out` }), t("curlWithOutput")),
	};
}

/**
 * "Export note as .http": every http block of the note, references replaced by current values,
 * into `<note>.http` beside the note. A block that cannot be resolved stops the export and is named.
 */
export async function exportNoteAsHttp(app: App, runtime: Engine, services: Pick<EnginePorts, "environment" | "defaultTimeoutMs">, file: TFile, text: string): Promise<void> {
	const note = parseNote(text).filter((b) => b.kind === "http");
	const session = runtime.sessions.note(file.path);
	const aliases = new Set(note.filter((b) => b.alias !== null).map((b) => b.alias as string));
	const entries: HttpFileEntry[] = [];
	for (const block of note) {
		const env = services.environment();
		const prepared = prepareRequest(block, { env: env.variables, aliases, result: (a) => session.get(a), defaultTimeoutMs: services.defaultTimeoutMs(), secretNames: new Set(env.secretNames), unsetSecrets: new Set(env.unsetSecretNames) });
		if (!prepared.ok) return notify(t("cannotExportLine", { line: block.fence.startLine + 1, reason: prepared.error.message }));
		// A file in the vault never holds a secret's value: it keeps the {{reference}}.
		entries.push({ request: requestForFile(prepared.request), name: block.alias });
	}
	if (entries.length === 0) return notify(t("noHttpBlocksToExport"));
	const written = exported(() => toHttpFile(entries));
	if (!written.ok) return notify(t("cannotExport", { reason: written.error.message }));
	const content = written.text;
	const path = normalizePath(file.path.replace(/\.md$/i, "") + ".http");
	const existing = app.vault.getAbstractFileByPath(path);
	if (existing instanceof TFile) await app.vault.modify(existing, content);
	else await app.vault.create(path, content);
	notify(t("exportedRequests", { count: entries.length, path }));
}
