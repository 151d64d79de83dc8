import type { StreamEnd } from "./stream-run";

/** The block's ending rules (info tokens): `timeout=` bounds the handshake and each silence, `duration=` the whole, `max_messages=` the count. */
export interface EndingRules {
	timeoutMs: number;
	durationMs?: number;
	maxMessages?: number;
}

/** Timers, injected so that tests move time themselves. */
export interface Timers {
	set(fn: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

export const SYSTEM_TIMERS: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/** Where a stream is: connecting (the handshake), open, or ended (once, for one reason). */
export type EndingState = { phase: "connecting" } | { phase: "open" } | { phase: "ended"; why: StreamEnd };

export interface StreamEnding {
	readonly state: EndingState;
	/** The handshake answered: the silence timer restarts and `duration=` starts. */
	opened(): void;
	/** A message arrived from the server (`received`: how many so far). */
	received(received: number): void;
	/** Ends it for a reason of the caller's (server close, Stop, the cap); the first reason wins. */
	end(why: StreamEnd): void;
}

/**
 * The ending rules of one stream as a small state machine: each rule ends it once, the first
 * wins, and `onEnd` is called exactly once. Whatever arrived before stays with the run.
 */
export function streamEnding(rules: EndingRules, onEnd: (why: StreamEnd, phase: "connecting" | "open") => void, timers: Timers = SYSTEM_TIMERS): StreamEnding {
	let state: EndingState = { phase: "connecting" };
	let silence: unknown = timers.set(() => end("timeout"), rules.timeoutMs);
	let whole: unknown = null;
	const stopTimers = () => {
		timers.clear(silence);
		if (whole !== null) timers.clear(whole);
	};
	function end(why: StreamEnd): void {
		if (state.phase === "ended") return;
		const phase = state.phase;
		state = { phase: "ended", why };
		stopTimers();
		onEnd(why, phase);
	}
	const quietAgain = () => {
		timers.clear(silence);
		silence = timers.set(() => end("timeout"), rules.timeoutMs);
	};
	return {
		get state() {
			return state;
		},
		opened() {
			if (state.phase !== "connecting") return;
			state = { phase: "open" };
			quietAgain();
			if (rules.durationMs !== undefined) whole = timers.set(() => end("duration"), rules.durationMs);
		},
		received(received) {
			if (state.phase === "ended") return;
			if (rules.maxMessages !== undefined && received >= rules.maxMessages) end("max_messages");
			else quietAgain();
		},
		end,
	};
}
