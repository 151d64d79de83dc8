import { t } from "../strings";
import type { NoCustomHeadersNotice } from "./stream-model";

/**
 * Said in the block before it runs on mobile: the browser's WebSocket sends no custom headers,
 * so the block's are named and it runs without them only when the user presses the button.
 */
export function renderNoCustomHeaders(parent: HTMLElement, notice: NoCustomHeadersNotice): HTMLElement {
	const el = parent.createDiv({ cls: "rb-stream-no-headers callout", attr: { "data-callout": "warning" } });
	el.createDiv({ cls: "rb-stream-no-headers-text", text: t("streamNoCustomHeaders", { headers: notice.headers.join(", ") }) });
	const run = el.createEl("button", { cls: "rb-stream-run-without", text: t("streamRunWithoutHeaders") });
	run.addEventListener("click", () => notice.runWithoutHeaders());
	return el;
}
