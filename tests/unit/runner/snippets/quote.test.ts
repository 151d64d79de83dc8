import { assertExportable, combinedHeaders, ExportError, exported, hasHeader, jsString, pyString, shellQuote } from "../../../../src/runner/snippets/quote";
import { shellWords } from "../../../support/shell-words";

describe("shell quoting", () => {
	it.each([["plain"], ["it's"], ["$HOME `x` $(y) !!"], ["a\\b"], [""], ["'"], ["new\nline"], ["%20 & | ; < >"]])("round-trips %j", (s) => {
		expect(shellWords(`x ${shellQuote(s)}`)).toEqual(["x", s]);
	});

	it("leaves a word bare only when nothing in it is special", () => {
		expect(shellQuote("http://127.0.0.1:8080/a,b=c@d%20")).toBe("http://127.0.0.1:8080/a,b=c@d%20");
		expect(shellQuote("a b")).toBe("'a b'");
		expect(shellQuote("")).toBe("''");
	});
});

describe("string literals", () => {
	it("writes JavaScript and Python literals that mean the text exactly", () => {
		const s = 'a"b\\c\nd\u2028é';
		expect(JSON.parse(jsString(s))).toBe(s);
		expect(pyString(s)).toBe('"a\\"b\\\\c\\nd\u2028é"');
	});
});

describe("exported", () => {
	it("gives a snippet, or its writer's refusal as a value", () => {
		expect(exported(() => "curl x")).toEqual({ ok: true, text: "curl x" });
		expect(
			exported(() => {
				throw new ExportError("cannot write x", "x_reason", { x: "1" });
			}),
		).toEqual({ ok: false, error: { code: "not_exportable", message: "cannot write x", why: "x_reason", vars: { x: "1" } } });
	});

	it("lets any other error through: it is a bug of ours", () => {
		expect(() =>
			exported(() => {
				throw new TypeError("bug");
			}),
		).toThrow(TypeError);
	});
});

describe("assertExportable", () => {
	it("refuses a header name or value with CR, LF or NUL, naming it on one line", () => {
		expect(() => assertExportable([["X-Ok", "fine"]])).not.toThrow();
		expect(() => assertExportable([["X-Bad", "a\r\nInjected: 1"]])).toThrow(new ExportError('Header "X-Bad" contains a line break and cannot be exported'));
		expect(() => assertExportable([["X\nName", "v"]])).toThrow('Header "X Name" contains a line break');
		expect(() => assertExportable([["X-Nul", "a\0b"]])).toThrow(ExportError);
	});
});

describe("headers", () => {
	it("joins repeated headers with a comma under the first spelling, in first-seen order", () => {
		expect(
			combinedHeaders([
				["Accept", "a"],
				["X-Id", "1"],
				["accept", "b"],
				["ACCEPT", "c"],
			]),
		).toEqual([
			["Accept", "a, b, c"],
			["X-Id", "1"],
		]);
	});

	it("finds a header by name whatever its case", () => {
		expect(hasHeader([["Content-Type", "x"]], "content-type")).toBe(true);
		expect(hasHeader([["Content-Type", "x"]], "Content-Length")).toBe(false);
	});
});
