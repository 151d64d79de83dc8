import type { BlockRunContext } from "../../../../src/runner/kind-runner";
import type { PreparedRequest } from "../../../../src/runner/request";
import { endOf, StreamProgress, streamFailedBeforeStart, streamHistory } from "../../../../src/runner/stream/stream-progress";
import { textMessage } from "../../../../src/runner/stream/message-log";
import type { StreamEnd, StreamRunFields } from "../../../../src/runner/stream/stream-run";
import type { ResponseHead } from "../../../../src/runner/transport";

const request: PreparedRequest = { method: "GET", url: "http://127.0.0.1:1/events", headers: [], body: "", followRedirects: true, timeoutMs: 1000 };
const head: ResponseHead = { status: 200, statusText: "OK", headers: [], httpVersion: "1.1", url: "http://127.0.0.1:1/events", redirects: 0 };

/** A progress on a clock moved by hand, recording every snapshot it publishes. */
function progress() {
	let now = 1000;
	const seen: Array<StreamRunFields<"sse">> = [];
	const p = new StreamProgress("sse", request, "node", (s) => seen.push(s), () => now);
	return { p, seen, tick: (ms: number) => (now += ms) };
}

describe("endOf", () => {
	it.each<[StreamEnd, "connecting" | "open", string, string | undefined]>([
		["server_closed", "open", "complete", undefined],
		["steps_done", "open", "complete", undefined],
		["max_messages", "open", "complete", undefined],
		["duration", "open", "complete", undefined],
		["timeout", "open", "complete", undefined],
		["timeout", "connecting", "timeout", "timeout"],
		["cancelled", "open", "cancel", "cancelled"],
		["body_too_large", "open", "fail", "body_too_large"],
	])("%s while %s moves the run by %s with error %s", (why, phase, event, code) => {
		const end = endOf(why, phase);
		expect(end.event).toBe(event);
		expect(end.error?.code).toBe(code);
	});

	it("ends a failed stream with the transport's own failure", () => {
		const failure = { code: "stream_broken", message: "broken" } as never;
		expect(endOf("failed", "open", failure)).toEqual({ event: "fail", error: failure });
	});
});

describe("StreamProgress", () => {
	it("starts running, with the start time and an empty log", () => {
		const { p, seen } = progress();
		expect(seen.map((s) => s.state)).toEqual(["running"]);
		expect(p.run).toMatchObject({ kind: "sse", state: "running", startedAt: 1000, transport: "node", counts: { received: 0 } });
	});

	it("times the handshake, the first received message and the total from the injected clock", () => {
		const { p, tick } = progress();
		tick(40);
		p.opened(head);
		tick(10);
		p.add(textMessage("sent", p.sinceOpen(), "hi"));
		tick(15);
		p.add(textMessage("received", p.sinceOpen(), "a"));
		tick(5);
		p.add(textMessage("received", p.sinceOpen(), "b"));
		expect(p.run.timing).toEqual({ handshake: 40, firstMessage: 65, total: 70 });
		expect(p.sinceOpen()).toBe(30);
		expect(p.run.state).toBe("streaming");
		expect(p.run.head).toBe(head);
	});

	it("measures nothing since open before the stream opened", () => {
		const { p, tick } = progress();
		tick(50);
		expect(p.sinceOpen()).toBe(0);
	});

	it("opens the stream on a message that came before any head", () => {
		const { p, seen } = progress();
		expect(p.add(textMessage("received", 0, "early"))).toBe(true);
		expect(seen.map((s) => s.state)).toEqual(["running", "streaming", "streaming"]);
	});

	it("publishes each message's counts in its own snapshot", () => {
		const { p, seen } = progress();
		p.opened(head);
		p.add(textMessage("received", 0, "a"));
		p.add(textMessage("received", 0, "b"));
		expect(seen.slice(-2).map((s) => s.counts.received)).toEqual([1, 2]);
	});

	it("refuses a message past the cap without publishing it", () => {
		const { p, seen } = progress();
		p.opened(head);
		(p.log as unknown as { maxBytes: number }).maxBytes = 2;
		const before = seen.length;
		expect(p.add(textMessage("received", 0, "toolong"))).toBe(false);
		expect(seen).toHaveLength(before);
	});

	it("finishes with how it closed, the final counts and timing, and drops `send`", () => {
		const { p, tick } = progress();
		p.opened(head, { send: () => undefined } as never);
		expect((p.run as { send?: unknown }).send).toBeDefined();
		p.add(textMessage("received", 0, "a"));
		tick(100);
		const result = p.finish("server_closed", "open", { code: 1000, reason: "bye" });
		expect(result).toMatchObject({ state: "done", close: { code: 1000, reason: "bye", why: "server_closed" }, counts: { received: 1 }, timing: { total: 100 } });
		expect((result as { send?: unknown }).send).toBeUndefined();
		expect(result.error).toBeUndefined();
	});

	it.each<[StreamEnd, "connecting" | "open", string]>([
		["cancelled", "open", "cancelled"],
		["timeout", "connecting", "cancelled"],
		["body_too_large", "open", "failed"],
	])("finishing by %s while %s ends %s", (why, phase, state) => {
		const { p } = progress();
		if (phase === "open") p.opened(head);
		expect(p.finish(why, phase, { code: null, reason: "" }).state).toBe(state);
	});
});

