import { MAX_BODY_BYTES } from "../request";
import type { StreamCounts, StreamMessage } from "./stream-run";

/**
 * A stream's messages as they arrive, both ways, with their counts. The text kept is bounded
 * like a response body (docs/architecture.md, "Body cap"): a message that would pass 100 MB in
 * total is not kept, and the stream ends with `[body_too_large]`.
 */
export class MessageLog {
	/** Append-only: every snapshot of the run shares it (`StreamRunFields.messages`). */
	readonly messages: StreamMessage[] = [];
	private counted: StreamCounts = { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0 };
	private kept = 0;

	constructor(private readonly maxBytes = MAX_BODY_BYTES) {}

	/** Keeps a message; false when it would pass the cap (it is not kept). */
	add(message: StreamMessage): boolean {
		if (this.kept + message.data.length > this.maxBytes) return false;
		this.kept += message.data.length;
		this.messages.push(message);
		const c = this.counted;
		this.counted =
			message.direction === "received"
				? { received: c.received + 1, sent: c.sent, receivedBytes: c.receivedBytes + message.size, sentBytes: c.sentBytes }
				: { received: c.received, sent: c.sent + 1, receivedBytes: c.receivedBytes, sentBytes: c.sentBytes + message.size };
		return true;
	}

	/** The counts now (a new object per message, so a snapshot keeps its own). */
	get counts(): StreamCounts {
		return this.counted;
	}

	/** The text kept so far, in UTF-16 units (what the cap bounds). */
	get keptBytes(): number {
		return this.kept;
	}
}

const encoder = new TextEncoder();

/** A text message as kept: its UTF-8 size. */
export function textMessage(direction: StreamMessage["direction"], atMs: number, text: string, sse?: { event?: string; id?: string }): StreamMessage {
	return { direction, atMs, data: text, binary: false, size: encoder.encode(text).byteLength, ...(sse?.event ? { event: sse.event } : {}), ...(sse?.id ? { id: sse.id } : {}) };
}

/** A binary message as kept: base64 of its bytes. */
export function binaryMessage(direction: StreamMessage["direction"], atMs: number, bytes: Uint8Array): StreamMessage {
	return { direction, atMs, data: base64Of(bytes), binary: true, size: bytes.byteLength };
}

function base64Of(bytes: Uint8Array): string {
	let s = "";
	for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(s);
}
