/**
 * Timers moved by hand, for modules that take a `Timers` port (the stream ending rules): nothing
 * fires until `advance(ms)`, which fires what is due, in order. `now()` is the same clock, for
 * modules that also take a clock, so timings can be asserted exactly.
 */
import type { Timers } from "../../src/runner/stream/stream-ending";

export function manualTimers(): Timers & { advance(ms: number): void; now: () => number; pending: () => number } {
	let now = 0;
	let next = 0;
	const due = new Map<number, { at: number; fn: () => void }>();
	return {
		set(fn, ms) {
			due.set(++next, { at: now + ms, fn });
			return next;
		},
		clear(h) {
			due.delete(h as number);
		},
		advance(ms) {
			const until = now + ms;
			for (;;) {
				const first = [...due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
				if (!first) break;
				due.delete(first[0]);
				now = first[1].at;
				first[1].fn();
			}
			now = until;
		},
		now: () => now,
		pending: () => due.size,
	};
}
