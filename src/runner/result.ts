import type { PollProgress, PropertyWrites } from "./note-memory";

/**
 * States of one block execution (docs/architecture.md):
 * idle → running → streaming → done; or cancelled / failed; or cached (served from cache).
 */
export type RunState = "idle" | "running" | "streaming" | "done" | "cached" | "cancelled" | "failed";

/** States a run ends in. */
export type FinalState = "done" | "cached" | "cancelled" | "failed";

/**
 * Codes any kind's run can end with. `setup_failed`: the run could not be prepared (transport,
 * settings, secrets); nothing was sent. `dependency_failed`: a block it references failed or was
 * cancelled in the same run, so it was skipped (one error per cause, not one per dependant).
 * `poll_unsafe`: `# @poll` on a method that changes the server, without `unsafe`; nothing was sent.
 * `prompt_not_answered`: a `# @prompt` or `# @note` no one could answer (the CLI without a terminal); nothing was sent.
 */
export type CommonErrorCode = "poll_unsafe" | "cancelled" | "timeout" | "unresolved_reference" | "invalid_block" | "dependency_cycle" | "dependency_failed" | "setup_failed" | "prompt_not_answered";

/**
 * The open registries of the block kinds. Each kind's own module adds its entry with
 * `declare module "<path>/result"`, so this file names no kind and a new kind touches none of
 * the shared types: its run (`KindRuns`), its error codes, what its runner needs from the host
 * (`KindDeps`), and what a caller may ask of one target's run (`KindOptions`).
 */
/* eslint-disable @typescript-eslint/no-empty-object-type -- empty here: each kind fills them by declaration merging */
export interface KindRuns {}
export interface KindErrorCodes {}
export interface KindDeps {}
export interface KindOptions {}
/* eslint-enable @typescript-eslint/no-empty-object-type -- the registries end here */

export type RunErrorCode = CommonErrorCode | KindErrorCodes[keyof KindErrorCodes];

/** User-facing error: `message` uses the exact texts the docs name (`[cancelled]`, `Request cancelled`, …). */
export interface RunError {
	code: RunErrorCode;
	message: string;
	detail?: string;
}

/** What every run has, whatever its kind. */
export interface RunCommon {
	/** What a successful run's `# @property` directives set in the note's front matter, or why nothing is set. */
	properties?: PropertyWrites;
	/** A `# @poll` block's attempts: attempt k of n, its phase, each attempt's status and duration. */
	poll?: PollProgress;
	state: RunState;
	error?: RunError;
	/** Epoch ms of the start of the run. */
	startedAt?: number;
	/** Milliseconds from the start; a kind may measure more phases. */
	timing?: { total: number };
}

/** A run of no kind yet: idle, or one that ended before its kind's runner started (a cycle, a failed dependency, a cancel). */
export interface BareRun extends RunCommon {
	kind?: undefined;
}

/** A run of one kind, as its runner reports it: `kind` names it, the rest is the kind's own. */
export type KindRun = KindRuns[keyof KindRuns];

/** Everything known about a run at one moment; the panel renders it, the CLI prints it. */
export type RunSnapshot = BareRun | KindRun;

/** A finished run, as kept for chaining and display. */
export type BlockResult = RunSnapshot & { state: FinalState };

export const IDLE: RunSnapshot = { state: "idle" };

/** A result for a block that could not start (a cycle, a failed dependency, a kind with no runner): state failed, nothing sent. */
export function failedBeforeStart(error: RunError): BlockResult {
	return { state: "failed", error };
}
