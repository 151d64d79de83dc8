import type { AssertionResult } from "../blocks/assertions";
import type { DbRun, DbRunErrorCode } from "./db/db-result";
import type { PreparedRequest } from "./request";
import type { FailureCode, ResponseHead, Timing, Transport } from "./transport";

/**
 * States of one block execution (docs/architecture.md):
 * idle → running → streaming → done; or cancelled / failed; or cached (served from cache).
 */
export type RunState = "idle" | "running" | "streaming" | "done" | "cached" | "cancelled" | "failed";

/** States a run ends in. */
export type FinalState = "done" | "cached" | "cancelled" | "failed";

/**
 * `setup_failed`: the run could not be prepared (transport, settings, secrets); nothing was sent.
 * `dependency_failed`: a block it references failed or was cancelled in the same run, so it was
 * skipped (one error per cause, not one per dependant).
 */
export type RunErrorCode =
	| FailureCode
	| "cancelled"
	| "timeout"
	| "unresolved_reference"
	| "invalid_block"
	| "dependency_cycle"
	| "dependency_failed"
	| "setup_failed"
	| "body_file_missing"
	| "body_file_outside"
	| DbRunErrorCode;

/** User-facing error: `message` uses the seed's exact texts (`[cancelled]`, `Request cancelled`, …). */
export interface RunError {
	code: RunErrorCode;
	message: string;
	detail?: string;
}

/** Everything known about a run at one moment; the panel renders it, the CLI prints it. */
export interface RunSnapshot {
	state: RunState;
	request?: PreparedRequest;
	/** Request head as written to the wire (Raw tab). */
	rawRequestHead?: string;
	head?: ResponseHead;
	/** Decoded bytes received so far (streaming) or in total. */
	receivedBytes: number;
	/** The complete body; only for done and cached runs (partial bytes are never kept). */
	body?: Uint8Array;
	timing?: Timing;
	requestBytes?: number;
	error?: RunError;
	/** Which transport ran it. */
	transport?: Transport["name"];
	/** A db block's run: connection, columns, rows, statements (docs/db.md). */
	db?: DbRun;
	/** Epoch ms of the start of the run. */
	startedAt?: number;
	/** For a run served from the cache: epoch ms when the cached response was fetched (its age). */
	cachedAt?: number;
}

/** A finished run, as kept for chaining and display. */
export interface BlockResult extends RunSnapshot {
	state: FinalState;
	/** The block's `??` assertions checked against the response (absent when it has none or got no response). */
	assertions?: AssertionResult[];
}

export const IDLE: RunSnapshot = { state: "idle", receivedBytes: 0 };
