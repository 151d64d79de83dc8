import { isEventStream, sseEventsOf, sseReader, type SseEvent } from "../../../../src/runner/stream/sse-events";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("sseEventsOf", () => {
	it("reads event names, ids, multi-line data, and skips comments", () => {
		const events = sseEventsOf(bytes(": hello\nevent: tick\nid: 1\ndata: a\ndata: b\n\ndata: plain\n\n"));
		expect(events).toEqual([
			expect.objectContaining({ event: "tick", id: "1", data: "a\nb" }),
			expect.objectContaining({ data: "plain" }),
		]);
		expect(events[1]?.event).toBeUndefined();
	});

	it("drops an event the body ends before its blank line", () => {
		expect(sseEventsOf(bytes("data: whole\n\ndata: cut"))).toHaveLength(1);
	});
});

describe("sseReader", () => {
	it("reads a UTF-8 character split across two chunks whole", () => {
		const events: SseEvent[] = [];
		const reader = sseReader((e) => events.push(e));
		const all = bytes("data: €\n\n");
		reader.feed(all.subarray(0, 8));
		reader.feed(all.subarray(8));
		reader.end();
		expect(events.map((e) => e.data)).toEqual(["€"]);
	});

	it("reports the server's retry delay", () => {
		const retries: number[] = [];
		const reader = sseReader(() => undefined, (ms) => retries.push(ms));
		reader.feed(bytes("retry: 2500\n\n"));
		expect(retries).toEqual([2500]);
	});
});

describe("isEventStream", () => {
	it.each([
		[[["Content-Type", "text/event-stream"]], true],
		[[["content-type", " TEXT/Event-Stream; charset=utf-8"]], true],
		[[["Content-Type", "text/event-streams"]], false],
		[[["Content-Type", "application/json"]], false],
		[[["X-Type", "text/event-stream"]], false],
		[[], false],
	] as Array<[Array<[string, string]>, boolean]>)("%j is an event stream: %s", (headers, expected) => {
		expect(isEventStream(headers)).toBe(expected);
	});
});
