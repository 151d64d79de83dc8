import { SAFE_METHODS, type PollDirective } from "../blocks";
import type { HttpRun } from "./http/http-run";
import type { BlockRunContext } from "./kind-runner";
import { runSucceeded } from "./note-properties";
import type { PollAttempt, PollPhase, PollProgress, Sleeper } from "./note-memory";
import type { BlockResult, RunError, RunSnapshot } from "./result";

/**
 * `# @poll every= max= [unsafe]` (docs/note-memory.md): the block re-runs until its `??`
 * assertions pass (without any: until a 2xx response), `max` attempts were made, or Stop.
 * Each attempt is an ordinary run (its own states, its own history row, never the cache);
 * between them the poll waits, abortably, on an injected sleeper. Its phases are a state
 * machine of their own, moved only by `nextPollPhase`.
 */
export type { PollAttempt, PollPhase, PollProgress, Sleeper } from "./note-memory";

/** What can happen to a poll: how an attempt ended, the wait ending, Stop during the wait. */
export type PollEvent = "met" | "unmet" | "unmet_last" | "unsent" | "cancelled" | "wait_over" | "stop";

const TRANSITIONS: Record<PollPhase, Partial<Record<PollEvent, PollPhase>>> = {
	// An attempt that sent nothing (an unresolved reference, an invalid block) would fail the same way again: the poll ends.
	attempting: { met: "passed", unmet: "waiting", unmet_last: "exhausted", unsent: "ended", cancelled: "stopped" },
	waiting: { wait_over: "attempting", stop: "stopped" },
	passed: {},
	exhausted: {},
	stopped: {},
	ended: {},
};

export class InvalidPollTransition extends Error {
	constructor(
		readonly from: PollPhase,
		readonly event: PollEvent,
	) {
		super(`Invalid poll transition: ${event} in phase ${from}`);
	}
}

export function nextPollPhase(from: PollPhase, event: PollEvent): PollPhase {
	const to = TRANSITIONS[from][event];
	if (to === undefined) throw new InvalidPollTransition(from, event);
	return to;
}

export function isPollOver(phase: PollPhase): boolean {
	return phase === "passed" || phase === "exhausted" || phase === "stopped" || phase === "ended";
}

/** The sleeper of a real run: a timer, cleared on abort. */
export const timerSleeper: Sleeper = (ms, signal) =>
	new Promise((resolve) => {
		if (signal?.aborted) return resolve(false);
		const onAbort = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve(true);
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});

/** Why a poll may not start: a method that changes the server, without `unsafe`. Null when it may. */
export function pollRefusal(method: string | null, poll: PollDirective): RunError | null {
	if (poll.unsafe || method === null || SAFE_METHODS.has(method)) return null;
	return {
		code: "poll_unsafe",
		message: `@poll does not repeat ${method} without unsafe: each attempt would send it again`,
		detail: `Nothing was sent. Write # @poll every=${formatEvery(poll.everyMs)} max=${poll.max} unsafe if the server may receive it up to ${poll.max} times.`,
	};
}

function formatEvery(ms: number): string {
	return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function statusOf(result: BlockResult): number | null {
	return result.kind === "http" ? ((result as HttpRun).head?.status ?? null) : null;
}

/** Whether an attempt ends the poll as passed: its assertions all pass; without any, a 2xx response. */
export function attemptMet(result: BlockResult): boolean {
	if (!runSucceeded(result)) return false;
	if (result.kind === "http" && ((result as HttpRun).assertions?.length ?? 0) > 0) return true;
	const status = statusOf(result);
	return status !== null && status >= 200 && status < 300;
}

/** What a poll needs besides the block's run: the clock and the sleeper (tests inject both). */
export interface PollDeps {
	now: () => number;
	sleep: Sleeper;
}

/**
 * Runs `attempt` until the poll is over; resolves with the last attempt's result, its
 * `poll` progress attached. A poll that did not pass sets no properties: only a
 * successful end changes the note.
 */
export async function pollBlock(poll: PollDirective, method: string | null, ctx: BlockRunContext, attempt: (ctx: BlockRunContext) => Promise<BlockResult>, deps: PollDeps): Promise<BlockResult> {
	const refused = pollRefusal(method, poll);
	if (refused) return { state: "failed", error: refused };
	const signal = ctx.execute.signal;
	const attempts: PollAttempt[] = [];
	let progress: PollProgress = { phase: "attempting", attempt: 1, max: poll.max, everyMs: poll.everyMs, attempts };
	const publish = (s: RunSnapshot) => ctx.execute.onUpdate?.({ ...s, poll: progress });
	for (;;) {
		const startedAt = deps.now();
		// Every attempt goes to the server: a cached answer would never change.
		const result = await attempt({ ...ctx, execute: { ...ctx.execute, force: true, onUpdate: publish } });
		const met = attemptMet(result);
		attempts.push({ status: statusOf(result), durationMs: result.timing?.total ?? deps.now() - startedAt, state: result.state, met });
		const event: PollEvent = signal?.aborted ? "cancelled" : result.state === "failed" && result.startedAt === undefined ? "unsent" : met ? "met" : progress.attempt >= poll.max ? "unmet_last" : "unmet";
		progress = { ...progress, attempts: [...attempts], phase: nextPollPhase(progress.phase, event) };
		if (progress.phase === "waiting") {
			progress = { ...progress, nextAt: deps.now() + poll.everyMs };
			publish(result);
			const waited = await deps.sleep(poll.everyMs, signal);
			progress = { ...progress, nextAt: undefined, phase: nextPollPhase(progress.phase, waited && !signal?.aborted ? "wait_over" : "stop") };
		}
		if (isPollOver(progress.phase)) {
			const { properties, ...rest } = result;
			return { ...(progress.phase === "passed" && properties ? { ...rest, properties } : rest), poll: progress };
		}
		progress = { ...progress, attempt: progress.attempt + 1 };
	}
}
