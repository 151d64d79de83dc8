import { Component } from "obsidian";
import { LineStore } from "../../runner/response/line-store";

/** Lines rendered above and below the visible window, so fast scrolling shows no gaps. */
const OVERSCAN = 30;
/** Fallback row height until one row has been measured. */
const DEFAULT_LINE_HEIGHT = 18;

/**
 * A read-only text view that only puts the visible lines in the DOM, so a body of
 * millions of lines stays responsive. Text is appended in slices as it is decoded and
 * formatted; every line becomes a text node (never markup).
 */
export class VirtualText extends Component {
	readonly el: HTMLElement;
	private readonly spacer: HTMLElement;
	private readonly rows: HTMLElement;
	private lines = new LineStore();
	private lineHeight = DEFAULT_LINE_HEIGHT;
	private measured = false;
	private frame: number | null = null;
	/** What the last render drew: the window, the line count, and how many lines were complete then. */
	private rendered = { first: -1, last: -1, count: -1, complete: -1 };

	/**
	 * @param renderLine fills one visible line's element (e.g. highlighted spans); plain text
	 * when omitted. Called only for the lines on screen, each time they are rendered.
	 */
	constructor(
		parent: HTMLElement,
		cls = "",
		private readonly renderLine?: (el: HTMLElement, text: string) => void,
	) {
		super();
		this.el = parent.createDiv({ cls: `rb-vtext ${cls}`.trim() });
		this.spacer = this.el.createDiv({ cls: "rb-vtext-spacer" });
		this.rows = this.spacer.createDiv({ cls: "rb-vtext-rows" });
	}

	override onload(): void {
		this.registerDomEvent(this.el, "scroll", () => this.schedule());
	}

	override onunload(): void {
		if (this.frame !== null) window.cancelAnimationFrame(this.frame);
		this.el.remove();
	}

	/** Appends text; a trailing partial line waits for the rest. */
	append(text: string): void {
		if (!text) return;
		this.lines.append(text);
		this.schedule();
	}

	/** Flushes the last partial line. */
	finish(): void {
		this.lines.finish();
		this.schedule();
	}

	setText(text: string): void {
		this.lines = new LineStore();
		this.rendered.first = -1;
		this.append(text);
		this.finish();
	}

	get lineCount(): number {
		return this.lines.length + (this.lines.pending ? 1 : 0);
	}

	/** Renders now instead of on the next frame (used for the first screen). */
	renderNow(): void {
		if (this.frame !== null) {
			window.cancelAnimationFrame(this.frame);
			this.frame = null;
		}
		this.render();
	}

	private schedule(): void {
		if (this.frame !== null) return;
		this.frame = window.requestAnimationFrame(() => {
			this.frame = null;
			this.render();
		});
	}

	private render(): void {
		const total = this.lineCount;
		const viewHeight = this.el.clientHeight || 400;
		const first = Math.max(0, Math.floor(this.el.scrollTop / this.lineHeight) - OVERSCAN);
		const last = Math.min(total, Math.ceil((this.el.scrollTop + viewHeight) / this.lineHeight) + OVERSCAN);
		this.spacer.setCssProps({ "--rb-vtext-height": `${total * this.lineHeight}px` });
		// The lines on screen are drawn again only when they change: text appended below the window
		// (a body still being formatted) moves the scroll height alone. Highlighting the window again
		// on every frame of the formatting was most of a long task (bench/pin).
		const unchanged = first === this.rendered.first && last === this.rendered.last && (total === this.rendered.count || last <= this.rendered.complete);
		this.rendered = { first, last, count: total, complete: this.lines.length };
		if (unchanged) return;
		this.rows.setCssProps({ "--rb-vtext-offset": `${first * this.lineHeight}px` });
		const fragment = createFragment();
		for (let i = first; i < last; i++) {
			const text = i < this.lines.length ? this.lines.line(i) : this.lines.pending;
			if (this.renderLine) this.renderLine(fragment.createDiv({ cls: "rb-vtext-line" }), text);
			else fragment.createDiv({ cls: "rb-vtext-line", text });
		}
		this.rows.replaceChildren(fragment);
		if (!this.measured && this.rows.firstElementChild) {
			const h = (this.rows.firstElementChild as HTMLElement).getBoundingClientRect().height;
			if (h > 0) {
				this.measured = true;
				if (Math.abs(h - this.lineHeight) > 0.5) {
					this.lineHeight = h;
					this.rendered.first = -1;
					this.render();
				}
			}
		}
	}
}
