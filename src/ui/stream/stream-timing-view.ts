import { formatMs } from "../../runner/response/format";
import { t, type StringKey } from "../strings";
import type { StreamTiming } from "./stream-model";

const ROWS: Array<{ key: "connectMs" | "handshakeMs" | "firstMessageMs"; label: StringKey }> = [
	{ key: "connectMs", label: "streamTimingConnect" },
	{ key: "handshakeMs", label: "streamTimingHandshake" },
	{ key: "firstMessageMs", label: "streamTimingFirstMessage" },
];

/** A stream's Timing tab: connect, handshake and first message (as far as they happened), and the count. */
export function renderStreamTiming(parent: HTMLElement, timing: StreamTiming): void {
	parent.empty();
	const wrap = parent.createDiv({ cls: "rb-timing rb-stream-timing" });
	const row = (label: string, value: string) => {
		const el = wrap.createDiv({ cls: "rb-timing-row" });
		el.createSpan({ cls: "rb-timing-label", text: label });
		el.createSpan({ cls: "rb-timing-value", text: value });
	};
	for (const { key, label } of ROWS) {
		const ms = timing[key];
		if (ms !== undefined) row(t(label), formatMs(ms));
	}
	row(t("streamTimingCount"), timing.count.toLocaleString());
}
