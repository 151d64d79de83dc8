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
	private firstMessageMs: number | undefined;

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
		const timing = this.current.timing;
		if (timing.count !== this.list.length || timing.firstMessageMs !== this.firstMessageMs) {
			this.current = { ...this.current, timing: { ...timing, count: this.list.length, ...(this.firstMessageMs === undefined ? {} : { firstMessageMs: this.firstMessageMs }) } };
		}
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

	/**
	 * One message, either way; the first received one sets the time to first message. Nothing is
	 * allocated per message: the next snapshot() reads the count (a burst of 100,000 stays cheap).
	 */
	message(m: StreamMessage): void {
		this.list.push(m);
		if (this.firstMessageMs === undefined && m.direction === "received") this.firstMessageMs = m.atMs;
		for (const l of this.listeners) l();
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
