import { parseMemoryDirective, type PollDirective } from "../../../src/blocks";
import type { HttpResult } from "../../../src/runner/http/http-run";
import type { BlockRunContext } from "../../../src/runner/kind-runner";
import { isBusy } from "../../../src/runner/busy";
import { attemptMet, InvalidPollTransition, nextPollPhase, pollBlock, pollRefusal, timerSleeper, type PollPhase, type PollProgress, type Sleeper } from "../../../src/runner/poll";
import type { BlockResult, RunSnapshot } from "../../../src/runner/result";
import { NoteSession } from "../../../src/runner/session";

function pollOf(text: string): PollDirective {
	const found = parseMemoryDirective(text, 0, 0);
	if (found?.kind !== "poll") throw new Error(`not a poll: ${text}`);
	return found.directive;
}

/** A finished http attempt: its status, and whether its one assertion passed (null: the block has none). */
function answer(status: number, assertion: boolean | null = null, durationMs = 7): HttpResult {
	return {
		kind: "http",
		state: "done",
		startedAt: 1,
		receivedBytes: 0,
		timing: { total: durationMs },
		head: { status, statusText: "", httpVersion: "1.1", headers: [], url: "http://x.test/", redirects: 0 },
		...(assertion === null ? {} : { assertions: [{ line: 4, text: "status == 200", ok: assertion, actual: String(status) }] }),
	};
}

/** A clock that only moves when a wait passes, and a sleeper that records its waits. */
function fakeTime(onSleep: (ms: number, signal: AbortSignal | undefined) => boolean = () => true) {
	let now = 1_000;
	const waits: number[] = [];
	const sleep: Sleeper = async (ms, signal) => {
		waits.push(ms);
		const passed = onSleep(ms, signal) && !signal?.aborted;
		if (passed) now += ms;
		return passed;
	};
	return { deps: { now: () => now, sleep }, waits };
}

function context(signal?: AbortSignal) {
	const snapshots: RunSnapshot[] = [];
	const forced: Array<boolean | undefined> = [];
	const ctx = {
		prepare: {},
		deps: {},
		execute: { filePath: "n.md", historyAlias: "q", signal, onUpdate: (s: RunSnapshot) => snapshots.push(s) },
	} as unknown as BlockRunContext;
	return { ctx, snapshots, forced };
}

/** Attempts answering in turn; each publishes one running snapshot first, as the executor does. */
function attempts(forced: Array<boolean | undefined>, ...results: BlockResult[]) {
	let calls = 0;
	const attempt = async (c: BlockRunContext): Promise<BlockResult> => {
		forced.push(c.execute.force);
		c.execute.onUpdate?.({ kind: "http", state: "running", receivedBytes: 0 });
		return results[Math.min(calls++, results.length - 1)];
	};
	return { attempt, calls: () => calls };
}

describe("the poll's phases", () => {
	it.each([
		["attempting", "met", "passed"],
		["attempting", "unmet", "waiting"],
		["attempting", "unmet_last", "exhausted"],
		["attempting", "unsent", "ended"],
		["attempting", "cancelled", "stopped"],
		["waiting", "wait_over", "attempting"],
		["waiting", "stop", "stopped"],
	] as const)("%s --%s--> %s", (from, event, to) => expect(nextPollPhase(from, event)).toBe(to));

	it.each([
		["waiting", "met"],
		["attempting", "wait_over"],
		["passed", "unmet"],
		["stopped", "wait_over"],
	] as const)("%s cannot take %s: a bug of ours, thrown", (from, event) => {
		expect(() => nextPollPhase(from as PollPhase, event)).toThrow(InvalidPollTransition);
	});
});

describe("when an attempt is enough", () => {
	const setupFailed: BlockResult = { state: "failed", error: { code: "setup_failed", message: "x" } };
	it.each([
		[answer(503, true), true],
		[answer(200, false), false],
		[answer(200), true],
		[answer(204), true],
		[answer(503), false],
		[answer(301), false],
		[setupFailed, false],
	])("%#", (result: BlockResult, met) => expect(attemptMet(result)).toBe(met));
});

