import { formatMs } from "../../runner/response/format";
import type { PollProgress } from "../../runner/poll";
import { t } from "../strings";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 4;
const GAP = 1;
const HEIGHT = 16;

/**
 * A polled block's progress in the panel's badges: "Attempt k of n", the last status, and a
 * sparkline of the attempts (bar height the duration, colour the outcome). Built with DOM
 * APIs only: nothing here is parsed as markup.
 */
export function renderPoll(parent: HTMLElement, poll: PollProgress): void {
	const box = parent.createSpan({ cls: `rb-poll rb-poll-${poll.phase}` });
	box.createSpan({ cls: "rb-badge rb-poll-attempt", text: t("pollAttempt", { attempt: poll.attempt, max: poll.max }) });
	const last = poll.attempts[poll.attempts.length - 1];
	if (last) box.createSpan({ cls: "rb-muted rb-poll-status", text: t("pollLastStatus", { status: last.status === null ? last.state : String(last.status) }) });
	if (poll.phase === "waiting") box.createSpan({ cls: "rb-muted rb-poll-wait", text: t("pollWaiting", { time: formatMs(poll.everyMs) }) });
	if (poll.attempts.length > 0) box.appendChild(sparkline(box.ownerDocument, poll));
}

/** One bar per attempt: its height the attempt's duration against the longest, its class whether it met the poll's condition. */
function sparkline(doc: Document, poll: PollProgress): SVGSVGElement {
	const longest = Math.max(1, ...poll.attempts.map((a) => a.durationMs));
	const svg = doc.createElementNS(SVG, "svg");
	const width = poll.attempts.length * (WIDTH + GAP);
	svg.setAttribute("class", "rb-poll-sparkline");
	svg.setAttribute("width", String(width));
	svg.setAttribute("height", String(HEIGHT));
	svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
	svg.setAttribute("role", "img");
	svg.setAttribute("aria-label", t("pollSparkline"));
	poll.attempts.forEach((a, k) => {
		const h = Math.max(2, Math.round((a.durationMs / longest) * HEIGHT));
		const bar = doc.createElementNS(SVG, "rect");
		bar.setAttribute("x", String(k * (WIDTH + GAP)));
		bar.setAttribute("y", String(HEIGHT - h));
		bar.setAttribute("width", String(WIDTH));
		bar.setAttribute("height", String(h));
		bar.setAttribute("class", a.met ? "rb-poll-met" : a.state === "done" || a.state === "cached" ? "rb-poll-unmet" : "rb-poll-failed");
		const title = doc.createElementNS(SVG, "title");
		title.textContent = `${a.status ?? a.state} · ${formatMs(a.durationMs)}`;
		bar.appendChild(title);
		svg.appendChild(bar);
	});
	return svg;
}
