import { AUTO_SYNC_IDLE_MS, AutoSync, type AutoSyncState, type VcsState } from "../../../src/vcs";

const MINUTE = 60_000;

/** A session stand-in: its state as the test sets it, and a sync that records its calls. */
function harness(state: Partial<Extract<VcsState, { kind: "ready" }>> = {}) {
	const clock = { now: 1_000_000 };
	const ready = { kind: "ready", busy: null, problem: null, conflicts: [], snapshot: { operation: null }, ...state } as unknown as VcsState;
	const session = { state: ready, syncs: [] as unknown[], sync: jest.fn(async (mode: unknown): Promise<void> => void session.syncs.push(mode)) };
	const delays: number[] = [];
	const auto = new AutoSync({ session, intervalMs: 10 * MINUTE, now: () => clock.now, timer: (_f, ms) => (delays.push(ms), () => undefined) });
	return { clock, session, auto, delays };
}

describe("AutoSync", () => {
	it("is off until started, then waits one interval", () => {
		const { auto, delays } = harness();
		expect(auto.state).toEqual({ kind: "off" });
		auto.start();
		expect(auto.state).toEqual({ kind: "waiting", at: 1_000_000 + 10 * MINUTE });
		expect(delays).toEqual([10 * MINUTE]);
	});

	it("holds a due sync until typing has paused for AUTO_SYNC_IDLE_MS after the last edit", async () => {
		const { auto, clock, session, delays } = harness();
		auto.start();
		clock.now += 10 * MINUTE;
		auto.edited();
		clock.now += 2000;
		await auto.due();
		expect(auto.state).toEqual({ kind: "held", why: "typing", at: clock.now - 2000 + AUTO_SYNC_IDLE_MS });
		expect(delays.at(-1)).toBe(AUTO_SYNC_IDLE_MS - 2000);
		expect(session.sync).not.toHaveBeenCalled();
		clock.now += AUTO_SYNC_IDLE_MS;
		await auto.due();
		expect(session.syncs).toEqual([{ safety: "auto-sync", holdIf: expect.any(Function) as unknown }]);
		expect(auto.state.kind).toBe("waiting");
	});

	it("asks again when the sync's turn comes: an edit made while it waited holds it back, not a failure", async () => {
		const { auto, clock, session, delays } = harness();
		session.state = { ...(session.state as object), problem: { code: "push_rejected", message: "an earlier action's", detail: "" } } as unknown as VcsState;
		const held: boolean[] = [];
		session.sync.mockImplementation(async (mode: unknown) => {
			// Its turn comes 2 s later (another git's index.lock), and the user typed meanwhile.
			clock.now += 2000;
			auto.edited();
			held.push((mode as { holdIf: () => boolean }).holdIf());
		});
		auto.start();
		clock.now += 10 * MINUTE;
		await auto.due();
		expect(held).toEqual([true]);
		expect(auto.state).toEqual({ kind: "held", why: "typing", at: clock.now + AUTO_SYNC_IDLE_MS });
		expect(delays.at(-1)).toBe(AUTO_SYNC_IDLE_MS);
	});

	it.each<[Partial<Extract<VcsState, { kind: "ready" }>>, string]>([
		[{ snapshot: { operation: "merge" } as never }, "merge"],
		[{ snapshot: { operation: "rebase" } as never }, "rebase"],
		[{ conflicts: ["a.md"] }, "conflicts"],
		[{ busy: "commit" }, "busy"],
	])("never runs during %j: held as %s", async (state, why) => {
		const { auto, session } = harness(state);
		auto.start();
		await auto.due();
		expect(auto.state).toMatchObject({ kind: "held", why });
		expect(session.sync).not.toHaveBeenCalled();
	});

	it("stops on the first failure, with its reason, and stays stopped", async () => {
		const { auto, session } = harness();
		session.sync.mockImplementation(async () => {
			session.state = { ...(session.state as object), problem: { code: "push_rejected", message: "The remote refused the push", detail: "hook" } } as unknown as VcsState;
		});
		const seen: AutoSyncState[] = [];
		auto.subscribe((s) => seen.push(s));
		auto.start();
		await auto.due();
		expect(auto.state).toEqual({ kind: "stopped", reason: "The remote refused the push: hook" });
		await auto.due();
		expect(session.sync).toHaveBeenCalledTimes(1);
		expect(seen.map((s) => s.kind)).toEqual(["waiting", "syncing", "stopped"]);
	});

	it("stays off when stopped while a sync runs", async () => {
		const { auto, session } = harness();
		session.sync.mockImplementation(async () => {
			auto.stop();
		});
		auto.start();
		await auto.due();
		expect(auto.state).toEqual({ kind: "off" });
	});
});
