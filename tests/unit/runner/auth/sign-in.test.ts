import { signInControl, waitFor } from "../../../../src/runner/auth/sign-in";

describe("waitFor", () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	it("resolves after its time", async () => {
		let done = false;
		void waitFor(5_000, new AbortController().signal).then(() => (done = true));
		await jest.advanceTimersByTimeAsync(4_999);
		expect(done).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(done).toBe(true);
	});

	it("resolves at once on abort, and leaves no timer behind", async () => {
		const stop = new AbortController();
		const waiting = waitFor(60_000, stop.signal);
		stop.abort();
		await waiting;
		expect(jest.getTimerCount()).toBe(0);
	});

	it("resolves at once on a signal already aborted", async () => {
		await waitFor(60_000, AbortSignal.abort());
		expect(jest.getTimerCount()).toBe(0);
	});
});

describe("signInControl", () => {
	it("is cancelled by its own cancel", () => {
		const c = signInControl(undefined);
		c.cancel();
		expect(c.signal.aborted).toBe(true);
	});

	it("follows the run's cancel until disposed", () => {
		const run = new AbortController();
		const followed = signInControl(run.signal);
		const disposed = signInControl(run.signal);
		disposed.dispose();
		run.abort();
		expect(followed.signal.aborted).toBe(true);
		expect(disposed.signal.aborted).toBe(false);
	});

	it("starts cancelled when the run already is", () => {
		expect(signInControl(AbortSignal.abort()).signal.aborted).toBe(true);
	});
});
