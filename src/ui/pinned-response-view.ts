import { Component } from "obsidian";
import { parsePinnedResponse, type NoteBlock, type PinnedResponse } from "../blocks";
import { BlockReadingView } from "./block-reading-view";
import type { EditorPanel } from "./editor-panel";
import { t } from "./strings";

type PinBlock = Extract<NoteBlock, { kind: "http-response" }>;

/**
 * A pinned response, read-only (docs/pins.md): whose pin it is, the status chip and header table
 * of the response panel, and the body as pinned. Small and outside the http views' text module:
 * a note of pins shows them without loading the response panel. Everything is set as text, never as
 * HTML: a pin holds what a server sent.
 */
export function renderPinnedResponse(parent: HTMLElement, pin: PinnedResponse, alias: string | null): void {
	const root = parent.createDiv({ cls: "rb-block rb-pinned-response" });
	const head = root.createDiv({ cls: "rb-block-head" });
	head.createSpan({ cls: "rb-alias", text: alias ? t("pinnedResponseOf", { alias }) : t("pinnedResponse") });
	const status = pin.status === null ? "" : `rb-status rb-status-${Math.floor(pin.status / 100)}xx`;
	head.createSpan({ cls: `rb-chip ${status}`.trim(), text: pin.statusLine });
	if (pin.headers.length > 0) {
		// The response panel's header table (rb-table), in the pin's order: a pin has few headers, no filter box.
		const rows = root.createEl("table", { cls: "rb-table rb-pinned-headers" }).createEl("tbody");
		for (const [name, value] of pin.headers) {
			const tr = rows.createEl("tr");
			tr.createEl("th", { text: name });
			tr.createEl("td", { text: value });
		}
	}
	if (pin.body !== "") root.createEl("pre", { cls: "rb-pinned-body", text: pin.body });
	if (pin.cut) root.createDiv({ cls: "rb-pinned-cut", text: t("pinCut", { shown: pin.cut.shown, total: pin.cut.total }) });
}

/** The ```http-response fence in Reading view and Live Preview. */
export class PinnedResponseView extends BlockReadingView {
	override onload(): void {
		const block = this.locate()?.block;
		const pin = block?.kind === "http-response" ? block : undefined;
		renderPinnedResponse(this.containerEl, pin ? pin["http-response"] : parsePinnedResponse(this.source), pin?.info.tokens.alias ?? null);
		if (pin) this.renderProblems(this.containerEl, pin.problems);
	}
}

/** The same panel under the fence while its source is on screen. */
export function pinnedResponsePanel(block: PinBlock, filePath: string): EditorPanel {
	return {
		identity: [filePath, block.fence.startLine, block.fence.info, block.fence.content].join("\u0000"),
		display: "split",
		mount: (wrap) => {
			renderPinnedResponse(wrap, block["http-response"], block.info.tokens.alias ?? null);
			return new Component();
		},
	};
}
