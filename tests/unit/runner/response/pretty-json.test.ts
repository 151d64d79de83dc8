import fc from "fast-check";
import { JsonPrettifier, prettyJson } from "../../../../src/runner/response/pretty-json";

describe("JSON pretty-printing", () => {
	it("matches JSON.stringify's layout for valid JSON", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const compact = JSON.stringify(value);
				expect(prettyJson(compact)).toBe(JSON.stringify(value, null, 2));
			}),
			{ numRuns: 500 },
		);
	});

	it("gives the same text whatever the slicing", () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), (value, cuts) => {
				const text = JSON.stringify(value, null, 1);
				const p = new JsonPrettifier();
				const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
				let out = "";
				let last = 0;
				for (const c of [...points, text.length]) {
					out += p.push(text.slice(last, c));
					last = c;
				}
				expect(out).toBe(JSON.stringify(value, null, 2));
			}),
			{ numRuns: 500 },
		);
	});

	it("keeps strings with escaped quotes and braces intact", () => {
		expect(prettyJson('{"a":"x\\"}{,:","b":[]}')).toBe('{\n  "a": "x\\"}{,:",\n  "b": []\n}');
	});
});
