import fc from "fast-check";
import { classifyReference, evaluateBuiltin, resolveTemplate, type Entropy } from "../../../src/blocks";

/** Entropy whose draws come from a list, in turn: each value below is the one those draws make. */
function drawing(...draws: number[]): Entropy {
	let i = 0;
	return { now: () => new Date("2026-01-02T03:04:05.000Z"), random: () => draws[i++ % draws.length], uuid: () => "00000000-0000-4000-8000-000000000000" };
}

const valueOf = (inner: string, entropy: Entropy) => {
	const r = evaluateBuiltin(inner, entropy);
	if (!r?.ok) throw new Error(`not a value: ${JSON.stringify(r)}`);
	return r.value;
};

describe("JetBrains' and httpyac's {{$random.…}}", () => {
	it("draws integers and floats from `from` included to `to` excluded, 0 to 1000 without bounds", () => {
		expect(valueOf("$random.integer(100, 500)", drawing(0))).toBe("100");
		expect(valueOf("$random.integer(100, 500)", drawing(0.999999))).toBe("499");
		expect(valueOf("$random.integer(-5,5)", drawing(0.5))).toBe("0");
		expect(valueOf("$random.integer", drawing(0.25))).toBe("250");
		expect(valueOf("$random.integer()", drawing(0.25))).toBe("250");
		expect(valueOf("$random.float(1.5, 2.5)", drawing(0.5))).toBe("2");
		expect(valueOf("$random.float", drawing(0.25))).toBe("250");
	});

	it("writes strings of the asked length from their own characters, 10 without a length", () => {
		// Draw k of n picks character floor(k * n).
		expect(valueOf("$random.alphabetic(3)", drawing(0, 0.5, 0.99))).toBe("Aaz");
		expect(valueOf("$random.numeric(4)", drawing(0, 0.1, 0.55, 0.95))).toBe("0159");
		expect(valueOf("$random.hexadecimal(2)", drawing(0.99, 0))).toBe("f0");
		expect(valueOf("$random.alphanumeric(1)", drawing(0.99))).toBe("_");
		expect(valueOf("$random.alphabetic", drawing(0))).toBe("AAAAAAAAAA");
	});

	it("makes a UUID and an e-mail address", () => {
		expect(valueOf("$random.uuid", drawing(0))).toBe("00000000-0000-4000-8000-000000000000");
		expect(valueOf("$random.email", drawing(0))).toBe("aaaaaaaaaaaa@aaaaaaaa.com");
	});

	it("keeps each value in its form, whatever the draws", () => {
		fc.assert(
			fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }), (draws) => {
				const e = drawing(...draws);
				const n = Number(valueOf("$random.integer(-3, 3)", e));
				expect(Number.isInteger(n) && n >= -3 && n < 3).toBe(true);
				const f = Number(valueOf("$random.float(0, 1)", e));
				expect(f >= 0 && f < 1).toBe(true);
				expect(valueOf("$random.hexadecimal(8)", e)).toMatch(/^[0-9a-f]{8}$/);
				expect(valueOf("$random.alphanumeric(5)", e)).toMatch(/^\w{5}$/);
				expect(valueOf("$random.email", e)).toMatch(/^[a-z0-9]{12}@[a-z]{8}\.(com|org|net|io|dev)$/);
			}),
		);
	});

	it.each([
		["$random.integer(5, 5)", "from must be less than to (got 5, 5)"],
		["$random.integer(1.5, 3)", "it takes two integers, from and to"],
		["$random.integer(1)", "it takes two integers, from and to"],
		["$random.float(a, b)", "it takes two numbers, from and to"],
		["$random.alphabetic(0)", "the length must be 1 to 10000"],
		["$random.alphabetic(100000)", "the length must be 1 to 10000"],
		["$random.alphabetic(x)", "it takes one length, a whole number"],
		["$random.uuid(1)", "$random.uuid takes no arguments"],
		["$random.address.city", "$random.address.city is not one of them"],
		["$random.integer(1, 2", "write the arguments in one pair of parentheses"],
		["$random.color", "$random.color is not one of them"],
	])("says what is wrong with %s, and the forms it takes", (inner, why) => {
		const r = evaluateBuiltin(inner, drawing(0));
		expect(r).toEqual({ ok: false, message: expect.stringContaining(`Invalid built-in {{${inner}}}: ${why}; use {{$random.uuid}}`) as unknown });
	});

	it("is a built-in reference, resolved where it is written", () => {
		expect(classifyReference("$random.integer(1, 10)")).toBe("builtin");
		expect(resolveTemplate('{"n": {{$random.integer(1, 10)}}, "id": "{{$random.uuid}}"}', { builtin: (inner) => evaluateBuiltin(inner, drawing(0)), alias: () => undefined, variable: () => undefined }).value).toBe('{"n": 1, "id": "00000000-0000-4000-8000-000000000000"}');
	});
});
