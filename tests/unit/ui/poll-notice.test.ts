import { Notice } from "obsidian";
import type { PollProgress } from "../../../src/runner/poll";
import type { BlockResult } from "../../../src/runner/result";
import { announcePollEnd, pollOutcomeText } from "../../../src/ui/poll-notice";

const poll = (phase: PollProgress["phase"], attempt: number): PollProgress => ({ phase, attempt, max: 5, everyMs: 50, attempts: [] });
const ended = (p: PollProgress, extra: Partial<BlockResult> = {}) => ({ state: "done", poll: p, ...extra }) as BlockResult;

/** A window as far as the announcement reads it: in the background or not, notifications allowed or not. */
function windowOf(hidden: boolean, permission: NotificationPermission) {
	const sent: Array<{ title: string; body?: string }> = [];
	class FakeNotification {
		static permission = permission;
		constructor(title: string, options?: NotificationOptions) {
			sent.push({ title, body: options?.body });
		}
	}
	return { win: { Notification: FakeNotification, document: { hidden, hasFocus: () => !hidden } } as unknown as Window, sent };
}

describe("a poll's end, told to the user", () => {
	it.each([
		[ended(poll("passed", 4)), "ready: assertions passed on attempt 4 of 5"],
		[ended(poll("exhausted", 5)), "ready: assertions still failing after 5 attempts"],
		[ended(poll("stopped", 2)), "ready: polling stopped after attempt 2 of 5"],
		[ended(poll("ended", 1), { state: "failed", error: { code: "unresolved_reference", message: "Unresolved reference {{x}}" } }), "ready: polling ended on attempt 1 of 5: Unresolved reference {{x}}"],
	])("%#: %s", (result, text) => expect(pollOutcomeText("ready", result)).toBe(text));

	it("says nothing for a run that did not poll", () => {
		expect(pollOutcomeText("ready", { state: "done" })).toBeNull();
	});

	it("is a notice, and a system notification only in the background with permission", () => {
		const shown = (Notice as unknown as { shown: string[] }).shown;
		const before = shown.length;
		const background = windowOf(true, "granted");
		announcePollEnd("ready", ended(poll("passed", 4)), background.win);
		expect(shown.slice(before)).toEqual(["Runnable Blocks: ready: assertions passed on attempt 4 of 5"]);
		expect(background.sent).toEqual([{ title: "Runnable Blocks", body: "ready: assertions passed on attempt 4 of 5" }]);

		const focused = windowOf(false, "granted");
		announcePollEnd("ready", ended(poll("passed", 4)), focused.win);
		const denied = windowOf(true, "default");
		announcePollEnd("ready", ended(poll("passed", 4)), denied.win);
		expect([...focused.sent, ...denied.sent]).toEqual([]);
	});
});
