import { formatRequestHead, invalidHeader, requestTarget } from "../../../../src/runner/http/raw-head";

describe("the request head on the wire", () => {
	it("writes the request line, each header as given (order, casing, repeats) and a blank line, in CRLF", () => {
		const head = formatRequestHead("POST", "/a?b=1", [["X-One", "1"], ["accept", "*/*"], ["X-One", "2"]]);
		expect(head).toBe("POST /a?b=1 HTTP/1.1\r\nX-One: 1\r\naccept: */*\r\nX-One: 2\r\n\r\n");
		expect(formatRequestHead("GET", "/", [])).toBe("GET / HTTP/1.1\r\n\r\n");
	});

	it("targets the path and query, never the fragment", () => {
		expect(requestTarget(new URL("http://127.0.0.1:8080/p/q?x=1&y=%20#frag"))).toBe("/p/q?x=1&y=%20");
		expect(requestTarget(new URL("http://127.0.0.1:8080"))).toBe("/");
	});

	it("names the first header that cannot be sent: a name that is no token, a value with a line break or NUL", () => {
		expect(invalidHeader([["X-Fine", "a b"]])).toBeNull();
		expect(invalidHeader([["Bad Name", "x"]])).toBe('header name "Bad Name"');
		expect(invalidHeader([["X-Ok", "1"], ["X-Split", "a\r\nInjected: 1"]])).toBe('header "X-Split" value contains a line break');
		expect(invalidHeader([["X-Nul", "a\0b"]])).toBe('header "X-Nul" value contains a line break');
	});
});
