import { LiveMessages, messageLine, streamJson, streamSummary } from "../../../src/cli/stream-output";
import type { StreamRun } from "../../../src/runner/stream/stream-run";

const run = {
	kind: "sse",
	state: "done",
	messages: [
		{ direction: "received", atMs: 12.34, data: '{"n": 1}', binary: false, size: 8, event: "tick", id: "1" },
		{ direction: "sent", atMs: 20, data: "AAEC", binary: true, size: 3 },
		{ direction: "received", atMs: 30, data: "not yet in this snapshot", binary: false, size: 24 },
	],
	counts: { received: 1, sent: 1, receivedBytes: 8, sentBytes: 3 },
	close: { code: 1000, reason: "", why: "max_messages" },
} as StreamRun;

describe("stream output of the CLI", () => {
	it("a message line: direction, time, event and id, a preview; binary as its size", () => {
		expect(messageLine(run.messages[0])).toBe('  ←    12 ms  tick#1  {"n": 1}');
		expect(messageLine(run.messages[1])).toBe("  →    20 ms  (binary, 3 B)");
	});

	it("the summary names the close and the counts", () => {
		expect(streamSummary(run)).toBe("closed 1000 (max messages), 1 received (8 B), 1 sent (3 B)");
	});

	it("--json holds only the snapshot's messages, binary as dataBase64", () => {
		expect(streamJson(run).messages).toEqual([
			{ direction: "received", atMs: 12.3, data: '{"n": 1}', size: 8, event: "tick", id: "1" },
			{ direction: "sent", atMs: 20, dataBase64: "AAEC", size: 3 },
		]);
	});

	it("prints each message once, as snapshots grow", () => {
		const lines: string[] = [];
		const live = new LiveMessages((s) => lines.push(s));
		const block = {} as Parameters<LiveMessages["update"]>[0];
		live.update(block, { ...run, counts: { ...run.counts, sent: 0 } });
		live.update(block, run);
		live.update(block, run);
		expect(lines).toHaveLength(2);
	});
});
