import type { BinaryStorage } from "../../../src/runner/binary-storage";
import { withFileLock, type LockOptions } from "../../../src/runner/file-lock";

/** Files in memory: enough of BinaryStorage for a lock. */
function memory(): BinaryStorage & { files: Map<string, Uint8Array> } {
	const files = new Map<string, Uint8Array>();
	return {
		files,
		read: (p) => Promise.resolve(files.get(p) ?? null),
		write: (p, d) => Promise.resolve(void files.set(p, d)),
		createExclusive: (p, d) => Promise.resolve(files.has(p) ? false : (files.set(p, d), true)),
		rename: () => Promise.reject(new Error("not used")),
		remove: (p) => Promise.resolve(void files.delete(p)),
		exists: (p) => Promise.resolve(files.has(p)),
		siblings: () => Promise.resolve([]),
	};
}

/** A clock that moves only when the lock sleeps; `onSleep` lets a test act while it waits. */
function virtualTime(onSleep: (now: number) => void = () => undefined) {
	let t = 1_000_000;
	const slept: number[] = [];
	return {
		now: () => t,
		sleep: (ms: number) => {
			slept.push(ms);
			t += ms;
			onSleep(t);
			return Promise.resolve();
		},
		slept,
	};
}

const PATH = "vault/history.sqlite";
const LOCK = `${PATH}.lock`;
const text = (o: unknown) => new TextEncoder().encode(typeof o === "string" ? o : JSON.stringify(o));
const owner = { pid: 100, host: "this" };
const options = (extra: Partial<LockOptions> = {}): LockOptions => ({ owner, ...virtualTime(), ...extra });

describe("withFileLock", () => {
	it("holds the lock, written with its owner and time, while the work runs, and removes it after", async () => {
		const storage = memory();
		const clock = virtualTime();
		const seen = await withFileLock(storage, PATH, () => storage.read(LOCK), { owner, now: clock.now, sleep: clock.sleep });
		expect(JSON.parse(new TextDecoder().decode(seen as Uint8Array))).toEqual({ pid: 100, host: "this", time: clock.now() });
		expect(storage.files.has(LOCK)).toBe(false);
	});

	it("removes the lock when the work throws, and passes the error on", async () => {
		const storage = memory();
		await expect(withFileLock(storage, PATH, () => Promise.reject(new Error("boom")), options())).rejects.toThrow("boom");
		expect(storage.files.has(LOCK)).toBe(false);
	});

	it("waits for a live lock to go, then runs", async () => {
		const storage = memory();
		const clock = virtualTime();
		storage.files.set(LOCK, text({ pid: 7, host: "this", time: clock.now() }));
		let waits = 0;
		const sleep = async (ms: number) => {
			await clock.sleep(ms);
			if (++waits === 3) storage.files.delete(LOCK);
		};
		await expect(withFileLock(storage, PATH, () => Promise.resolve("ran"), { owner, now: clock.now, sleep, isAlive: () => true })).resolves.toBe("ran");
		expect(waits).toBe(3);
	});

	it("gives up on a live lock after the timeout, naming its owner, and leaves it", async () => {
		const storage = memory();
		const clock = virtualTime();
		storage.files.set(LOCK, text({ pid: 7, host: "this", time: clock.now() }));
		let ran = false;
		await expect(withFileLock(storage, PATH, async () => void (ran = true), { owner, now: clock.now, sleep: clock.sleep, isAlive: () => true, timeoutMs: 500 })).rejects.toThrow(`${PATH} is locked by process 7 (${LOCK})`);
		expect(ran).toBe(false);
		expect(storage.files.has(LOCK)).toBe(true);
		expect(clock.now() - 1_000_000).toBeGreaterThan(500);
	});

	it("takes over at once a lock older than the staleness limit, or held by a gone process of this machine", async () => {
		const storage = memory();
		const clock = virtualTime();
		storage.files.set(LOCK, text({ pid: 7, host: "this", time: clock.now() - 20_000 }));
		await expect(withFileLock(storage, PATH, () => Promise.resolve("ran"), { owner, now: clock.now, sleep: clock.sleep, staleMs: 15_000 })).resolves.toBe("ran");
		storage.files.set(LOCK, text({ pid: 7, host: "this", time: clock.now() }));
		await expect(withFileLock(storage, PATH, () => Promise.resolve("ran"), { owner, now: clock.now, sleep: clock.sleep, isAlive: (pid) => pid !== 7 })).resolves.toBe("ran");
		expect(clock.slept).toEqual([]);
	});

	it("judges a process id only on its own machine", async () => {
		const storage = memory();
		const clock = virtualTime();
		storage.files.set(LOCK, text({ pid: 7, host: "laptop", time: clock.now() }));
		await expect(withFileLock(storage, PATH, () => Promise.resolve(), { owner, now: clock.now, sleep: clock.sleep, isAlive: () => false, timeoutMs: 100 })).rejects.toThrow("locked by process 7");
	});

	it("waits for an unreadable lock (one being written) before taking it over", async () => {
		const storage = memory();
		const clock = virtualTime();
		storage.files.set(LOCK, text(""));
		await expect(withFileLock(storage, PATH, () => Promise.resolve(clock.now()), { owner, now: clock.now, sleep: clock.sleep, unreadableMs: 300 })).resolves.toBeGreaterThan(1_000_300);
		expect(clock.slept.length).toBeGreaterThan(0);
	});

	it("waits on a lock that becomes readable while it waits, as the live lock it is", async () => {
		const storage = memory();
		let t0 = 0;
		const clock = virtualTime((now) => {
			if (now - t0 > 50 && storage.files.get(LOCK)?.length === 0) storage.files.set(LOCK, text({ pid: 7, host: "this", time: now }));
		});
		t0 = clock.now();
		storage.files.set(LOCK, text(""));
		await expect(withFileLock(storage, PATH, () => Promise.resolve(), { owner, now: clock.now, sleep: clock.sleep, isAlive: () => true, unreadableMs: 300, timeoutMs: 2_000 })).rejects.toThrow("locked by process 7");
	});
});
