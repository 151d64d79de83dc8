import type { StreamClose, StreamHandshake, StreamMessage, StreamPanelModel, StreamProtocol, StreamSnapshot, StreamTiming } from "./stream-model";

/**
 * A StreamPanelModel kept in memory and fed event by event: what an adapter from a runner's
 * callbacks (or a test, or the bench) writes into. Messages are appended in place, so a
 * snapshot costs nothing however many there are; listeners are told of every change and the
 * panel coalesces them into frames.
 */
export class StreamStore implements StreamPanelModel {
	private current: StreamSnapshot;
	private readonly list: StreamMessage[] = [];
	private readonly listeners = new Set<() => void>();

	/** Present only when a sender was given. */
	readonly send?: (text: string) => void;

	/** @param sender sends one text message on the live connection; omitted where the protocol cannot (SSE). */
	constructor(
		protocol: StreamProtocol,
		sender?: (text: string) => void,
	) {
		this.current = { protocol, state: "connecting", handshake: null, messages: this.list, close: null, timing: { count: 0 } };
		if (sender) this.send = (text) => sender(text);
	}

	snapshot(): StreamSnapshot {
		return this.current;
	}

	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** The handshake answered: messages may flow. */
	opened(handshake: StreamHandshake, timing: Omit<StreamTiming, "count" | "firstMessageMs">): void {
		this.update({ state: "open", handshake, timing: { ...this.current.timing, ...timing } });
	}

	/** One message, either way; the first received one sets the time to first message. */
	message(m: StreamMessage): void {
		this.list.push(m);
		const timing = this.current.timing;
		const first = timing.firstMessageMs === undefined && m.direction === "in" ? { firstMessageMs: m.atMs } : {};
		this.update({ timing: { ...timing, ...first, count: this.list.length } });
	}

	/** The stream ended (what arrived is kept). `handshake`: a refused upgrade's answer, when there was one. */
	closed(close: StreamClose, handshake?: StreamHandshake): void {
		this.update({ state: "closed", close, ...(handshake ? { handshake } : {}) });
	}

	private update(change: Partial<StreamSnapshot>): void {
		this.current = { ...this.current, ...change };
		for (const l of this.listeners) l();
	}
}