describe("streamHistory", () => {
	const ctx = (maskUrl?: (u: string) => string) => ({ execute: { filePath: "n.md", historyAlias: "feed", ...(maskUrl ? { maskUrl } : {}) } }) as unknown as BlockRunContext;

	function finished(kind: "sse" | "websocket", url: string) {
		let now = 0;
		const p = new StreamProgress(kind, { ...request, url }, "node", undefined, () => now);
		p.opened({ ...head, status: 101 });
		p.add(textMessage("received", 0, "abc"));
		p.add(textMessage("sent", 0, "hi"));
		now = 250;
		return p.finish("server_closed", "open", { code: 1000, reason: "" });
	}

	it("records one row per stream, with its close code, both directions' bytes and message counts", () => {
		expect(streamHistory("GET", finished("sse", "http://h/e"), ctx(), "node")).toMatchObject({
			filePath: "n.md",
			alias: "feed",
			method: "GET",
			url: "http://h/e",
			status: 101,
			outcome: "done",
			errorCode: null,
			requestBytes: 2,
			responseBytes: 3,
			durationMs: 250,
			transport: "node",
			itemCount: 1,
			closeCode: 1000,
			sentCount: 1,
		});
	});

	it.each([
		["http://h/ws", "ws://h/ws"],
		["https://h/ws", "wss://h/ws"],
	])("shows a WebSocket's %s as %s", (url, shown) => {
		expect(streamHistory("GET", finished("websocket", url), ctx(), "node").url).toBe(shown);
	});

	it("shows the masked URL, then the host's mask over it", () => {
		const result = finished("sse", "http://h/?k=secret");
		result.request = { ...result.request!, masked: { url: "http://h/?k=•••", target: "/?k=•••", headers: [], body: "", withReferences: { url: "http://h/?k={{k}}", headers: [], body: "" } } };
		expect(streamHistory("GET", result, ctx((u) => `<${u}>`), "node").url).toBe("<http://h/?k=•••>");
	});

	it("records a failed stream's outcome and code", () => {
		const failed = streamFailedBeforeStart("sse", { code: "invalid_block", message: "bad" } as never);
		expect(streamHistory("GET", failed, ctx(), "node")).toMatchObject({ url: "", outcome: "failed", errorCode: "invalid_block", status: null, durationMs: 0, closeCode: null, sentCount: 0 });
	});
});

describe("streamFailedBeforeStart", () => {
	it("is a failed run with nothing sent or received", () => {
		const error = { code: "invalid_block", message: "bad" } as never;
		expect(streamFailedBeforeStart("websocket", error)).toEqual({ kind: "websocket", state: "failed", error, messages: [], counts: { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0 } });
	});
});
