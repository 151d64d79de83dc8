/** @jest-environment jsdom */
import { MESSAGES_PER_FRAME } from "../../../../src/ui/stream/message-list";
import { StreamStore } from "../../../../src/ui/stream/stream-store";
import { StreamView } from "../../../../src/ui/stream/stream-view";
import { layOut, ManualFrames, textMessages } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

const HANDSHAKE = { status: 101, statusText: "Switching Protocols", headers: [["Upgrade", "websocket"], ["Sec-WebSocket-Accept", "abc="]] as Array<[string, string]> };

function mount(store: StreamStore): { view: StreamView; frames: ManualFrames; text: (selector: string) => string } {
	const frames = new ManualFrames();
	document.body.empty();
	// A clock that stands still: each frame places exactly MESSAGES_PER_FRAME, however busy the machine.
	const view = new StreamView(document.body, store, () => 0);
	view.load();
	layOut(view.messages.el, 180);
	return { view, frames, text: (selector) => view.el.querySelector(selector)?.textContent ?? "" };
}

describe("StreamView", () => {
	it("draws once a frame however many changes arrive, and keeps drawing while a burst is placed", () => {
		const store = new StreamStore("websocket");
		const { view, frames } = mount(store);
		store.opened(HANDSHAKE, { connectMs: 1, handshakeMs: 3 });
		for (const m of textMessages(3 * MESSAGES_PER_FRAME)) store.message(m);
		expect(frames.pending).toBe(1);
		frames.next();
		expect(view.messages.placed).toBe(MESSAGES_PER_FRAME);
		frames.next();
		frames.next();
		expect(view.messages.placed).toBe(3 * MESSAGES_PER_FRAME);
		frames.next();
		expect(frames.pending).toBe(0);
	});

	it("shows the state, the count, and how the stream ended with its close code and reason", () => {
		const store = new StreamStore("websocket");
		const { frames, text } = mount(store);
		frames.next();
		expect(text(".rb-stream-state")).toBe("Connecting…");
		store.opened(HANDSHAKE, { connectMs: 1, handshakeMs: 3 });
		store.message({ direction: "received", atMs: 4, data: "hi", binary: false, size: 2 });
		store.closed({ code: 4001, reason: "going away", why: "server_closed" });
		frames.next();
		expect([text(".rb-stream-state"), text(".rb-stream-count"), text(".rb-stream-close")]).toEqual(["Closed", "1 message", "Closed by the server · code 4001 · going away"]);
	});

	it("offers the send box only while a stream that can send is open", () => {
		const sent: string[] = [];
		const store = new StreamStore("websocket", (t) => sent.push(t));
		const { view, frames } = mount(store);
		const input = view.el.querySelector(".rb-stream-send-input") as HTMLTextAreaElement;
		frames.next();
		expect(input.readOnly).toBe(true);
		store.opened(HANDSHAKE, {});
		frames.next();
		input.value = "ping";
		input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", cancelable: true }));
		expect(sent).toEqual(["ping"]);
		store.closed({ code: 1000, reason: "", why: "cancelled" });
		frames.next();
		expect(input.readOnly).toBe(true);
	});

	it("has no send box for SSE", () => {
		const { view } = mount(new StreamStore("sse"));
		expect(view.el.querySelector(".rb-stream-send")).toBeNull();
	});

	it("shows the handshake's status and headers on the Headers tab, a refused upgrade included", () => {
		const store = new StreamStore("websocket");
		const { view, frames, text } = mount(store);
		store.closed({ code: null, reason: "", why: "failed" }, { status: 401, statusText: "Unauthorized", headers: [["WWW-Authenticate", "Bearer"]] });
		frames.next();
		(view.el.querySelector('[data-tab="headers"]') as HTMLElement).click();
		expect(text(".rb-stream-status")).toBe("401 Unauthorized");
		expect(text(".rb-headers tbody")).toBe("WWW-AuthenticateBearer");
		expect(view.messages.el.closest(".rb-stream-pane")?.classList.contains("rb-hidden")).toBe(true);
	});

	it("shows connect, handshake, time to first message and the count on the Timing tab", () => {
		const store = new StreamStore("websocket");
		const { view, frames } = mount(store);
		store.opened(HANDSHAKE, { connectMs: 12, handshakeMs: 30 });
		store.message({ direction: "received", atMs: 45, data: "x", binary: false, size: 1 });
		frames.next();
		(view.el.querySelector('[data-tab="timing"]') as HTMLElement).click();
		const rows = Array.from(view.el.querySelectorAll(".rb-stream-timing .rb-timing-row")).map((r) => Array.from(r.children).map((c) => c.textContent));
		expect(rows).toEqual([
			["connect", "12 ms"],
			["handshake", "30 ms"],
			["first message", "45 ms"],
			["messages", "1"],
		]);
	});

	it("stops drawing when unloaded", () => {
		const store = new StreamStore("websocket");
		const { view, frames } = mount(store);
		store.message({ direction: "received", atMs: 0, data: "x", binary: false, size: 1 });
		view.unload();
		frames.next();
		store.message({ direction: "received", atMs: 1, data: "y", binary: false, size: 1 });
		expect(frames.pending).toBe(0);
		expect(document.querySelector(".rb-stream")).toBeNull();
	});
});
