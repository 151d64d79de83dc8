import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { comparablePin, compareTexts, pinnedFenceOf, unifiedDiff, writePin, type HttpNoteBlock, type NoteBlock } from "../blocks";
import { httpFields } from "../runner/http/http-run";
import { pinFor } from "../runner/response/pin-text";
import type { BlockRun } from "../runner/run-note";
import { colourLine } from "./commands/diff";
import { EXIT } from "./usage";

type Write = (s: string) => void;

/** A pinned block's unified diff (pin → this run's response); empty when they match. */
export interface PinDiff {
	block: NoteBlock;
	diff: string;
}

/** `--pin` rewrites the pins of the blocks run; `--check-pins` compares each run with its pin. */
export type PinMode = "pin" | "check";

export interface PinsInput {
	mode: PinMode;
	file: string;
	/** The note as it was read before the run: the pins are written into it, and only if the file still holds it. */
	text: string;
	runs: readonly BlockRun[];
	/** Masked in the pins as history masks them. */
	secrets: readonly string[];
	/** Where diffs go (stdout; stderr under --json, whose stdout is one JSON document). */
	diffOut: Write;
	colour: boolean;
}

/** The run of an http block that ended with a response, as a pin is written from. */
interface Answered {
	block: HttpNoteBlock;
	run: BlockRun;
}

function answered(r: BlockRun): boolean {
	const s = httpFields(r.result);
	return (s.state === "done" || s.state === "cached") && s.head !== undefined;
}

/** The pin text of a run under the options of the block's pinned fence in `text`. */
function freshPin(text: string, block: HttpNoteBlock, run: BlockRun, secrets: readonly string[]): string {
	const s = httpFields(run.result);
	return pinFor(text, block, { head: s.head!, body: s.body }, secrets);
}

/**
 * After `run --pin` or `run --check-pins`: the exit code the pins add (0 when they have nothing to
 * say). Only http blocks the run was asked for count, not the blocks run because they were referenced.
 */
export function settlePins(input: PinsInput, err: Write): { code: number; diffs: PinDiff[] } {
	const targets = input.runs.filter((r) => !r.dependency && r.block.kind === "http");
	if (input.mode === "pin") return { code: rewritePins(input, targets, err), diffs: [] };
	const diffs: PinDiff[] = [];
	return { code: checkPins(input, targets, err, diffs), diffs };
}

/**
 * Writes the pin of every target that got a response, bottom-up so the offsets of the blocks above
 * stay true. The note is replaced atomically (a new file renamed over it), and not at all when it
 * changed during the run: an editor's save is never overwritten.
 */
function rewritePins(input: PinsInput, targets: readonly BlockRun[], err: Write): number {
	const pins: Answered[] = [];
	for (const run of targets) {
		if (!answered(run)) err(`${input.file}: ${run.block.alias ?? `block ${run.block.index + 1}`}: not pinned, it ended ${run.result.state} without a response\n`);
		else pins.push({ block: run.block as HttpNoteBlock, run });
	}
	let text = input.text;
	let refused = false;
	let pinned = 0;
	for (const { block, run } of [...pins].sort((a, b) => b.block.fence.startLine - a.block.fence.startLine)) {
		const written = writePin(text, block, freshPin(text, block, run, input.secrets));
		if (written.ok) {
			text = written.text;
			pinned++;
		} else {
			refused = true;
			err(`${input.file}:${block.fence.startLine + 1}: not pinned: ${written.reason}\n`);
		}
	}
	if (text === input.text) return refused ? EXIT.failed : EXIT.ok;
	if (readFileSync(input.file, "utf8") !== input.text) {
		err(`${input.file}: the note changed during the run: no pin written (run again to pin)\n`);
		return EXIT.failed;
	}
	replaceFile(input.file, text);
	err(`${input.file}: pinned ${pinned === 1 ? "1 response" : `${pinned} responses`}\n`);
	return refused ? EXIT.failed : EXIT.ok;
}

/** Writes beside the file, then renames over it: a reader sees the old note or the new one, never half. */
function replaceFile(file: string, text: string): void {
	const temp = join(dirname(file), `.${basename(file)}.${process.pid}.pin`);
	try {
		writeFileSync(temp, text, { mode: statSync(file).mode });
		renameSync(temp, file);
	} finally {
		rmSync(temp, { force: true });
	}
}

/**
 * Compares each target that has a pin with its run: the unified diff of each that differs, exit 1
 * then. Each compared block's diff (empty when it matches) also goes into `diffs`, for the suite's report.
 */
function checkPins(input: PinsInput, targets: readonly BlockRun[], err: Write, diffs: PinDiff[]): number {
	let checked = 0;
	let changed = 0;
	for (const run of targets) {
		const block = run.block as HttpNoteBlock;
		const pin = pinnedFenceOf(input.text, block);
		if (!pin) continue;
		checked++;
		const label = block.alias ?? "";
		if (!answered(run)) {
			changed++;
			err(`${input.file}: ${label}: no response to compare with its pin (the run ended ${run.result.state})\n`);
			continue;
		}
		const comparison = compareTexts(comparablePin(pin.content), comparablePin(freshPin(input.text, block, run, input.secrets)));
		if (comparison.count.changes === 0) {
			diffs.push({ block, diff: "" });
			continue;
		}
		changed++;
		const diff = unifiedDiff(comparison.left, comparison.right, comparison.changes, { labelA: `${label} (pinned)`, labelB: `${label} (now)` });
		diffs.push({ block, diff });
		input.diffOut(input.colour ? diff.replace(/^.*$/gm, colourLine) : diff);
	}
	if (checked === 0) err(`${input.file}: no pinned response to check (pin one with run --pin)\n`);
	else err(`${input.file}: ${changed === 0 ? `${checked === 1 ? "the pinned response matches" : `all ${checked} pinned responses match`}` : `${changed} of ${checked} pinned ${checked === 1 ? "response" : "responses"} changed`}\n`);
	return changed === 0 ? EXIT.ok : EXIT.failed;
}
