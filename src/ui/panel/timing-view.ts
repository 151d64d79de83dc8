import { formatMs } from "../../runner/response/format";
import type { Timing } from "../../runner/transport";
import { t } from "../strings";

/** Phases as offsets from the start; each bar runs from the previous phase's end. */
const PHASES: Array<{ key: "dns" | "connect" | "tls" | "ttfb" | "total"; label: string }> = [
	{ key: "dns", label: "dns" },
	{ key: "connect", label: "connect" },
	{ key: "tls", label: "tls" },
	{ key: "ttfb", label: "ttfb" },
	{ key: "total", label: "total" },
];

/** The Timing tab: figures plus a small waterfall (widths are CSS variables, not inline styles). */
export function renderTiming(parent: HTMLElement, timing: Timing | undefined, transport: string | undefined): void {
	const wrap = parent.createDiv({ cls: "rb-timing" });
	if (!timing) return;
	const total = Math.max(timing.total, 1);
	let previous = 0;
	for (const { key, label } of PHASES) {
		const at = timing[key];
		if (at === undefined) continue;
		const row = wrap.createDiv({ cls: "rb-timing-row" });
		row.createSpan({ cls: "rb-timing-label", text: label });
		const track = row.createDiv({ cls: "rb-timing-track" });
		const bar = track.createDiv({ cls: `rb-timing-bar rb-timing-${key}` });
		const start = key === "total" ? 0 : previous;
		bar.setCssProps({ "--rb-start": `${(start / total) * 100}%`, "--rb-width": `${(Math.max(at - start, 0) / total) * 100}%` });
		row.createSpan({ cls: "rb-timing-value", text: formatMs(at) });
		if (key !== "total") previous = Math.max(previous, at);
	}
	const notes: string[] = [];
	if (timing.connectionReused) notes.push(t("connectionReused"));
	if (transport) notes.push(t("transport", { name: transport }));
	if (notes.length) wrap.createDiv({ cls: "rb-muted", text: notes.join(" · ") });
}
