import { checkAssertions, evaluateAssertion, parseAssertion, parseHttpBlock, type AssertionResponse } from "../../../src/blocks";

const res: AssertionResponse = {
	status: 200,
	headers: [
		["Content-Type", "application/json; charset=utf-8"],
		["X-Count", "3"],
	],
	body: JSON.stringify({ items: [{ id: 1, name: "Dune" }, { id: 2, name: "Emma" }], total: 2, ok: true, title: "Books", none: null }),
	durationMs: 120.4,
};

function check(text: string) {
	const p = parseAssertion(text);
	if (!p.ok) throw new Error(`did not parse: ${text}: ${p.message}`);
	return evaluateAssertion(p.assertion, res);
}

describe("?? assertions: every operator passes and fails", () => {
	it.each([
		["status == 200", "status == 404"],
		["status != 404", "status != 200"],
		["status > 199", "status > 200"],
		["status >= 200", "status >= 201"],
		["duration < 500", "duration < 100"],
		["status <= 200", "status <= 199"],
		["header content-type includes json", "header content-type includes xml"],
		["body $.title contains Boo", "body $.title contains Zoo"],
		["header Content-Type startsWith application/", "header Content-Type startsWith text/"],
		["body $.title endsWith ks", "body $.title endsWith kz"],
		["body $.title matches ^B\\w+s$", "body $.title matches ^b"],
		["header x-count exists", "header x-missing exists"],
		["body $.total isNumber", "body $.title isNumber"],
		["body $.title isString", "body $.total isString"],
		["body $.ok isBoolean", "body $.total isBoolean"],
		["body $.items isArray", "body $.title isArray"],
		["body $.items.length > 0", "body $.items.length > 2"],
		['body $.title == "Books"', "body $.title == books"],
		["body $.ok == true", "body $.ok == false"],
		["body $.none == null", "body $.none == 0"],
		["body $.items[*].name includes Emma", "body $.items[*].name includes Zoe"],
		["body contains Dune", "body contains Zorro"],
		["header x-count == 3", "header x-count == 4"],
	])("%s passes, %s fails", (pass, fail) => {
		expect(check(pass)).toMatchObject({ ok: true });
		const failed = check(fail);
		expect(failed.ok).toBe(false);
		expect(failed.message).toEqual(expect.any(String));
	});

	it("reports the actual value", () => {
		expect(check("status == 404")).toEqual({ ok: false, actual: "200", message: "expected == 404, got 200" });
		expect(check("body $.items[0].name == Dune")).toEqual({ ok: true, actual: "Dune" });
	});
});

describe("?? assertions: bad input is a failed assertion with a message, never a crash", () => {
	it.each([
		["status === 200", /unknown operator "===".*==/],
		["status", /missing operator/],
		["speed < 3", /unknown subject "speed"/],
		["header == x", /header needs a name/],
		["status ==", /needs a value/],
		["body $.a exists 3", /takes no value/],
	])("%j: %s", (text, message) => {
		const [r] = checkAssertions([{ line: 7, text }], res);
		expect(r).toMatchObject({ line: 7, text, ok: false, actual: null });
		expect(r.message).toMatch(message);
	});

	it.each([
		["body $..[?(@.x exists", /invalid JSONPath|matches nothing/],
		["body $.missing == 1", /matches nothing/],
		["header x-none == 1", /no header "x-none"/],
		["body $.title matches [", /invalid regular expression/],
		["body $.title > 3", /compares numbers/],
	])("%j fails with a message", (text, message) => {
		const [r] = checkAssertions([{ line: 1, text }], res);
		expect(r.ok).toBe(false);
		expect(r.message).toMatch(message);
	});

	it("reads JSONPath on a body that is not JSON as a failure", () => {
		const [r] = checkAssertions([{ line: 1, text: "body $.a exists" }], { ...res, body: "<html>" });
		expect(r.ok).toBe(false);
		expect(r.message).toMatch(/not JSON/);
	});
});

describe("?? lines in a block", () => {
	it("are assertions, not headers or body", () => {
		const b = parseHttpBlock('POST https://x.test/a\nContent-Type: application/json\n?? status == 201\n\n{"a": 1}\n\n?? body $.id exists');
		expect(b.headers).toHaveLength(1);
		expect(b.body).toBe('{"a": 1}');
		expect(b.assertions).toEqual([
			{ line: 2, text: "status == 201" },
			{ line: 6, text: "body $.id exists" },
		]);
	});
});
