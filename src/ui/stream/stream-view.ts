import { Component } from "obsidian";
import { renderHeaders } from "../panel/headers-view";
import { t, type StringKey } from "../strings";
import { MessageList } from "./message-list";
import { SendBox } from "./send-box";
import type { StreamHandshake, StreamPanelModel, StreamSnapshot } from "./stream-model";
import { renderStreamSummary } from "./stream-summary";
import { renderStreamTiming } from "./stream-timing-view";

type StreamTab = "messages" | "headers" | "timing";
const TABS: Array<{ id: StreamTab; label: StringKey }> = [
	{ id: "messages", label: "streamTabMessages" },
	{ id: "headers", label: "tabHeaders" },
	{ id: "timing", label: "tabTiming" },
];

/** The Headers tab: the handshake's status line and its headers (the http panel's own view). */
function renderHandshake(parent: HTMLElement, handshake: StreamHandshake | null): void {
	parent.empty();
	if (!handshake) {
		parent.createDiv({ cls: "rb-muted", text: t("streamNoHandshake") });
		return;
	}
	const status = parent.createDiv({ cls: "rb-stream-status" });
	status.createSpan({ cls: `rb-badge rb-status rb-status-${Math.floor(handshake.status / 100)}xx`, text: `${handshake.status} ${handshake.statusText}`.trim() });
	renderHeaders(parent, handshake.headers);
}

/**
 * A live stream's panel: a summary line (state, count, how it ended), then the Messages tab (the
 * virtual list and, for a protocol that can send, the send box), the handshake's Headers and
 * Timing. It keeps no stream state: it draws the model's snapshot, at most once a frame however
 * often the model notifies, and keeps drawing frames while a burst is still being placed.
 */
export class StreamView extends Component {
	readonly el: HTMLElement;
	private readonly summary: HTMLElement;
	private readonly panes: Record<StreamTab, HTMLElement>;
	private readonly tabButtons: HTMLElement[] = [];
	private readonly list: MessageList;
	private readonly sendBox: SendBox | null;
	private readonly empty: HTMLElement;
	private frame: number | null = null;
	private shown: { handshake: StreamHandshake | null | undefined; tab: StreamTab } = { handshake: undefined, tab: "messages" };

	/** @param now the clock that bounds each frame's placing (tests give their own). */
	constructor(
		parent: HTMLElement,
		private readonly model: StreamPanelModel,
		now?: () => number,
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-stream", attr: { "data-protocol": model.snapshot().protocol } });
		this.summary = this.el.createDiv({ cls: "rb-stream-summary" });
		const bar = this.el.createDiv({ cls: "rb-tabs", attr: { role: "tablist" } });
		for (const tab of TABS) this.tabButtons.push(bar.createEl("button", { cls: "rb-tab", text: t(tab.label), attr: { role: "tab", "data-tab": tab.id } }));
		const content = this.el.createDiv({ cls: "rb-stream-content", attr: { role: "tabpanel" } });
		this.panes = {
			messages: content.createDiv({ cls: "rb-stream-pane rb-stream-messages" }),
			headers: content.createDiv({ cls: "rb-stream-pane rb-tab-content" }),
			timing: content.createDiv({ cls: "rb-stream-pane rb-tab-content" }),
		};
		this.empty = this.panes.messages.createDiv({ cls: "rb-muted rb-stream-empty", text: t("streamNoMessages") });
		this.list = new MessageList(this.panes.messages, now);
		const send = model.send?.bind(model);
		this.sendBox = send ? new SendBox(this.panes.messages, send) : null;
	}

	override onload(): void {
		this.addChild(this.list);
		if (this.sendBox) this.addChild(this.sendBox);
		this.tabButtons.forEach((b, i) => this.registerDomEvent(b, "click", () => this.selectTab(TABS[i].id)));
		this.register(this.model.subscribe(() => this.schedule()));
		this.selectTab("messages");
	}

	override onunload(): void {
		if (this.frame !== null) window.cancelAnimationFrame(this.frame);
		this.el.remove();
	}

	/** The message list (tests and the bench read its window and count). */
	get messages(): MessageList {
		return this.list;
	}

	selectTab(tab: StreamTab): void {
		this.shown.tab = tab;
		this.tabButtons.forEach((b, i) => b.toggleClass("is-active", TABS[i].id === tab));
		for (const id of Object.keys(this.panes) as StreamTab[]) this.panes[id].toggleClass("rb-hidden", id !== tab);
		this.draw();
	}

	private schedule(): void {
		if (this.frame !== null) return;
		this.frame = window.requestAnimationFrame(() => {
			this.frame = null;
			this.draw();
		});
	}

	/** Draws the current snapshot; the hidden tabs are drawn when they are chosen. */
	private draw(): void {
		const s: StreamSnapshot = this.model.snapshot();
		this.el.dataset.state = s.state;
		renderStreamSummary(this.summary, s);
		this.empty.toggleClass("rb-hidden", s.messages.length > 0);
		const more = this.list.sync(s.messages);
		this.sendBox?.setEnabled(s.state === "open");
		if (this.shown.tab === "headers" && this.shown.handshake !== s.handshake) {
			this.shown.handshake = s.handshake;
			renderHandshake(this.panes.headers, s.handshake);
		}
		if (this.shown.tab === "timing") renderStreamTiming(this.panes.timing, s.timing);
		if (more) this.schedule();
	}
}
