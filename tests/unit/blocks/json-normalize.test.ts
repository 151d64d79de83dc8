import fc from "fast-check";
import { normalizeJson } from "../../../src/blocks/json-normalize";

describe("normalize=json", () => {
	it("sorts keys at every depth and indents by two spaces", () => {
		const r = normalizeJson('{"b":1,"a":{"z":[true,null,{"y":"s","x":-1.5e3}],"m":{}},"c":[]}');
		expect(r).toEqual({ ok: true, text: '{\n  "a": {\n    "m": {},\n    "z": [\n      true,\n      null,\n      {\n        "x": -1.5e3,\n        "y": "s"\n      }\n    ]\n  },\n  "b": 1,\n  "c": []\n}' });
	});

	it("keeps numbers as written (no rounding) and equal strings equal", () => {
		expect(normalizeJson("[12345678901234567890, 1.0]")).toEqual({ ok: true, text: "[\n  12345678901234567890,\n  1.0\n]" });
		expect(normalizeJson('"\\u0041\\"\\\\"')).toEqual({ ok: true, text: '"A\\"\\\\"' });
	});

	it("says why a text is not JSON", () => {
		const r = normalizeJson("{oops}");
		expect(r.ok).toBe(false);
		expect(!r.ok && r.message).toMatch(/JSON|token/i);
	});

	it("gives the same text as JSON.stringify with sorted keys for any JSON value", () => {
		const sorted = (v: unknown): unknown =>
			Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
		fc.assert(
			fc.property(fc.jsonValue(), (v) => {
				const text = JSON.stringify(v);
				// Object.keys puts integer-like keys first; compare with parsed values for those.
				const r = normalizeJson(text);
				expect(r.ok).toBe(true);
				// The value the text holds (JSON has no -0: JSON.stringify(-0) is "0").
				if (r.ok) expect(JSON.parse(r.text)).toEqual(sorted(JSON.parse(text)));
			}),
			{ numRuns: 300 },
		);
	});
});
