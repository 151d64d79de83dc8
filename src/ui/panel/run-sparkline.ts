/**
 * The History popover's picture of a block's kept runs: a sparkline of their durations and a
 * strip with one mark per run coloured by how it ended, oldest on the left. Inline SVG built
 * through DOM calls (never markup text); colours come from styles.css by class.
 */
import { formatMs } from "../../runner/response/format";
import { t } from "../strings";

/** What the picture needs of a run. */
export interface SparkRun {
	status: number | null;
	outcome: string;
	durationMs: number;
}

export type RunClass = "ok" | "client-error" | "server-error" | "failed" | "cancelled" | "cached";

/** How a run ended, as the strip colours it: the outcome first, then the HTTP status class. */
export function runClass(r: SparkRun): RunClass {
	if (r.outcome === "cached" || r.outcome === "cancelled" || r.outcome === "failed") return r.outcome;
	if (r.status !== null && r.status >= 500) return "server-error";
	if (r.status !== null && r.status >= 400) return "client-error";
	return "ok";
}

const WIDTH = 200;
const HEIGHT = 32;
/** Room for the line's width at the top and bottom edges. */
const PAD = 2;

/**
 * The polyline points of durations (oldest first) in a WIDTH × HEIGHT box: the slowest run at
 * the top, zero at the bottom, so equal durations draw a flat line low in the box, not a wall.
 */
export function sparklinePoints(durations: readonly number[], width = WIDTH, height = HEIGHT): string {
	if (durations.length === 0) return "";
	const max = Math.max(...durations, 0);
	const step = durations.length > 1 ? (width - 2 * PAD) / (durations.length - 1) : 0;
	const y = (d: number) => (max === 0 ? height - PAD : height - PAD - (d / max) * (height - 2 * PAD));
	return durations.map((d, i) => `${round(PAD + i * step)},${round(y(d))}`).join(" ");
}

const round = (n: number) => Math.round(n * 10) / 10;

const SVG = "http://www.w3.org/2000/svg";

function svgEl<K extends keyof SVGElementTagNameMap>(parent: Element, tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
	const el = parent.ownerDocument.createElementNS(SVG, tag);
	for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
	parent.appendChild(el);
	return el;
}

function title(parent: Element, text: string): void {
	// textContent: a run's status is our number, but nothing here is ever parsed as markup.
	svgEl(parent, "title", {}).textContent = text;
}

/** The sparkline and the status strip of `runs` (newest first, as the popover lists them) into `parent`. */
export function renderRunSparkline(parent: HTMLElement, runs: readonly SparkRun[]): void {
	if (runs.length === 0) return;
	const oldestFirst = [...runs].reverse();
	const durations = oldestFirst.map((r) => r.durationMs);
	const box = parent.createDiv({ cls: "rb-sparkline" });
	const summary = t("historySparkline", { count: String(runs.length), min: formatMs(Math.min(...durations)), max: formatMs(Math.max(...durations)) });

	const line = svgEl(box, "svg", { class: "rb-sparkline-durations", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", role: "img", "aria-label": summary });
	title(line, summary);
	svgEl(line, "polyline", { class: "rb-sparkline-line", points: sparklinePoints(durations), fill: "none" });
	const points = sparklinePoints(durations).split(" ");
	oldestFirst.forEach((r, i) => {
		const [cx, cy] = points[i].split(",");
		svgEl(line, "circle", { class: `rb-sparkline-dot rb-run-${runClass(r)}`, cx, cy, r: 1.5 });
	});

	const cell = WIDTH / oldestFirst.length;
	const strip = svgEl(box, "svg", { class: "rb-status-strip", viewBox: `0 0 ${WIDTH} 6`, preserveAspectRatio: "none", role: "img", "aria-label": t("historyStatusStrip") });
	oldestFirst.forEach((r, i) => {
		const mark = svgEl(strip, "rect", { class: `rb-status-mark rb-run-${runClass(r)}`, x: round(i * cell), y: 0, width: round(Math.max(cell - 1, 1)), height: 6 });
		title(mark, `${r.status === null ? r.outcome : String(r.status)} · ${formatMs(r.durationMs)}`);
	});
}
