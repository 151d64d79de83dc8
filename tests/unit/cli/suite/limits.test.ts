import { RunLimits } from "../../../../src/cli/suite/limits";
import type { Transport } from "../../../../src/runner/transport";
import type { PreparedRequest } from "../../../../src/runner/request";

const answered: Transport = {
	name: "node",
	streams: true,
	send: () => Promise.resolve({ kind: "done", head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: "http://127.0.0.1/", redirects: 0 }, body: new Uint8Array(), timing: { total: 1 }, requestBytes: 0, rawRequestHead: "" }),
};
const request = {} as PreparedRequest;

/** A timer the test fires by hand. */
function manualTimer() {
	const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
	return {
		timers,
		setTimer: (run: () => void, ms: number) => {
			const t = { run, ms, cleared: false };
			timers.push(t);
			return { clear: () => (t.cleared = true) };
		},
	};
}

describe("RunLimits", () => {
	it("sends up to --max-requests, then refuses without sending and stops new notes, cancelling nothing already sent", async () => {
		const limits = new RunLimits({ maxRequests: 2, bail: false });
		const guarded = limits.guard(answered);
		expect((await guarded.send(request)).kind).toBe("done");
		expect((await guarded.send(request)).kind).toBe("done");
		expect(limits.stopped).toBeNull();
		const refused = await guarded.send(request);
		expect(refused).toMatchObject({ kind: "failed", code: "request_failed", detail: "not sent: the run's limit of 2 requests (--max-requests) was reached" });
		expect(limits.requests).toBe(2);
		expect(limits.stopped).toBe("max-requests");
		expect(limits.signal.aborted).toBe(false);
	});

	it("shares one budget across every transport it guards (one per note)", async () => {
		const limits = new RunLimits({ maxRequests: 1, bail: false });
		await limits.guard(answered).send(request);
		expect((await limits.guard(answered).send(request)).kind).toBe("failed");
	});

	it("leaves the transport as it is without --max-requests", () => {
		expect(new RunLimits({ bail: false }).guard(answered)).toBe(answered);
	});

	it("stops and cancels at the deadline, and clears its timer on dispose", () => {
		const clock = manualTimer();
		const limits = new RunLimits({ deadlineMs: 5000, bail: false, setTimer: clock.setTimer });
		expect(clock.timers[0].ms).toBe(5000);
		expect(limits.stopped).toBeNull();
		clock.timers[0].run();
		expect(limits.stopped).toBe("deadline");
		expect(limits.signal.aborted).toBe(true);
		limits.dispose();
		expect(clock.timers[0].cleared).toBe(true);
	});

	it("with --bail, stops and cancels at the first block that did not pass; without, never", () => {
		const bail = new RunLimits({ bail: true });
		bail.blockEnded(true);
		expect(bail.stopped).toBeNull();
		bail.blockEnded(false);
		expect(bail.stopped).toBe("bail");
		expect(bail.signal.aborted).toBe(true);
		const keepGoing = new RunLimits({ bail: false });
		keepGoing.blockEnded(false);
		expect(keepGoing.stopped).toBeNull();
	});

	it("keeps the first reason: blocks the deadline cancelled are not a --bail", () => {
		const clock = manualTimer();
		const limits = new RunLimits({ deadlineMs: 1, bail: true, setTimer: clock.setTimer });
		clock.timers[0].run();
		limits.blockEnded(false);
		expect(limits.stopped).toBe("deadline");
	});
});
