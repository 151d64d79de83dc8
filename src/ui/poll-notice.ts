import type { BlockResult } from "../runner/result";
import { notify } from "./notify";
import { t } from "./strings";

/** The text of a poll's end, for the notice and the system notification. */
export function pollOutcomeText(block: string, result: BlockResult): string | null {
	const poll = result.poll;
	if (!poll) return null;
	const vars = { block, attempt: poll.attempt, max: poll.max };
	switch (poll.phase) {
		case "passed":
			return t("pollPassed", vars);
		case "exhausted":
			return t("pollExhausted", vars);
		case "stopped":
			return t("pollStopped", vars);
		case "ended":
			return t("pollEnded", { ...vars, reason: result.error?.message ?? result.state });
		default:
			return null;
	}
}

/**
 * A poll's end as an Obsidian notice, and as a system notification when the window is in the
 * background and the user has allowed them (the plugin never asks: a prompt per poll would nag).
 */
export function announcePollEnd(block: string, result: BlockResult, win: Window = window): void {
	const text = pollOutcomeText(block, result);
	if (text === null) return;
	notify(text);
	const system = (win as Window & { Notification?: typeof Notification }).Notification;
	if (system && system.permission === "granted" && (win.document.hidden || !win.document.hasFocus())) new system("Runnable Blocks", { body: text });
}
