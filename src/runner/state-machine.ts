import type { RunState } from "./result";

/** What can happen to a run. */
export type RunEvent = "start" | "cache_hit" | "headers" | "chunk" | "complete" | "cancel" | "timeout" | "fail";

/**
 * The execution state machine of docs/architecture.md. A final state can be left
 * only by starting again. Anything not listed is a programming error.
 */
const TRANSITIONS: Record<RunState, Partial<Record<RunEvent, RunState>>> = {
	idle: { start: "running", cache_hit: "cached", fail: "failed" },
	running: { headers: "streaming", complete: "done", cancel: "cancelled", timeout: "cancelled", fail: "failed" },
	streaming: { chunk: "streaming", complete: "done", cancel: "cancelled", timeout: "cancelled", fail: "failed" },
	done: { start: "running", cache_hit: "cached", fail: "failed" },
	cached: { start: "running", cache_hit: "cached", fail: "failed" },
	cancelled: { start: "running", cache_hit: "cached", fail: "failed" },
	failed: { start: "running", cache_hit: "cached", fail: "failed" },
};

export class InvalidTransition extends Error {
	constructor(
		readonly from: RunState,
		readonly event: RunEvent,
	) {
		super(`Invalid run transition: ${event} in state ${from}`);
	}
}

export function nextState(from: RunState, event: RunEvent): RunState {
	const to = TRANSITIONS[from][event];
	if (to === undefined) throw new InvalidTransition(from, event);
	return to;
}

export function isFinal(state: RunState): boolean {
	return state === "done" || state === "cached" || state === "cancelled" || state === "failed";
}

export function isActive(state: RunState): boolean {
	return state === "running" || state === "streaming";
}
