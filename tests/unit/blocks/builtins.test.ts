import fc from "fast-check";
import { evaluateBuiltin, resolveTemplate, type Entropy, type Lookup } from "../../../src/blocks";

const fixed: Entropy = {
	now: () => new Date("2026-01-02T03:04:05.000Z"),
	random: () => 0.5,
	uuid: () => "00000000-0000-4000-8000-000000000000",
};

/** What a value of each built-in looks like on the wire: anything else is garbage. */
const WIRE_FORM: Record<string, RegExp> = {
	uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
	timestamp: /^-?\d{1,12}$/,
	iso: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
	rfc1123: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
	integer: /^-?\d{1,16}$/,
};

function wireFormOf(inner: string): RegExp {
	const [name, format] = inner.trim().split(/\s+/);
	if (/^\$?(uuid|guid)$/.test(name)) return WIRE_FORM.uuid;
	if (/^\$?timestamp$/.test(name)) return WIRE_FORM.timestamp;
	if (/^\$?isoTimestamp$/.test(name)) return WIRE_FORM.iso;
	if (/^\$?randomInt$/.test(name)) return WIRE_FORM.integer;
	// $localDatetime writes the local offset where $datetime writes UTC (Z, GMT).
	const local = name === "$localDatetime";
	if (format === '"YYYY"') return /^\d{4}$/;
	// Any other quoted format is the user's own: its literal text goes out as written, never empty, never a line break.
	if (/^\S+\s+(["']).*?\1/.test(inner.trim())) return /^[^\r\n]+$/;
	if (format === "rfc1123") return local ? /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/ : WIRE_FORM.rfc1123;
	return local ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/ : WIRE_FORM.iso;
}

const NAMES = ["uuid", "$uuid", "$guid", "timestamp", "$timestamp", "isoTimestamp", "$isoTimestamp", "randomInt", "$randomInt", "$datetime", "$localDatetime"];

/** Argument words users write, right and wrong: numbers of every size, units, formats, junk. */
const word = fc.oneof(
	fc.integer().map(String),
	fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
	fc.constantFrom("99999999", "-99999999", "9007199254740993", "+1", "-0", "1e3", "0x10", "NaN", "Infinity", "1.5", ""),
	fc.constantFrom("ms", "s", "m", "h", "d", "w", "y", "M", "fortnight", "constructor", "__proto__", "toString"),
	fc.constantFrom("iso8601", "rfc1123", '"YYYY"', "custom"),
	fc.string({ maxLength: 6 }),
);

const call = fc.tuple(fc.constantFrom(...NAMES), fc.array(word, { maxLength: 4 })).map(([name, args]) => [name, ...args].join(" "));

describe("built-ins never crash and never put garbage on the wire", () => {
	it("any arguments: a value of the built-in's form, or an error naming the reference and the form", () => {
		fc.assert(
			fc.property(call, (inner) => {
				const found = evaluateBuiltin(inner, fixed) as Lookup;
				expect(found).toBeDefined();
				if (found.ok) {
					expect(found.value).toMatch(wireFormOf(inner));
				} else {
					expect(found.message).toContain(`{{${inner.trim()}}}`);
					expect(found.message).toMatch(/; use \{\{/);
				}
			}),
			{ numRuns: Number(process.env.FC_RUNS ?? 2000) },
		);
	});

	it("the same through a template: no exception, and the reference never resolves to garbage", () => {
		fc.assert(
			// A brace in the arguments ends or starts a reference of its own: that is the template's grammar, not a built-in's value.
			fc.property(call.filter((inner) => !/[{}]/.test(inner)), (inner) => {
				const r = resolveTemplate(`x={{${inner}}}`, { builtin: (i) => evaluateBuiltin(i, fixed), alias: () => undefined, variable: () => undefined });
				if (r.errors.length === 0) expect(r.value.slice(2)).toMatch(wireFormOf(inner));
			}),
			{ numRuns: Number(process.env.FC_RUNS ?? 1000) },
		);
	});

	it("with the real clock and randomness", () => {
		fc.assert(
			fc.property(call, (inner) => {
				const found = evaluateBuiltin(inner) as Lookup;
				if (found.ok) expect(found.value).toMatch(wireFormOf(inner));
			}),
			{ numRuns: Number(process.env.FC_RUNS ?? 500) },
		);
	});
});

describe("built-in arguments out of range are block errors (issue 12)", () => {
	it.each([
		["$datetime iso8601 99999999 d", /past the years 0001-9999/],
		["$datetime rfc1123 99999999 d", /past the years 0001-9999/],
		["$localDatetime iso8601 -99999999 d", /past the years 0001-9999/],
		["$timestamp 99999999 d", /past the years 0001-9999/],
		["$timestamp 99999999999999999999 ms", /past the years 0001-9999/],
		["$isoTimestamp 1 constructor", /offset must be "<integer> <unit>"/],
		["$timestamp 1.5 d", /offset must be "<integer> <unit>"/],
		["$randomInt 0 99999999999999999999", /within ±9007199254740991/],
		["$randomInt -9007199254740991 9007199254740991", /MAX - MIN/],
		["$randomInt 5 1", /MIN must be less than MAX/],
		["$datetime", /format is missing/],
		["$datetime custom", /unknown format custom/],
		['$datetime ""', /the format is empty/],
		["$guid 1", /takes no arguments/],
	])("{{%s}}", (inner, why) => {
		const found = evaluateBuiltin(inner, fixed);
		expect(found).toMatchObject({ ok: false });
		const message = (found as { message: string }).message;
		expect(message).toMatch(why);
		expect(message).toContain(`Invalid built-in {{${inner}}}`);
	});

	it.each([
		["$datetime iso8601 -2026 y", false],
		["$datetime iso8601 -739617 d", true],
		["$datetime iso8601 -739618 d", false],
		["$datetime rfc1123 2912441 d", true],
		["$datetime rfc1123 2912442 d", false],
		["$timestamp -1767323045 s", true],
	])("stays inside the years 0001-9999: {{%s}} ok=%s", (inner, ok) => {
		expect(evaluateBuiltin(inner, fixed)?.ok).toBe(ok);
	});
});
