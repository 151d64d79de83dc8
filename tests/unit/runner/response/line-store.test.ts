import fc from "fast-check";
import { LineStore } from "../../../../src/runner/response/line-store";

/** The lines a viewer shows for a whole text: split at line breaks, a final break ending the last line, never no line. */
function linesOf(full: string): string[] {
	const parts = full.split("\n");
	if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
	return parts;
}

function all(store: LineStore): string[] {
	return Array.from({ length: store.length }, (_, i) => store.line(i));
}

describe("LineStore", () => {
	it("keeps a partial line until its end arrives, across appends", () => {
		const s = new LineStore();
		s.append("{\n  \"a\": ");
		expect([all(s), s.pending]).toEqual([["{"], '  "a": ']);
		s.append("1,\n  \"b\"");
		expect([all(s), s.pending]).toEqual([["{", '  "a": 1,'], '  "b"']);
		s.append(": 2\n}");
		s.finish();
		expect(all(s)).toEqual(["{", '  "a": 1,', '  "b": 2', "}"]);
	});

	it("an empty text is one empty line; a final line break ends the last line", () => {
		const empty = new LineStore();
		empty.finish();
		expect(all(empty)).toEqual([""]);
		const trailing = new LineStore();
		trailing.append("a\n\nb\n");
		trailing.finish();
		expect(all(trailing)).toEqual(["a", "", "b"]);
	});

	it("grows past its first chunks of places (a body of many lines), every line where it was", () => {
		const s = new LineStore();
		for (let i = 0; i < 40_000; i++) s.append(`line ${i}\n`);
		s.finish();
		expect(s.length).toBe(40_000);
		expect([0, 16_383, 16_384, 32_767, 32_768, 39_999].map((i) => s.line(i))).toEqual(["line 0", "line 16383", "line 16384", "line 32767", "line 32768", "line 39999"]);
	});

	it("any text cut anywhere: the same lines as splitting the whole text", () => {
		fc.assert(
			fc.property(fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\n", "é", "😀", " ") , maxLength: 12 }), { maxLength: 12 }), (pieces) => {
				const s = new LineStore();
				for (const p of pieces) s.append(p);
				const full = pieces.join("");
				// Before the end: the complete lines, and the rest pending.
				const cut = full.lastIndexOf("\n");
				expect(all(s)).toEqual(cut === -1 ? [] : full.slice(0, cut).split("\n"));
				expect(s.pending).toBe(full.slice(cut + 1));
				s.finish();
				expect(all(s)).toEqual(linesOf(full));
			}),
			{ numRuns: 2000 },
		);
	});
});
