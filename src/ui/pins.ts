import { TFile, type App } from "obsidian";
import { blockKey, comparablePin, pinnedFenceOf, writePin, type HttpNoteBlock, type NoteBlock } from "../blocks";
import type { Engine } from "../runner/engine";
import { httpFields, type HttpView } from "../runner/http/http-run";
import { pinFor } from "../runner/response/pin-text";
import type { BlockResult } from "../runner/result";
import type { Notes } from "./notes";
import { compareResponses } from "./diff/lazy-diff";
import { notify } from "./notify";
import { t } from "./strings";

/** What pinning needs from the plugin. */
export interface PinPorts {
	app: App;
	engine: Engine;
	notes: Notes;
	/** The values masked in a pin, as in history: the environment's secrets and the session's auth tokens. */
	secrets(): string[];
}

/** A run that ended with a response. */
function answered(run: HttpView): run is HttpView & Required<Pick<HttpView, "head">> {
	return (run.state === "done" || run.state === "cached") && run.head !== undefined;
}

/**
 * Writes a response as the pin of block `key` (docs/pins.md), through `vault.process` so the
 * note is read and written in one step: the block is found again in the text as it is then,
 * and a pin that cannot be written (no alias, an unclosed pin) leaves the note as it was.
 */
export async function pinResponse(ports: PinPorts, path: string, key: string, run: HttpView): Promise<void> {
	if (!answered(run)) return notify(t("pinNoResponse"));
	const file = ports.app.vault.getAbstractFileByPath(path);
	if (!(file instanceof TFile)) return notify(t("cannotPin", { reason: path }));
	let refused: string | null = null;
	await ports.app.vault.process(file, (text) => {
		const block = ports.notes.ofText(text).find((b) => blockKey(b) === key);
		if (block?.kind !== "http") {
			refused = t("blockGone", { key, path });
			return text;
		}
		const written = writePin(text, block, pinFor(text, block, { head: run.head, body: run.body }, ports.secrets()));
		if (written.ok) return written.text;
		refused = written.reason;
		return text;
	});
	if (refused !== null) notify(t("cannotPin", { reason: refused }));
}

/** The block's last response of the session. */
export function lastRun(engine: Engine, path: string, block: NoteBlock): HttpView {
	return httpFields(engine.sessions.note(path).snapshot(blockKey(block)));
}

/** "Compare with pinned": the pin and the last run as a pin would hold it, in the diff view, JSON normalised. */
export async function compareWithPinned(ports: PinPorts, path: string, block: HttpNoteBlock): Promise<void> {
	const run = lastRun(ports.engine, path, block);
	if (!answered(run)) return notify(t("pinNoResponse"));
	const text = await ports.notes.text(path);
	const current = ports.notes.ofText(text).find((b) => blockKey(b) === blockKey(block));
	const pin = current?.kind === "http" ? pinnedFenceOf(text, current) : null;
	if (!current || current.kind !== "http" || !pin) return notify(t("pinNotFound"));
	const left = comparablePin(pin.content);
	const right = comparablePin(pinFor(text, current, { head: run.head, body: run.body }, ports.secrets()));
	compareResponses().comparePinned(ports.app, t("comparePinTitle", { alias: current.alias ?? "" }), left, right);
}

/** Whether a finished run rewrites its block's pin: an http block with the `pin` token, a response, and no failed `??` assertion. */
export function pinsOnRun(block: NoteBlock, result: BlockResult): block is HttpNoteBlock {
	if (block.kind !== "http" || block.info.tokens.pin !== true) return false;
	const run = httpFields(result);
	return answered(run) && !(run.assertions ?? []).some((a) => !a.ok);
}

/**
 * The engine, with the `pin` token kept: every run of a block that has it (a target or a
 * dependency, from any button, chord or command) rewrites its pin when it succeeds.
 */
export function pinningEngine(engine: Engine, ports: Omit<PinPorts, "engine">): Engine {
	return {
		...engine,
		run: async (path, note, targets, opts) => {
			const runs = await engine.run(path, note, targets, opts);
			for (const r of runs) if (pinsOnRun(r.block, r.result)) await pinResponse({ ...ports, engine }, path, blockKey(r.block), httpFields(r.result));
			return runs;
		},
	};
}
