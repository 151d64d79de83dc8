import { streamEnding } from "../../../../src/runner/stream/stream-ending";
import type { StreamEnd } from "../../../../src/runner/stream/stream-run";
import { manualTimers } from "../../../support/manual-timers";

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
