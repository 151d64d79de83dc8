import { Component } from "obsidian";
import { formatBytes, formatMs } from "../../runner/response/format";
import { t } from "../strings";
import { visibleRows } from "../visible-rows";
import { MessageLayout } from "./message-layout";
import { messageHeight, messageLines } from "./message-text";
import type { StreamMessage } from "./stream-model";

/** Lines drawn above and below the visible ones, so a fast scroll finds them drawn. */
const OVERSCAN = 12;
/** Line height until one line has been measured (styles.css sets the real one). */
const DEFAULT_LINE_PX = 18;
/** The height assumed while the list has no layout yet (a collapsed panel). */
const FALLBACK_VIEWPORT_PX = 420;
/**
 * Messages placed per frame at most: a burst of 100,000 spreads over frames instead of holding
 * the main thread (each is parsed once to know its height).
 */
export const MESSAGES_PER_FRAME = 2000;
/**
 * Milliseconds of placing per frame: on a slow or busy machine fewer than MESSAGES_PER_FRAME fit
 * in a frame, and the rest wait for the next one rather than making a long task.
 */
export const PLACE_BUDGET_MS = 6;
/** Messages placed between two looks at the clock (reading it per message would cost more than it saves). */
const PLACE_CHUNK = 64;
/** How close to the end counts as "at the bottom" (a rounding pixel, a partly shown line). */
const BOTTOM_SLACK_PX = 4;

/** Whether a reader scrolled to within the slack of the end: new messages then scroll into view. */
export function isAtBottom(scrollTop: number, clientHeight: number, scrollHeight: number): boolean {
	return scrollTop + clientHeight >= scrollHeight - BOTTOM_SLACK_PX;
}

/**
 * The Messages list, virtualised: every message has a place in lines (MessageLayout) and only the
 * ones in view have DOM, so it stays live at 100,000 messages. New messages are placed in batches
 * bounded by count and time (MESSAGES_PER_FRAME, PLACE_BUDGET_MS); the list follows them only while the reader is at the bottom. All data
 * goes in as text nodes.
 */
export class MessageList extends Component {
	readonly el: HTMLElement;
	private readonly spacer: HTMLElement;
	private readonly rows: HTMLElement;
	private readonly layout = new MessageLayout();
	private messages: readonly StreamMessage[] = [];
	private lineHeight = DEFAULT_LINE_PX;
	private measured = false;
	private frame: number | null = null;
	private drawn = { first: -1, last: -1, placed: -1 };

	/** @param now the clock the placing budget is read from (tests give their own). */
	constructor(
		parent: HTMLElement,
		private readonly now: () => number = () => performance.now(),
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-stream-list", attr: { role: "log", "aria-live": "off", tabindex: "0" } });
		this.spacer = this.el.createDiv({ cls: "rb-stream-spacer" });
		this.rows = this.spacer.createDiv({ cls: "rb-stream-rows" });
	}

	override onload(): void {
		this.registerDomEvent(this.el, "scroll", () => this.schedule());
	}

	override onunload(): void {
		if (this.frame !== null) window.cancelAnimationFrame(this.frame);
		this.el.remove();
	}

	/** Messages placed (and so reachable by scrolling) so far. */
	get placed(): number {
		return this.layout.count;
	}

	/** Indices of the messages in the DOM now (first inclusive, last exclusive). */
	get window(): { first: number; last: number } {
		return { first: this.drawn.first, last: this.drawn.last };
	}

	/**
	 * Shows `messages` (the stream's growing list; a different, shorter one starts over): places
	 * up to MESSAGES_PER_FRAME new ones, or as many as PLACE_BUDGET_MS allows, and draws. Returns
	 * true while some still wait for a later call, so the caller asks for another frame.
	 */
	sync(messages: readonly StreamMessage[]): boolean {
		if (messages.length < this.layout.count || (this.messages !== messages && messages[0] !== this.messages[0])) {
			this.layout.clear();
			this.drawn = { first: -1, last: -1, placed: -1 };
		}
		this.messages = messages;
		const follow = isAtBottom(this.el.scrollTop, this.el.clientHeight, this.el.scrollHeight);
		this.place(messages);
		this.spacer.setCssProps({ "--rb-stream-height": `${this.layout.totalLines * this.lineHeight}px` });
		if (follow) this.el.scrollTop = this.el.scrollHeight;
		this.el.dataset.count = String(this.layout.count);
		this.render();
		return this.layout.count < messages.length;
	}

