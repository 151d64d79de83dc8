/**
 * For jsdom specs of the stream panel: Obsidian's DOM helpers (the browser host's shim), frames
 * run when the test says so, and the list's box given the layout jsdom does not compute.
 */
import { installDomHelpers } from "../e2e/host/obsidian-shim";
import type { StreamMessage } from "../../src/ui/stream/stream-model";

/** Animation frames queued until `next()` runs them (no clock, no waiting). */
export class ManualFrames {
	private queue = new Map<number, FrameRequestCallback>();
	private id = 0;

	constructor() {
		installDomHelpers();
		window.requestAnimationFrame = (cb) => this.request(cb);
		window.cancelAnimationFrame = (n) => this.cancel(n);
	}

	get pending(): number {
		return this.queue.size;
	}

	/** Runs the frames requested so far (those they request wait for the next call). */
	next(): void {
		const run = this.queue;
		this.queue = new Map();
		for (const cb of run.values()) cb(0);
	}

	private request(cb: FrameRequestCallback): number {
		this.queue.set(++this.id, cb);
		return this.id;
	}

	private cancel(n: number): void {
		this.queue.delete(n);
	}
}

/** Gives the scroll box `el` a viewport of `height` px and the scroll height its spacer sets. */
export function layOut(el: HTMLElement, height: number): void {
	const spacer = el.firstElementChild as HTMLElement;
	Object.defineProperty(el, "clientHeight", { configurable: true, get: () => height });
	Object.defineProperty(el, "scrollHeight", { configurable: true, get: () => Math.max(height, parseFloat(spacer.style.getPropertyValue("--rb-stream-height")) || 0) });
}

/** `n` one-line text messages received 1 ms apart, numbered from `from`. */
export function textMessages(n: number, from = 0): StreamMessage[] {
	return Array.from({ length: n }, (_, k) => ({ direction: "received", atMs: from + k, data: `message ${from + k}`, binary: false, size: `message ${from + k}`.length }));
}
