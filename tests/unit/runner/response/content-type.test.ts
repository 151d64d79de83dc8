import { classifyBody, looksBinary, parseContentType } from "../../../../src/runner/response/content-type";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("content type", () => {
	it.each([
		["application/json; charset=utf-8", '{"a":1}', "json"],
		["application/problem+json", "{}", "json"],
		["text/xml", "<a/>", "xml"],
		["application/atom+xml", "<feed/>", "xml"],
		["text/html;charset=UTF-8", "<p>x</p>", "html"],
		["image/svg+xml", "<svg/>", "svg"],
		["image/png", "\x89PNG\r\n\x1a\n\0\0", "image"],
		["application/javascript", "alert(1)", "javascript"],
		["text/plain", "hello", "text"],
		["text/plain", '{"looks":"json"}', "json"],
		["", "<!DOCTYPE html><html>", "html"],
		["", "<svg onload=x>", "svg"],
		["application/octet-stream", "\0\x01\x02", "binary"],
		["application/json", "\0\0", "binary"],
		["text/plain", "", "empty"],
	])("%s with %j is %s", (ct, body, kind) => {
		expect(classifyBody(ct ? [["Content-Type", ct]] : [], bytes(body)).kind).toBe(kind);
	});

	it("reads the media type and charset", () => {
		expect(parseContentType('text/HTML; Charset="ISO-8859-1"')).toEqual({ mime: "text/html", charset: "iso-8859-1" });
		expect(parseContentType(undefined)).toEqual({ mime: "", charset: null });
	});

	it("does not call text binary because a UTF-8 sequence is cut at the sniffing edge", () => {
		const text = "é".repeat(5000);
		expect(looksBinary(bytes(text))).toBe(false);
		expect(looksBinary(new Uint8Array([0xff, 0xfe, 0x41]))).toBe(true);
	});
});
