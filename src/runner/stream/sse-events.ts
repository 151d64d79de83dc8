import type * as EventsourceParser from "eventsource-parser";
import type { EventSourceMessage } from "eventsource-parser";

/** An SSE event as the stream keeps it. `retry`: the server's reconnection delay, when it sent one. */
export type SseEvent = EventSourceMessage;

/**
 * Reads `text/event-stream` bytes as they arrive, with `eventsource-parser` (the WHATWG rules:
 * `event:`, `id:`, multi-line `data:`, comments, `retry:`). Bytes are decoded as a stream, so a
 * UTF-8 sequence split across two chunks is read whole.
 */
export function sseReader(onEvent: (event: SseEvent) => void, onRetry?: (ms: number) => void): { feed(chunk: Uint8Array): void; end(): void } {
	const decoder = new TextDecoder("utf-8");
	// Required here: main.js carries the parser as a text module, compiled on the first stream (docs/architecture.md, "Text modules").
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	const parser = (require("eventsource-parser") as typeof EventsourceParser).createParser({ onEvent, onRetry });
	return {
		feed: (chunk) => parser.feed(decoder.decode(chunk, { stream: true })),
		end: () => parser.feed(decoder.decode()),
	};
}

/** The events of a whole `text/event-stream` body (an http block's response read as a stream). */
export function sseEventsOf(body: Uint8Array): SseEvent[] {
	const events: SseEvent[] = [];
	const reader = sseReader((e) => events.push(e));
	reader.feed(body);
	reader.end();
	return events;
}

/** Whether a response is an event stream, by its Content-Type. */
export function isEventStream(headers: ReadonlyArray<[string, string]>): boolean {
	return headers.some(([n, v]) => n.toLowerCase() === "content-type" && /^\s*text\/event-stream\b/i.test(v));
}
