import { textMessage } from "../../../../src/runner/stream/message-log";
import { isStreamRun, messagesOf, receivedOf, type StreamMessage } from "../../../../src/runner/stream/stream-run";
import type { RunSnapshot } from "../../../../src/runner/result";

const log: StreamMessage[] = [textMessage("received", 0, "a"), textMessage("sent", 1, "b"), textMessage("received", 2, "c"), textMessage("received", 3, "d")];
const counts = (received: number, sent: number) => ({ received, sent, receivedBytes: 0, sentBytes: 0 });

describe("messagesOf", () => {
	it("gives a snapshot its own first messages, though the shared log has grown since", () => {
		expect(messagesOf({ messages: log, counts: counts(2, 1) }).map((m) => m.data)).toEqual(["a", "b", "c"]);
	});

	it("gives the whole log when the snapshot is the latest", () => {
		expect(messagesOf({ messages: log, counts: counts(3, 1) })).toBe(log);
	});
});

describe("receivedOf", () => {
	it("keeps the received messages of the snapshot, in order", () => {
		expect(receivedOf({ messages: log, counts: counts(2, 1) }).map((m) => m.data)).toEqual(["a", "c"]);
	});
});

describe("isStreamRun", () => {
	it.each([
		["sse", true],
		["websocket", true],
		["http", false],
		["db", false],
	])("a %s run is a stream's: %s", (kind, expected) => {
		expect(isStreamRun({ kind, state: "done" } as unknown as RunSnapshot)).toBe(expected);
	});
});
