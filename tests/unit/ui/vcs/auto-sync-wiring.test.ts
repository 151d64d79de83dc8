import { AutoSync, type AutoSyncState } from "../../../../src/vcs/auto-sync";
import { AutoSyncWiring, autoSyncStatus } from "../../../../src/ui/vcs/auto-sync-wiring";

/** A clock the test moves, with the timers it fires. */
function fakeClock() {
	let now = 1_000_000;
	let timers: { at: number; f: () => void }[] = [];
	return {
		now: () => now,
		timer: (f: () => void, ms: number) => {
			const entry = { at: now + ms, f };
			timers.push(entry);
			return () => (timers = timers.filter((x) => x !== entry));
		},
		async advance(ms: number) {
			now += ms;
			for (const due of timers.filter((x) => x.at <= now)) {
				timers = timers.filter((x) => x !== due);
				due.f();
			}
			await new Promise((r) => setImmediate(r));
		},
	};
}

type SessionLike = ConstructorParameters<typeof AutoSync>[0]["session"];

function fakeSession(fail = false) {
	const calls: unknown[] = [];
	const state = { kind: "ready", busy: false, snapshot: { operation: null }, conflicts: [], problem: null as null | { message: string; detail?: string } };
	const session = {
		get state() {
			return state;
		},
		sync: async (o: unknown) => {
			calls.push(o);
			if (fail) state.problem = { message: "push rejected" };
		},
	} as unknown as SessionLike;
	return { session, calls };
}

function setup(minutes: { value: number }, fail = false) {
	const clock = fakeClock();
	const { session, calls } = fakeSession(fail);
	const shown: (AutoSyncState | null)[] = [];
	let made = 0;
	const wiring = new AutoSyncWiring({
		minutes: () => minutes.value,
		make: (intervalMs) => {
			made++;
			return new AutoSync({ session, intervalMs, now: clock.now, timer: clock.timer });
		},
		show: (s) => shown.push(s),
	});
	return { clock, calls, shown, wiring, made: () => made };
}

describe("AutoSyncWiring", () => {
	it("makes nothing while the key is 0", () => {
		const t = setup({ value: 0 });
		t.wiring.apply();
		expect(t.made()).toBe(0);
	});

	it("syncs after the interval with the auto-sync safety point", async () => {
		const t = setup({ value: 2 });
		t.wiring.apply();
		await t.clock.advance(119_000);
		expect(t.calls).toEqual([]);
		await t.clock.advance(1_000);
		expect(t.calls).toEqual([{ safety: "auto-sync", holdIf: expect.any(Function) as unknown }]);
		expect(t.shown.at(-1)).toMatchObject({ kind: "waiting" });
	});

	it("holds a due sync while a note is being typed in", async () => {
		const t = setup({ value: 1 });
		t.wiring.apply();
		await t.clock.advance(58_000);
		t.wiring.edited();
		await t.clock.advance(2_000);
		expect(t.calls).toEqual([]);
		expect(t.shown.at(-1)).toMatchObject({ kind: "held", why: "typing" });
		await t.clock.advance(3_000);
		expect(t.calls).toHaveLength(1);
	});

	it("restarts when the interval changes and stops at 0", async () => {
		const minutes = { value: 1 };
		const t = setup(minutes);
		t.wiring.apply();
		t.wiring.apply();
		expect(t.made()).toBe(1);
		minutes.value = 5;
		t.wiring.apply();
		expect(t.made()).toBe(2);
		await t.clock.advance(60_000);
		expect(t.calls).toEqual([]);
		minutes.value = 0;
		t.wiring.apply();
		expect(t.shown.at(-1)).toBeNull();
		await t.clock.advance(300_000);
		expect(t.calls).toEqual([]);
	});

	it("stops on the first failure and resumes on request", async () => {
		const t = setup({ value: 1 }, true);
		t.wiring.apply();
		await t.clock.advance(60_000);
		expect(t.shown.at(-1)).toEqual({ kind: "stopped", reason: "push rejected" });
		expect(t.wiring.stopped).toBe(true);
		await t.clock.advance(120_000);
		expect(t.calls).toHaveLength(1);
		t.wiring.resume();
		expect(t.wiring.stopped).toBe(false);
		expect(t.shown.at(-1)).toMatchObject({ kind: "waiting" });
	});
});

describe("autoSyncStatus", () => {
	it("names the next time, and the reason when stopped", () => {
		expect(autoSyncStatus({ kind: "waiting", at: 5 }, (at) => `t${at}`)).toEqual({ key: "autoSyncNext", vars: { time: "t5" } });
		expect(autoSyncStatus({ kind: "held", why: "merge", at: 7 }, (at) => `t${at}`)).toEqual({ key: "autoSyncHeld", vars: { time: "t7" }, why: "autoSyncWhyMerge" });
		expect(autoSyncStatus({ kind: "stopped", reason: "no remote" }, String)).toEqual({ key: "autoSyncStopped", vars: { reason: "no remote" } });
	});
});
