import type * as EventsourceParser from "eventsource-parser";

/**
 * Bytes of a `text/event-stream` in, `data:` payloads out. Chunks may split anywhere — inside a
 * UTF-8 sequence, a line, a `data:` field — so bytes go through one streaming decoder and a
 * maintained SSE parser, never a per-chunk split on newlines.
 */
export function createSseReader(onData: (data: string) => void): { push(bytes: Uint8Array): void; end(): void } {
	const decoder = new TextDecoder("utf-8");
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a text module of main.js, compiled on the first stream (docs/architecture.md, "Text modules")
	const parser = (require("eventsource-parser") as typeof EventsourceParser).createParser({ onEvent: (event) => onData(event.data) });
	return {
		push: (bytes) => parser.feed(decoder.decode(bytes, { stream: true })),
		// An event without its closing blank line is dropped, as the SSE spec (and browsers) do.
		end: () => parser.feed(decoder.decode()),
	};
}
