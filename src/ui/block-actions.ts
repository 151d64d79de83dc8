import { normalizePath, type App } from "obsidian";
import { blockKey, setInfoToken, setMethod, type HttpNoteBlock, type NoteBlock } from "../blocks";
import type { HttpView } from "../runner/http/http-run";
import type { Notes } from "./notes";
import type { PanelActions } from "./panel/response-panel";
import type { Engine } from "../runner/engine";
import { notify } from "./notify";
import { compareResponses } from "./diff/lazy-diff";
import { compareWithPinned, pinResponse, type PinPorts } from "./pins";
import { t } from "./strings";

/** Export hooks, provided by the export module; synchronous so the clipboard write keeps the user gesture. */
export interface ExportHooks {
	/** A block of a kind that exports (`engine.isExportable`), in one of its kind's formats (`snippetFormats`). */
	copy(filePath: string, note: readonly NoteBlock[], block: NoteBlock, format: string): void;
	sendAsCurl(filePath: string, note: readonly NoteBlock[], block: HttpNoteBlock): void;
}

/** Finds the current version of a block (by identity) in the note's latest blocks. */
export function currentBlock(note: readonly NoteBlock[], key: string): { note: readonly NoteBlock[]; block: NoteBlock | undefined } {
	return { note, block: note.find((b) => blockKey(b) === key) };
}

/**
 * The toolbar's actions for one block. Each re-reads the note, so an edited block runs as it is now.
 * `renderedNote`: the note the block was rendered from, which an export reads when no editor has the note.
 */
export function blockActions(app: App, runtime: Engine, notes: Notes, exporter: ExportHooks, filePath: string, rendered: NoteBlock, renderedNote: readonly NoteBlock[] = [rendered], secrets: () => string[] = () => []): PanelActions {
	const pins: PinPorts = { app, engine: runtime, notes, secrets };
	const key = blockKey(rendered);
	const withBlock = async (fn: (note: readonly NoteBlock[], block: NoteBlock) => Promise<void> | void): Promise<void> => {
		const { note, block } = currentBlock(await notes.blocks(filePath), key);
		if (!block) {
			notify(t("blockGone", { key, path: filePath }));
			return;
		}
		await fn(note, block);
	};
	// An export reads the note synchronously (the clipboard write must stay inside the click).
	const exportNow = (fn: (note: readonly NoteBlock[], block: NoteBlock) => void): void => {
		const now = notes.blocksNow(filePath);
		const { note, block } = now === null ? { note: renderedNote, block: rendered } : currentBlock(now, key);
		if (!block) return notify(t("blockGone", { key, path: filePath }));
		// Any kind that exports (http, the streams): its formats and their refusals are its own.
		if (!runtime.isExportable(block)) return notify(t("cannotExport", { reason: t("exportKindHasNone", { kind: block.kind }) }));
		fn(note, block);
	};
	return {
		run: (force) => void withBlock((note, block) => runtime.run(filePath, note, [block], { force }).then(() => undefined)),
		cancel: () => {
			runtime.sessions.note(filePath).cancel(key);
		},
		clearCache: () => runtime.cache.clear(),
		cookieJar: () => runtime.cookieJar(),
		clearCookies: () => {
			runtime.cookieJar().clear();
			notify(t("clearedCookies"));
		},
		authTokens: { current: (use) => runtime.auth.current(use.environment, use.name), onChange: (listener) => runtime.auth.onChange(listener), now: () => Date.now() },
		setMethod: (method) => void notes.edit(filePath, (text) => {
			const { block } = currentBlock(notes.ofText(text), key);
			return block ? setMethod(text, block, method) : null;
		}),
		setEditMode: (mode) => void notes.edit(filePath, (text) => {
			const { block } = currentBlock(notes.ofText(text), key);
			return block?.kind === "http" ? setInfoToken(text, block, "mode", mode === "raw" ? null : mode) : null;
		}),
		exportAs: (format) => exportNow((note, block) => exporter.copy(filePath, note, block, format)),
		// curl --output is an http download: another kind's block is refused by its own formats' rule.
		sendAsCurl: () => exportNow((note, block) => (block.kind === "http" ? exporter.sendAsCurl(filePath, note, block) : exporter.copy(filePath, note, block, "curl"))),
		listHistory: () => runtime.listHistory(filePath, rendered),
		saveBody: (snapshot: HttpView) => void saveBody(app, filePath, rendered, snapshot),
		compareWithPrevious: () => compareResponses().compareWithPrevious(app, runtime.sessions.note(filePath), key, rendered.alias ?? t("thisBlock")),
		compareWith: () =>
			void withBlock((note) => compareResponses().compareWithAlias(app, runtime.sessions.note(filePath), key, rendered.alias ?? t("thisBlock"), note.flatMap((b) => (b.alias ? [b.alias] : [])))),
		pinResponse: (snapshot) => void pinResponse(pins, filePath, key, snapshot),
		compareWithPinned: () => void withBlock((_, block) => (block.kind === "http" ? compareWithPinned(pins, filePath, block) : undefined)),
	};
}

async function saveBody(app: App, filePath: string, block: NoteBlock, snapshot: HttpView): Promise<void> {
	if (!snapshot.body) return;
	const folder = filePath.includes("/") ? filePath.slice(0, filePath.lastIndexOf("/")) : "";
	const type = snapshot.head?.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
	const ext = /json/.test(type) ? "json" : /xml|svg/.test(type) ? "xml" : /html/.test(type) ? "html" : /png/.test(type) ? "png" : /jpe?g/.test(type) ? "jpg" : /text/.test(type) ? "txt" : "bin";
	const base = `${block.alias ?? "response"}-${new Date().toISOString().replace(/[:.]/g, "-")}.${ext}`;
	const path = normalizePath(folder ? `${folder}/${base}` : base);
	await app.vault.createBinary(path, snapshot.body.slice().buffer);
	notify(t("savedBody", { path }));
}
