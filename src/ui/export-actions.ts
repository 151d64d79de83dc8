import { normalizePath, TFile, type App } from "obsidian";
import type { NoteBlock } from "../blocks";
import type { Preparation } from "../runner/prepare";
import { requestForFile } from "../runner/request";
import { exported, type Exported, type ExportRefusal } from "../runner/snippets/quote";
import type * as Generators from "../runner/snippets/generators";
import type { HttpFileEntry } from "../runner/snippets/generators";
import type { Prepared, SnippetOptions } from "../runner/kind-runner";

/**
 * The snippet generators, required on the first export (synchronously, inside the click or key
 * handler): main.js carries them as a text module (docs/architecture.md, "Text modules").
 */
function generators(): typeof Generators {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("../runner/snippets/generators") as typeof Generators;
}
import { locateBodyFile } from "../runner/file-parts";
import type { ExportHooks } from "./block-actions";
import { notify } from "./notify";
import { exportWhyKey, t } from "./strings";
import { httpFileLines, writeSnippet, type Engine, type EnginePorts } from "../runner/engine";

/** Why a block cannot be exported. An alias with no result yet is named with what to do: an export never runs a block. */
function whyNot(prepared: Extract<Preparation, { ok: false }>): string {
	const reason = prepared.error.message;
	return prepared.notRun.length > 0 ? t("exportRunFirst", { reason, aliases: prepared.notRun.join(", ") }) : reason;
}

/** Why a snippet was not written, in the user's language where the refusal is ours. */
function refusal(error: ExportRefusal): string {
	if (error.code === "format_not_offered") return t("exportFormatNotOffered", { kind: error.kind, formats: error.formats.join(", "), format: error.format });
	const key = exportWhyKey(error.why);
	return key ? t(key, error.vars) : error.message;
}

/**
 * Export to the clipboard. Everything up to `navigator.clipboard.writeText` is synchronous
 * (no await), so the write happens inside the click or key handler's user gesture. The request is
 * the one Run would send (`engine.prepare`), with the aliases' last results.
 */
export function exportHooks(engine: Pick<Engine, "prepare">, services: Pick<EnginePorts, "files">): ExportHooks {
	const write = (filePath: string, note: readonly NoteBlock[], block: NoteBlock, make: (prepared: Prepared, opts: SnippetOptions) => Exported, label: string): void => {
		// The clipboard gets the real values (a copied command must run); an unset secret says so.
		const prepared = engine.prepare(filePath, note, block);
		if (!prepared.ok) return notify(t("cannotExport", { reason: whyNot(prepared) }));
		const files = services.files?.();
		const locate = files?.locate ? (path: string) => locateBodyFile(files, filePath, path) : undefined;
		// The block's kind writes it (a stream's protocol and messages fill websocat, ws, curl -N, .http).
		const written = make(prepared, { locate });
		if (!written.ok) return notify(t("cannotExport", { reason: refusal(written.error) }));
		void navigator.clipboard.writeText(written.text).then(
			() => notify(t("copiedAs", { format: label })),
			(e: unknown) => notify(t("clipboardFailed", { reason: e instanceof Error ? e.message : String(e) })),
		);
	};
	return {
		copy: (filePath, note, block, format) => write(filePath, note, block, (prepared, opts) => writeSnippet(block, format, prepared, opts), format === "http" ? ".http" : format),
		sendAsCurl: (filePath, note, block) => write(filePath, note, block, ({ request }, opts) => exported(() => generators().toCurl(request, { ...opts, output: `${block.alias ?? "response"}.out` })), t("curlWithOutput")),
	};
}

/**
 * "Export note as .http": every runnable block of the note whose kind exports (http and the
 * streams: `engine.isExportable`), as Run would send it now, into `<note>.http` beside the note
 * (a stream in the peers' syntax). A fence of
 * `@name = value` lines only writes no request: its values are in the requests that use them
 * (docs/export.md). A block that cannot be resolved stops the export and is named.
 */
export async function exportNoteAsHttp(app: App, engine: Pick<Engine, "prepare" | "isRunnable" | "isExportable" | "readNoteFiles">, file: TFile, note: readonly NoteBlock[]): Promise<void> {
	// Writing a file needs no user gesture: the note's `.env` is read first, as a run reads it.
	await engine.readNoteFiles(file.path, note);
	const entries: Array<{ block: NoteBlock; prepared: Prepared }> = [];
	for (const block of note) {
		if (!engine.isExportable(block) || !engine.isRunnable(block)) continue;
		const prepared = engine.prepare(file.path, note, block);
		if (!prepared.ok) return notify(t("cannotExportLine", { line: block.fence.startLine + 1, reason: whyNot(prepared) }));
		// A file in the vault never holds a secret's value: it keeps the {{reference}}, in a stream's messages too (`forFile`).
		const forFile = { ...prepared, request: requestForFile(prepared.request) };
		entries.push({ block, prepared: forFile });
	}
	if (entries.length === 0) return notify(t("noHttpBlocksToExport"));
	// Each kind writes its request's lines (a stream in the peers' syntax); the file is the http writer's.
	const written = exported(() => generators().toHttpFile(entries.map(({ block, prepared }): HttpFileEntry => ({ request: prepared.request, name: block.alias, lines: httpFileLines(block, prepared, true) }))));
	if (!written.ok) return notify(t("cannotExport", { reason: refusal(written.error) }));
	const content = written.text;
	const path = normalizePath(file.path.replace(/\.md$/i, "") + ".http");
	const existing = app.vault.getAbstractFileByPath(path);
	if (existing instanceof TFile) await app.vault.modify(existing, content);
	else await app.vault.create(path, content);
	notify(t("exportedRequests", { count: entries.length, path }));
}