	/** Places new messages in chunks until the batch or the frame's budget is spent (one chunk at least: a burst always advances). */
	private place(messages: readonly StreamMessage[]): void {
		const end = Math.min(messages.length, this.layout.count + MESSAGES_PER_FRAME);
		const deadline = this.now() + PLACE_BUDGET_MS;
		while (this.layout.count < end) {
			const chunkEnd = Math.min(end, this.layout.count + PLACE_CHUNK);
			for (let i = this.layout.count; i < chunkEnd; i++) this.layout.push(messageHeight(messages[i]));
			if (this.now() >= deadline) return;
		}
	}

	private schedule(): void {
		if (this.frame !== null) return;
		this.frame = window.requestAnimationFrame(() => {
			this.frame = null;
			this.render();
		});
	}

	private render(): void {
		const lines = visibleRows(this.el.scrollTop, this.el.clientHeight || FALLBACK_VIEWPORT_PX, this.lineHeight, this.layout.totalLines, OVERSCAN);
		const count = this.layout.count;
		const first = count === 0 ? 0 : this.layout.messageAt(lines.start);
		const last = count === 0 ? 0 : Math.min(count, this.layout.messageAt(Math.max(lines.start, lines.end - 1)) + 1);
		// New messages below the window change nothing on screen.
		const unchanged = first === this.drawn.first && last === this.drawn.last && (last < count || this.drawn.placed === count);
		if (unchanged) return;
		this.drawn = { first, last, placed: count };
		this.rows.setCssProps({ "--rb-stream-offset": `${this.layout.startOf(first) * this.lineHeight}px` });
		const fragment = createFragment();
		for (let i = first; i < last; i++) this.renderMessage(fragment, this.messages[i], i);
		this.rows.replaceChildren(fragment);
		this.measure();
	}

	private renderMessage(parent: DocumentFragment, m: StreamMessage, index: number): void {
		const el = parent.createDiv({ cls: `rb-stream-message rb-stream-${m.direction}`, attr: { "data-index": String(index) } });
		const head = el.createDiv({ cls: "rb-stream-line rb-stream-head" });
		const label = m.direction === "received" ? t("streamReceived") : t("streamSent");
		head.createSpan({ cls: "rb-stream-dir", text: m.direction === "received" ? "↓" : "↑", attr: { "aria-label": label, title: label } });
		head.createSpan({ cls: "rb-stream-time", text: formatMs(m.atMs) });
		head.createSpan({ cls: "rb-stream-size", text: m.binary ? t("streamBinarySize", { size: formatBytes(m.size) }) : formatBytes(m.size) });
		if (m.event !== undefined) head.createSpan({ cls: "rb-stream-event", text: t("streamEvent", { name: m.event }) });
		if (m.id !== undefined) head.createSpan({ cls: "rb-stream-id", text: t("streamId", { id: m.id }) });
		const { lines, more, json } = messageLines(m);
		// Plain text, JSON too: highlighting each drawn line (two lezer parses a line) cost more than a frame under load.
		const body = el.createDiv({ cls: json ? "rb-stream-data rb-stream-json" : "rb-stream-data" });
		for (const line of lines) body.createDiv({ cls: "rb-stream-line", text: line });
		if (more > 0) body.createDiv({ cls: "rb-stream-line rb-muted", text: t("streamMoreLines", { count: more }) });
	}

	/** Takes the real line height from the first drawn line once (the theme's font decides it). */
	private measure(): void {
		if (this.measured) return;
		const line = this.rows.querySelector<HTMLElement>(".rb-stream-line");
		const h = line?.getBoundingClientRect().height ?? 0;
		if (h <= 0) return;
		this.measured = true;
		if (Math.abs(h - this.lineHeight) <= 0.5) return;
		this.lineHeight = h;
		this.spacer.setCssProps({ "--rb-stream-height": `${this.layout.totalLines * this.lineHeight}px` });
		this.drawn = { first: -1, last: -1, placed: -1 };
		this.render();
	}
}
