import { jsonPath } from "../../../src/blocks/json-path";

const doc = { items: [{ id: 7, tag: "a" }, { id: 8, tag: "b" }], n: 3 };
const read = (path: string) => jsonPath()<unknown[]>({ path, json: doc, eval: "safe", wrap: true });

describe("jsonPath", () => {
	it("loads jsonpath-plus once and hands back the same function", () => {
		expect(typeof jsonPath()).toBe("function");
		expect(jsonPath()).toBe(jsonPath());
	});

	it.each([
		["$.n", [3]],
		["$.items[*].id", [7, 8]],
		["$.items[?(@.id > 7)].tag", ["b"]],
		["$..tag", ["a", "b"]],
		["$.missing", []],
	])("evaluates %s as the blocks use it", (path, expected) => {
		expect(read(path)).toEqual(expected);
	});

	it("refuses script in a filter under the safe evaluator the blocks ask for", () => {
		expect(() => read("$[?(@.constructor.constructor('return process')().exit())]")).toThrow();
	});
});