describe("pollBlock", () => {
	it("re-runs until the assertions pass: ready on the 4th attempt is exactly 4 attempts and 3 waits of `every`", async () => {
		const { ctx, snapshots, forced } = context();
		const { attempt, calls } = attempts(forced, answer(503, false, 5), answer(503, false, 6), answer(503, false, 7), answer(200, true, 8));
		const time = fakeTime();
		const result = await pollBlock(pollOf("@poll every=50ms max=20"), "GET", ctx, attempt, time.deps);
		expect(calls()).toBe(4);
		expect(time.waits).toEqual([50, 50, 50]);
		expect(forced).toEqual([true, true, true, true]);
		expect(result.state).toBe("done");
		expect(result.poll).toEqual({
			phase: "passed",
			attempt: 4,
			max: 20,
			everyMs: 50,
			attempts: [
				{ status: 503, durationMs: 5, state: "done", met: false },
				{ status: 503, durationMs: 6, state: "done", met: false },
				{ status: 503, durationMs: 7, state: "done", met: false },
				{ status: 200, durationMs: 8, state: "done", met: true },
			],
		});
		// Every snapshot says which attempt it belongs to; between attempts the last one waits, with its next time.
		const phases = snapshots.map((s) => `${s.state}:${s.poll?.phase}:${s.poll?.attempt}`);
		expect(phases).toEqual(["running:attempting:1", "done:waiting:1", "running:attempting:2", "done:waiting:2", "running:attempting:3", "done:waiting:3", "running:attempting:4"]);
		expect(snapshots[1].poll?.nextAt).toBe(1_000 + 50);
		expect(isBusy(snapshots[1])).toBe(true);
		expect(isBusy(result)).toBe(false);
	});

	it("stops after max attempts, the last one's result kept, and sets no properties", async () => {
		const { ctx, forced } = context();
		const failing = { ...answer(503, false), properties: { ok: true as const, values: { p: 1 } } };
		const { attempt, calls } = attempts(forced, failing);
		const time = fakeTime();
		const result = await pollBlock(pollOf("@poll every=1s max=3"), "GET", ctx, attempt, time.deps);
		expect(calls()).toBe(3);
		expect(time.waits).toEqual([1000, 1000]);
		expect(result.poll).toMatchObject({ phase: "exhausted", attempt: 3, max: 3 });
		expect(result.properties).toBeUndefined();
		expect((result as HttpResult).assertions?.[0].ok).toBe(false);
	});

	it("keeps the properties of the attempt that passed", async () => {
		const { ctx, forced } = context();
		const { attempt } = attempts(forced, { ...answer(200, true), properties: { ok: true, values: { p: 1 } } });
		const result = await pollBlock(pollOf("@poll"), "GET", ctx, attempt, fakeTime().deps);
		expect(result.properties).toEqual({ ok: true, values: { p: 1 } });
	});

	it("Stop during the wait ends the poll at once: no further attempt", async () => {
		const stop = new AbortController();
		const { ctx, forced } = context(stop.signal);
		const { attempt, calls } = attempts(forced, answer(503, false));
		const time = fakeTime(() => {
			stop.abort();
			return false;
		});
		const result = await pollBlock(pollOf("@poll every=5s max=20"), "GET", ctx, attempt, time.deps);
		expect(calls()).toBe(1);
		expect(result.poll).toMatchObject({ phase: "stopped", attempt: 1 });
		expect(result.poll?.nextAt).toBeUndefined();
	});

	it("Stop during an attempt ends the poll with that attempt", async () => {
		const stop = new AbortController();
		const { ctx } = context(stop.signal);
		const attempt = async (): Promise<BlockResult> => {
			stop.abort();
			return { kind: "http", state: "cancelled", startedAt: 1, receivedBytes: 0, error: { code: "cancelled", message: "[cancelled]" } };
		};
		const result = await pollBlock(pollOf("@poll"), "GET", ctx, attempt, fakeTime().deps);
		expect(result).toMatchObject({ state: "cancelled", poll: { phase: "stopped", attempt: 1 } });
	});

	it("retries a failed request (a server not up yet), but ends on an attempt that sent nothing", async () => {
		const { ctx, forced } = context();
		const refused: BlockResult = { kind: "http", state: "failed", startedAt: 1, receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect" } };
		const { attempt, calls } = attempts(forced, refused, answer(200, true));
		expect((await pollBlock(pollOf("@poll every=10ms"), "GET", ctx, attempt, fakeTime().deps)).poll).toMatchObject({ phase: "passed", attempt: 2 });
		expect(calls()).toBe(2);

		const unresolved = attempts(forced, { state: "failed", error: { code: "unresolved_reference", message: "Unresolved reference {{x}}" } });
		const ended = await pollBlock(pollOf("@poll"), "GET", context().ctx, unresolved.attempt, fakeTime().deps);
		expect(unresolved.calls()).toBe(1);
		expect(ended).toMatchObject({ state: "failed", error: { code: "unresolved_reference" }, poll: { phase: "ended", attempt: 1 } });
	});

	it.each(["POST", "PUT", "PATCH", "DELETE", "GRAPHQL"])("refuses %s without unsafe before anything is sent, saying why", async (method) => {
		const { ctx, forced } = context();
		const { attempt, calls } = attempts(forced, answer(200, true));
		const result = await pollBlock(pollOf("@poll every=2s max=5"), method, ctx, attempt, fakeTime().deps);
		expect(calls()).toBe(0);
		expect(result).toEqual({
			state: "failed",
			error: {
				code: "poll_unsafe",
				message: `@poll does not repeat ${method} without unsafe: each attempt would send it again`,
				detail: "Nothing was sent. Write # @poll every=2s max=5 unsafe if the server may receive it up to 5 times.",
			},
		});
	});

	it("repeats a POST with unsafe", async () => {
		const { ctx, forced } = context();
		const { attempt, calls } = attempts(forced, answer(202, false), answer(200, true));
		expect((await pollBlock(pollOf("@poll every=10ms unsafe"), "POST", ctx, attempt, fakeTime().deps)).poll?.phase).toBe("passed");
		expect(calls()).toBe(2);
		expect(pollRefusal("GET", pollOf("@poll"))).toBeNull();
	});
});

describe("the session while a poll waits", () => {
	it("counts the waiting block as running, and Stop reaches it", () => {
		const session = new NoteSession();
		const c = session.begin("k");
		const waiting: PollProgress = { phase: "waiting", attempt: 1, max: 3, everyMs: 50, attempts: [], nextAt: 2 };
		session.update("k", { ...answer(503, false), poll: waiting });
		expect(session.isRunning("k")).toBe(true);
		expect(session.cancel("k")).toBe(true);
		expect(c.signal.aborted).toBe(true);
	});
});

describe("timerSleeper", () => {
	it("answers false at once for an aborted signal, and on abort during the wait", async () => {
		const stop = new AbortController();
		stop.abort();
		await expect(timerSleeper(60_000, stop.signal)).resolves.toBe(false);
		const later = new AbortController();
		const waiting = timerSleeper(60_000, later.signal);
		later.abort();
		await expect(waiting).resolves.toBe(false);
	});

	it("answers true once the time passed", async () => {
		await expect(timerSleeper(1, undefined)).resolves.toBe(true);
	});
});
