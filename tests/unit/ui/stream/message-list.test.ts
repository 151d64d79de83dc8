/** @jest-environment jsdom */
import { isAtBottom, MESSAGES_PER_FRAME, MessageList } from "../../../../src/ui/stream/message-list";
import type { StreamMessage } from "../../../../src/ui/stream/stream-model";
import { layOut, ManualFrames, textMessages } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

/** The list on a clock that stands still unless the test moves it: its placing budget never runs out by itself. */
function mount(now: () => number = () => 0): MessageList {
	new ManualFrames();
	document.body.empty();
	const list = new MessageList(document.body, now);
	list.load();
	layOut(list.el, 180);
	return list;
}

/** Syncs until every message is placed; returns how many calls (frames) it took. */
function syncAll(list: MessageList, messages: readonly StreamMessage[]): number {
	for (let calls = 1; ; calls++) if (!list.sync(messages)) return calls;
}

const lines = (list: MessageList) => Array.from(list.el.querySelectorAll(".rb-stream-message")).map((m) => m.textContent);

describe("isAtBottom", () => {
	it.each([
		[0, 100, 100, true],
		[396, 100, 500, true],
		[390, 100, 500, false],
		[0, 100, 500, false],
	])("scrollTop %i, viewport %i, height %i: %s", (top, view, height, expected) => expect(isAtBottom(top, view, height)).toBe(expected));
});

describe("MessageList", () => {
	it("places a burst in batches of MESSAGES_PER_FRAME, so no frame handles them all at once", () => {
		const list = mount();
		const messages = textMessages(10 * MESSAGES_PER_FRAME + 1);
		expect(list.sync(messages)).toBe(true);
		expect(list.placed).toBe(MESSAGES_PER_FRAME);
		expect(syncAll(list, messages)).toBe(10);
		expect(list.placed).toBe(messages.length);
	});

	it("stops placing when the frame's budget is spent, and places the rest in later frames", () => {
		let clock = 0;
		// Every look at the clock finds a millisecond gone: the budget lasts PLACE_BUDGET_MS looks.
		const list = mount(() => clock++);
		const messages = textMessages(MESSAGES_PER_FRAME);
		expect(list.sync(messages)).toBe(true);
		expect(list.placed).toBeGreaterThan(0);
		expect(list.placed).toBeLessThan(MESSAGES_PER_FRAME / 2);
		const first = list.placed;
		list.sync(messages);
		expect(list.placed).toBe(2 * first);
		syncAll(list, messages);
		expect(list.placed).toBe(MESSAGES_PER_FRAME);
	});

	it("keeps only the messages in view (plus overscan) in the DOM", () => {
		const list = mount();
		syncAll(list, textMessages(5 * MESSAGES_PER_FRAME));
		const { first, last } = list.window;
		expect(last - first).toBeLessThan(60);
		expect(list.el.querySelectorAll(".rb-stream-message").length).toBe(last - first);
	});

	it("follows new messages while the reader is at the bottom", () => {
		const list = mount();
		syncAll(list, textMessages(1000));
		expect(list.el.scrollTop).toBe(list.el.scrollHeight);
		expect(list.window.last).toBe(1000);
		const more = textMessages(1100);
		syncAll(list, more);
		expect(list.window.last).toBe(1100);
		expect(lines(list)[lines(list).length - 1]).toContain("message 1099");
	});

	it("stays where the reader scrolled up to when more messages arrive", () => {
		const list = mount();
		const messages = textMessages(1000);
		syncAll(list, messages);
		list.el.scrollTop = 0;
		list.sync(messages);
		messages.push(...textMessages(500, 1000));
		syncAll(list, messages);
		expect(list.el.scrollTop).toBe(0);
		expect(list.window.first).toBe(0);
		expect(lines(list)[0]).toContain("message 0");
	});

	it("shows direction, time, size, SSE event and id, and binary as base64 with its size", () => {
		const list = mount();
		syncAll(list, [
			{ direction: "sent", atMs: 3, data: "hello", binary: false, size: 5 },
			{ direction: "received", atMs: 1500, data: "AAEC", binary: true, size: 3 },
			{ direction: "received", atMs: 20, data: "tick", binary: false, size: 4, event: "update", id: "7" },
		]);
		const heads = Array.from(list.el.querySelectorAll(".rb-stream-head")).map((h) => Array.from(h.children).map((c) => c.textContent));
		expect(heads).toEqual([
			["↑", "3 ms", "5 B"],
			["↓", "1.50 s", "binary, 3 B"],
			["↓", "20 ms", "4 B", "event: update", "id: 7"],
		]);
		expect(list.el.querySelector('[data-index="1"] .rb-stream-data')?.textContent).toBe("AAEC");
	});

	it("pretty-prints JSON messages", () => {
		const list = mount();
		syncAll(list, [{ direction: "received", atMs: 0, data: '{"a":[1]}', binary: false, size: 9 }]);
		const data = Array.from(list.el.querySelectorAll(".rb-stream-data .rb-stream-line")).map((l) => l.textContent);
		expect(data).toEqual(["{", '  "a": [', "    1", "  ]", "}"]);
	});

	it("puts markup from the server in as text, never as elements", () => {
		const list = mount();
		const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
		syncAll(list, [{ direction: "received", atMs: 0, data: evil, binary: false, size: evil.length, event: "<b>e</b>", id: "<i>" }]);
		expect(list.el.querySelector("img, script, b, i")).toBeNull();
		expect(list.el.textContent).toContain(evil);
	});

	it("starts over when a new run brings a new list", () => {
		const list = mount();
		syncAll(list, textMessages(50));
		syncAll(list, [{ direction: "received", atMs: 0, data: "fresh", binary: false, size: 5 }]);
		expect(list.placed).toBe(1);
		expect(lines(list)).toEqual(["↓0 ms5 Bfresh"]);
	});
});
