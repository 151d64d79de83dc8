import { isBusy } from "../../../src/runner/busy";
import type { PollProgress } from "../../../src/runner/note-memory";

const poll = (phase: PollProgress["phase"]): PollProgress => ({ phase, attempt: 1, max: 3, everyMs: 1000, attempts: [] });

describe("isBusy: what Stop can stop", () => {
	it("is a request in flight, streaming or not", () => {
		expect(isBusy({ state: "running" })).toBe(true);
		expect(isBusy({ state: "streaming" })).toBe(true);
	});

	it("is a poll waiting for its next attempt, though its last attempt is done", () => {
		expect(isBusy({ state: "done", poll: poll("waiting") })).toBe(true);
	});

	it("is not a finished run, nor a poll that is over", () => {
		expect(isBusy({ state: "done" })).toBe(false);
		expect(isBusy({ state: "failed" })).toBe(false);
		expect(isBusy({ state: "done", poll: poll("passed") })).toBe(false);
		expect(isBusy({ state: "cancelled", poll: poll("stopped") })).toBe(false);
	});
});
