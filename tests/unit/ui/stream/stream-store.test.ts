import { StreamStore } from "../../../../src/ui/stream/stream-store";

describe("StreamStore", () => {
	it("moves connecting → open → closed and keeps what arrived", () => {
		const store = new StreamStore("websocket", () => undefined);
		expect(store.snapshot().state).toBe("connecting");
		store.opened({ status: 101, statusText: "Switching Protocols", headers: [["upgrade", "websocket"]] }, { connectMs: 2, handshakeMs: 5 });
		store.message({ direction: "sent", atMs: 0, data: "hi", binary: false, size: 2 });
		store.message({ direction: "received", atMs: 7, data: "hello", binary: false, size: 5 });
		store.closed({ code: 1000, reason: "bye", why: "server_closed" });
		const s = store.snapshot();
		expect(s.state).toBe("closed");
		expect(s.messages.map((m) => m.data)).toEqual(["hi", "hello"]);
		expect(s.timing).toEqual({ connectMs: 2, handshakeMs: 5, firstMessageMs: 7, count: 2 });
		expect(s.close).toEqual({ code: 1000, reason: "bye", why: "server_closed" });
	});

	it("times the first message received, not the first sent", () => {
		const store = new StreamStore("websocket");
		store.message({ direction: "sent", atMs: 1, data: "a", binary: false, size: 1 });
		expect(store.snapshot().timing.firstMessageMs).toBeUndefined();
		store.message({ direction: "received", atMs: 9, data: "b", binary: false, size: 1 });
		store.message({ direction: "received", atMs: 12, data: "c", binary: false, size: 1 });
		expect(store.snapshot().timing.firstMessageMs).toBe(9);
	});

	it("appends in place, so a snapshot costs nothing at 100,000 messages", () => {
		const store = new StreamStore("sse");
		const before = store.snapshot().messages;
		store.message({ direction: "received", atMs: 0, data: "a", binary: false, size: 1 });
		expect(store.snapshot().messages).toBe(before);
	});

	it("tells every listener of every change until it unsubscribes", () => {
		const store = new StreamStore("sse");
		let calls = 0;
		const off = store.subscribe(() => calls++);
		store.message({ direction: "received", atMs: 0, data: "a", binary: false, size: 1 });
		off();
		store.message({ direction: "received", atMs: 1, data: "b", binary: false, size: 1 });
		expect(calls).toBe(1);
	});

	it("can send only when given a sender (SSE cannot)", () => {
		const sent: string[] = [];
		expect(new StreamStore("sse").send).toBeUndefined();
		new StreamStore("websocket", (t) => sent.push(t)).send?.("x");
		expect(sent).toEqual(["x"]);
	});

	it("shows a refused upgrade's answer given with the close", () => {
		const store = new StreamStore("websocket");
		store.closed({ code: null, reason: "", why: "failed" }, { status: 401, statusText: "Unauthorized", headers: [] });
		expect(store.snapshot().handshake?.status).toBe(401);
	});
});
