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

/**
 * The UTF-8 length of a string, as TextEncoder would encode it (a lone surrogate as U+FFFD, 3
 * bytes), without encoding it: a fast stream sizes every message, and only the count is needed.
 */
export function utf8Length(text: string): number {
	let bytes = text.length;
	for (let i = 0; i < text.length; i++) {
		const unit = text.charCodeAt(i);
		if (unit < 0x80) continue;
		if (unit < 0x800) bytes += 1;
		else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			bytes += 2; // a pair: two units, four bytes
			i++;
		} else bytes += 2;
	}
	return bytes;
}

/** A text message as kept: its UTF-8 size. */
export function textMessage(direction: StreamMessage["direction"], atMs: number, text: string, sse?: { event?: string; id?: string }): StreamMessage {
	return { direction, atMs, data: text, binary: false, size: utf8Length(text), ...(sse?.event ? { event: sse.event } : {}), ...(sse?.id ? { id: sse.id } : {}) };
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
