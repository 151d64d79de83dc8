import { binaryMessage, MessageLog, textMessage, utf8Length } from "../../../../src/runner/stream/message-log";

describe("MessageLog", () => {
	it("counts messages and bytes each way, by their size rather than their kept text", () => {
		const log = new MessageLog();
		log.add(textMessage("received", 0, "héllo"));
		log.add(textMessage("sent", 5, "hi"));
		log.add(binaryMessage("received", 9, new Uint8Array([1, 2, 3])));
		expect(log.counts).toEqual({ received: 2, sent: 1, receivedBytes: 6 + 3, sentBytes: 2 });
		expect(log.messages.map((m) => m.direction)).toEqual(["received", "sent", "received"]);
	});

	it("gives a new counts object per message, so an earlier snapshot keeps its own", () => {
		const log = new MessageLog();
		log.add(textMessage("received", 0, "a"));
		const before = log.counts;
		log.add(textMessage("received", 1, "b"));
		expect(before.received).toBe(1);
		expect(log.counts.received).toBe(2);
	});

	it("refuses a message that would pass the cap, keeping neither it nor its counts", () => {
		const log = new MessageLog(5);
		expect(log.add(textMessage("received", 0, "abc"))).toBe(true);
		expect(log.add(textMessage("received", 1, "de"))).toBe(true);
		expect(log.add(textMessage("received", 2, "f"))).toBe(false);
		expect(log.messages.map((m) => m.data)).toEqual(["abc", "de"]);
		expect(log.keptBytes).toBe(5);
		expect(log.counts.received).toBe(2);
	});
});

describe("textMessage", () => {
	it("sizes the text as UTF-8 bytes", () => {
		expect(textMessage("sent", 3, "€").size).toBe(3);
	});

	it.each([
		[{ event: "tick", id: "7" }, { event: "tick", id: "7" }],
		[{ event: "", id: "" }, {}],
		[undefined, {}],
	])("keeps an SSE event's name and id only when present (%j)", (sse, expected) => {
		const m = textMessage("received", 0, "x", sse);
		expect({ event: m.event, id: m.id }).toEqual({ event: undefined, id: undefined, ...expected });
		expect("event" in m).toBe("event" in expected);
	});
});

describe("utf8Length", () => {
	it.each([
		["", "empty"],
		["plain ascii", "ASCII"],
		["héllo wörld", "two-byte letters"],
		["€ and 漢字", "three-byte characters"],
		["🎉 a pair", "a surrogate pair"],
		["\ud83c alone", "a lone high surrogate"],
		["\udf89 alone", "a lone low surrogate"],
		["ends high \ud83c", "a high surrogate at the end"],
		["\ud83c\ud83c\udf89", "a lone high surrogate before a pair"],
	])("counts as TextEncoder encodes: %j (%s)", (text) => {
		expect(utf8Length(text)).toBe(new TextEncoder().encode(text).byteLength);
	});

	it("agrees with TextEncoder over every code unit", () => {
		const all = String.fromCharCode(...Array.from({ length: 0x10000 }, (_, i) => i));
		for (let i = 0; i < all.length; i += 997) {
			const slice = all.slice(i, i + 1500);
			expect(utf8Length(slice)).toBe(new TextEncoder().encode(slice).byteLength);
		}
	});
});

describe("binaryMessage", () => {
	it("keeps base64 of the bytes and their byte count", () => {
		const m = binaryMessage("received", 0, new TextEncoder().encode("hello"));
		expect(m).toEqual({ direction: "received", atMs: 0, data: "aGVsbG8=", binary: true, size: 5 });
	});

	it("encodes a message larger than one chunk of the encoder whole", () => {
		const bytes = new Uint8Array(0x8000 * 2 + 7).map((_, i) => i % 251);
		expect(Buffer.from(binaryMessage("sent", 0, bytes).data, "base64")).toEqual(Buffer.from(bytes));
	});
});
