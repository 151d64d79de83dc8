import { streamEnding, type Timers } from "../../../../src/runner/stream/stream-ending";
import type { StreamEnd } from "../../../../src/runner/stream/stream-run";

/** Timers moved by hand: `advance(ms)` fires what is due, in order. */
function manualTimers(): Timers & { advance(ms: number): void } {
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
	};
}

function ending(rules: Parameters<typeof streamEnding>[0]) {
	const timers = manualTimers();
	const ends: Array<[StreamEnd, string]> = [];
	const e = streamEnding(rules, (why, phase) => ends.push([why, phase]), timers);
	return { e, timers, ends };
}

describe("streamEnding", () => {
	it("timeout bounds the handshake", () => {
		const { timers, ends } = ending({ timeoutMs: 100 });
		timers.advance(99);
		expect(ends).toEqual([]);
		timers.advance(1);
		expect(ends).toEqual([["timeout", "connecting"]]);
	});

	it("timeout bounds each silence once open, not the whole stream", () => {
		const { e, timers, ends } = ending({ timeoutMs: 100 });
		e.opened();
		for (let k = 1; k <= 5; k++) {
			timers.advance(90);
			e.received(k);
		}
		expect(ends).toEqual([]);
		timers.advance(100);
		expect(ends).toEqual([["timeout", "open"]]);
	});

	it("duration ends it however busy, from the handshake", () => {
		const { e, timers, ends } = ending({ timeoutMs: 100, durationMs: 250 });
		timers.advance(50);
		e.opened();
		for (let k = 1; k <= 4; k++) {
			timers.advance(60);
			e.received(k);
		}
		expect(ends).toEqual([]);
		timers.advance(10);
		expect(ends).toEqual([["duration", "open"]]);
	});

	it("max_messages ends it at the Nth message; the first reason wins, once", () => {
		const { e, timers, ends } = ending({ timeoutMs: 100, maxMessages: 2 });
		e.opened();
		e.received(1);
		e.received(2);
		e.end("cancelled");
		timers.advance(1000);
		expect(ends).toEqual([["max_messages", "open"]]);
		expect(e.state).toEqual({ phase: "ended", why: "max_messages" });
	});
});
