/**
 * selectJson reads paths of names and indexes directly, without jsonpath-plus: every answer must
 * be the one jsonpath-plus gives (the oracle here), including where the direct read declines.
 */
import fc from "fast-check";
import { JSONPath } from "jsonpath-plus";
import { selectJson } from "../../../src/runner/select-json";

/** What selectJson answered before it read simple paths itself: jsonpath-plus alone. */
function oracle(json: unknown, path: string): { ok: true; value: string } | { ok: false } {
	let matches: unknown[];
	try {
		// It answers undefined for a falsy document: no match.
		matches = JSONPath<unknown[] | undefined>({ path, json: json as object, eval: "safe", wrap: true }) ?? [];
	} catch {
		return { ok: false };
	}
	if (matches.length === 0) return { ok: false };
	const v = matches.length === 1 ? matches[0] : matches;
	return { ok: true, value: typeof v === "string" ? v : JSON.stringify(v) };
}

function same(json: unknown, path: string): void {
	const got = selectJson(JSON.stringify(json), path, "the body");
	const want = oracle(json, path);
	expect({ path, ok: got.ok, value: got.ok ? got.value : undefined }).toEqual({ path, ok: want.ok, value: want.ok ? want.value : undefined });
}

const DOC = {
	id: 7,
	name: "x",
	nothing: null,
	flag: false,
	zero: 0,
	empty: "",
	items: [{ id: 1, tags: ["a", "b"] }, { id: 2 }, null, [5, 6]],
	nested: { deep: { list: [], obj: {} }, length: 3 },
	length: 2,
	constructor: "own",
};

describe("selectJson", () => {
	it.each([
		"$.id",
		"$.name",
		"$.nothing",
		"$.flag",
		"$.zero",
		"$.empty",
		"$.items",
		"$.items[0]",
		"$.items[0].id",
		"$.items[0].tags[1]",
		"$.items[1].tags",
		"$.items[2]",
		"$.items[2].id",
		"$.items[3][1]",
		"$.items[9]",
		"$.items.length",
		"$.items.id",
		"$.name.length",
		"$.name[0]",
		"$.nested.deep.list",
		"$.nested.deep.obj",
		"$.nested.length",
		"$.length",
		"$.constructor",
		"$.toString",
		"$.__proto__",
		"$.missing",
		"$.missing.deeper",
		"$.items[*].id",
		"$..id",
	])("%s answers as jsonpath-plus does", (path) => same(DOC, path));

	it("a top-level array and scalars (a falsy document matched nothing, it threw before)", () => {
		for (const path of ["$[0]", "$[1].a", "$[2]", "$.a", "$[0].a"]) same([{ a: 1 }, { a: [2] }], path);
		for (const path of ["$.a", "$[0]", "$..a"]) for (const json of [5, "text", null, 0, false, ""]) same(json, path);
		expect(selectJson("null", "$.a", "the body")).toEqual({ ok: false, message: "$.a matches nothing in the body" });
	});

	it("random documents and paths of names and indexes answer as jsonpath-plus does", () => {
		const name = fc.constantFrom("a", "b", "id", "length", "_x", "constructor");
		const step = fc.oneof(name.map((n) => `.${n}`), fc.nat(3).map((i) => `[${i}]`));
		const doc = fc.letrec((tie) => ({
			value: fc.oneof({ depthSize: "small" }, fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null), fc.boolean(), fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(name, tie("value"), { maxKeys: 4 })),
		})).value;
		fc.assert(
			fc.property(doc, fc.array(step, { minLength: 1, maxLength: 4 }), (json, steps) => same(json, `$${steps.join("")}`)),
			{ numRuns: 2000 },
		);
	});
});
