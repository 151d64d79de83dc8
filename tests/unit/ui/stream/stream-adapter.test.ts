import { NoteSession } from "../../../../src/runner/session";
import type { PreparedRequest } from "../../../../src/runner/request";
import { textMessage } from "../../../../src/runner/stream/message-log";
import { StreamProgress } from "../../../../src/runner/stream/stream-progress";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";
import type { ResponseHead } from "../../../../src/runner/transport";
import { isRefusedUpgrade, SessionStreamModel, showsAsStream, streamSnapshotOf } from "../../../../src/ui/stream/stream-adapter";

const KEY = "note.md#ws";
const request = { method: "GET", url: "http://127.0.0.1:1/", headers: [] } as unknown as PreparedRequest;
const head = (status: number): ResponseHead => ({ status, statusText: status === 101 ? "Switching Protocols" : "Unauthorized", httpVersion: "1.1", headers: [["upgrade", "websocket"]], url: "http://127.0.0.1:1/", redirects: 0 });

/** A stream run driven through the core's own progress, publishing to a session, on a clock the test moves. */
function streamOn<K extends "sse" | "websocket">(kind: K, session: NoteSession) {
	const clock = { now: 1000 };
	const progress = new StreamProgress(kind, request, "ws", (s) => session.update(KEY, s as StreamRun), () => clock.now);
	return { clock, progress };
}

describe("stream adapter", () => {
	it("maps connecting, open and closed from the run's state and head", () => {
		const session = new NoteSession();
		const { clock, progress } = streamOn("websocket", session);
		expect(streamSnapshotOf(progress.run).state).toBe("connecting");
		expect(streamSnapshotOf(progress.run).handshake).toBeNull();
		clock.now = 1030;
		progress.opened(head(101));
		const open = streamSnapshotOf(progress.run);
		expect(open.state).toBe("open");
		expect(open.handshake).toEqual({ status: 101, statusText: "Switching Protocols", headers: [["upgrade", "websocket"]] });
		const closed = streamSnapshotOf(progress.finish("server_closed", "open", { code: 1000, reason: "bye" }));
		expect(closed.state).toBe("closed");
		expect(closed.close).toEqual({ code: 1000, reason: "bye", why: "server_closed" });
	});

	it("hands the run's message array over as is and counts both directions", () => {
		const session = new NoteSession();
		const { clock, progress } = streamOn("websocket", session);
		clock.now = 1010;
		progress.opened(head(101));
		progress.add(textMessage("sent", 0, "hi"));
		clock.now = 1050;
		progress.add(textMessage("received", 40, "hello"));
		const s = streamSnapshotOf(progress.run);
		expect(s.messages).toBe(progress.run.messages);
		expect(s.messages.map((m) => m.data)).toEqual(["hi", "hello"]);
		expect(s.timing.count).toBe(2);
	});

	it("times the first message from the handshake, not from the start", () => {
		const session = new NoteSession();
		const { clock, progress } = streamOn("sse", session);
		clock.now = 1030;
		progress.opened(head(200));
		clock.now = 1100;
		progress.add(textMessage("received", 70, "tick"));
		expect(streamSnapshotOf(progress.run).timing).toEqual({ handshakeMs: 30, firstMessageMs: 70, count: 1 });
	});

	it("keeps a refused upgrade for the http tabs", () => {
		const session = new NoteSession();
		const { progress } = streamOn("websocket", session);
		const refused = progress.finish("failed", "connecting", { code: null, reason: "" }, { head: head(401), body: new TextEncoder().encode("no") });
		expect(isRefusedUpgrade(refused)).toBe(true);
		expect(showsAsStream(refused)).toBe(false);
		expect(showsAsStream(progress.run)).toBe(false);
		const { progress: ok } = streamOn("websocket", new NoteSession());
		ok.opened(head(101));
		expect(showsAsStream(ok.run)).toBe(true);
		expect(showsAsStream({ state: "idle" })).toBe(false);
	});

	it("follows the session's snapshots for its block and stops when unsubscribed", () => {
		const session = new NoteSession();
		const { progress } = streamOn("sse", session);
		const model = new SessionStreamModel(session, KEY, progress.run);
		let calls = 0;
		const off = model.subscribe(() => calls++);
		progress.opened(head(200));
		expect(calls).toBeGreaterThan(0);
		expect(model.snapshot().state).toBe("open");
		const seen = calls;
		off();
		progress.add(textMessage("received", 1, "x"));
		expect(calls).toBe(seen);
	});

	it("maps each core snapshot once, however often the panel asks", () => {
		const session = new NoteSession();
		const { progress } = streamOn("sse", session);
		const model = new SessionStreamModel(session, KEY, progress.run);
		expect(model.snapshot()).toBe(model.snapshot());
	});

	it("sends through the latest snapshot's send, and only for WebSocket", () => {
		const session = new NoteSession();
		const { progress } = streamOn("websocket", session);
		const model = new SessionStreamModel(session, KEY, progress.run);
		model.subscribe(() => undefined);
		const sent: string[] = [];
		progress.opened(head(101), { send: (text) => sent.push(text) > 0 });
		model.send?.("ping");
		expect(sent).toEqual(["ping"]);
		const sse = streamOn("sse", new NoteSession()).progress.run as StreamRun;
		expect(new SessionStreamModel(new NoteSession(), KEY, sse).send).toBeUndefined();
	});
});
