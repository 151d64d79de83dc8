import { t, type StringKey } from "../strings";
import type { StreamClose, StreamEndReason, StreamSnapshot } from "./stream-model";

const END_TEXT: Record<StreamEndReason, StringKey> = {
	cancelled: "streamEndStopped",
	server_closed: "streamEndServerClosed",
	steps_done: "streamEndWaited",
	max_messages: "streamEndMaxMessages",
	duration: "streamEndDuration",
	timeout: "streamEndTimeout",
	body_too_large: "streamEndBodyTooLarge",
	failed: "streamEndFailed",
};

/** How a stream ended, in one line: why, the close code, and the reason the server gave. */
export function closeText(close: StreamClose): string {
	const parts = [t(END_TEXT[close.why])];
	if (close.code !== null) parts.push(t("streamCloseCode", { code: close.code }));
	if (close.reason) parts.push(close.reason);
	return parts.join(" · ");
}

/** The line above the tabs: the stream's state, its message count, and how it ended. */
export function renderStreamSummary(parent: HTMLElement, s: StreamSnapshot): void {
	parent.empty();
	const state = parent.createSpan({ cls: `rb-badge rb-stream-state rb-stream-state-${s.state}`, text: t(s.state === "connecting" ? "streamConnecting" : s.state === "open" ? "streamOpen" : "streamClosed") });
	state.dataset.state = s.state;
	parent.createSpan({ cls: "rb-badge rb-stream-count", text: s.timing.count === 1 ? t("streamMessageOne") : t("streamMessageCount", { count: s.timing.count.toLocaleString() }) });
	if (s.close) parent.createSpan({ cls: `rb-stream-close${s.close.why === "failed" || s.close.why === "body_too_large" ? " rb-error-message" : ""}`, text: closeText(s.close) });
}
