import fc from "fast-check";
import { createSseReader } from "../../../src/chat/sse";

const read = (pieces: Uint8Array[]): string[] => {
	const out: string[] = [];
	const reader = createSseReader((d) => out.push(d));
	for (const p of pieces) reader.push(p);
	reader.end();
	return out;
};

const cut = (bytes: Uint8Array, at: number[]): Uint8Array[] => {
	const points = [...new Set(at.map((a) => a % (bytes.length + 1)))].sort((a, b) => a - b);
	const out: Uint8Array[] = [];
	let from = 0;
	for (const p of [...points, bytes.length]) {
		out.push(bytes.subarray(from, p));
		from = p;
	}
	return out;
};

describe("SSE reader", () => {
	it("gives each event's data, multi-line data joined with \\n, comments and other fields skipped", () => {
		const text = ": keep-alive\n\ndata: {\"a\":1}\n\nevent: x\ndata: one\ndata: two\n\nid: 3\ndata: [DONE]\n\n";
		expect(read([new TextEncoder().encode(text)])).toEqual(['{"a":1}', "one\ntwo", "[DONE]"]);
	});

	it("accepts CRLF line ends and drops a last event without its blank line (as the SSE spec says)", () => {
		expect(read([new TextEncoder().encode("data: a\r\n\r\ndata: b")])).toEqual(["a"]);
	});

	it("whatever the cuts (inside UTF-8 sequences, inside `data:`), the events are the same", () => {
		fc.assert(
			fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (datas, at) => {
				const bytes = new TextEncoder().encode(datas.map((d) => `data: ${d}\n\n`).join(""));
				expect(read(cut(bytes, at))).toEqual(datas);
			}),
		);
	});

	it("a multi-byte character cut between two chunks is decoded once, not as two U+FFFD", () => {
		const bytes = new TextEncoder().encode("data: 𝄞\n\n");
		expect(read([bytes.subarray(0, 8), bytes.subarray(8)])).toEqual(["𝄞"]);
	});
});
