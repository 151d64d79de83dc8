import fc from "fast-check";
import { formatBytes, formatMs, toBase64 } from "../../../src/runner/response/format";
import { classifyBody, looksBinary, parseContentType } from "../../../src/runner/response/content-type";
import { parseCookies } from "../../../src/runner/response/cookies";
import { JsonPrettifier, prettyJson } from "../../../src/runner/response/pretty-json";
import { prettyMarkup } from "../../../src/runner/response/pretty-xml";

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

describe("cookies", () => {
	it("parses every Set-Cookie header with all attributes, values as sent", () => {
		const cookies = parseCookies([
			["Set-Cookie", "session=a%20b; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=60"],
			["content-type", "text/plain"],
			["set-cookie", "theme=dark; Domain=example.test; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Partitioned"],
		]);
		expect(cookies).toEqual([
			expect.objectContaining({ name: "session", value: "a%20b", path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 60, partitioned: false }),
			expect.objectContaining({ name: "theme", value: "dark", domain: "example.test", expires: "Wed, 21 Oct 2026 07:28:00 GMT", partitioned: true, secure: false }),
		]);
	});
});

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

describe("markup pretty-printing", () => {
	it("indents nested tags and keeps text, comments and script bodies as text", () => {
		const out = prettyMarkup('<?xml version="1.0"?><a><b x="1">t</b><!-- c<d> --><br/><script>if (a<b) {}</script></a>');
		expect(out).toBe(['<?xml version="1.0"?>', "<a>", '  <b x="1">', "    t", "  </b>", "  <!-- c<d> -->", "  <br/>", "  <script>if (a<b) {}</script>", "</a>"].join("\n"));
	});

	it("leaves markup that is already laid out alone", () => {
		const text = "<a>\n  <b/>\n</a>\n";
		expect(prettyMarkup(text)).toBe(text);
	});
});

describe("formatting", () => {
	it.each([
		[0, "0 B"],
		[1023, "1023 B"],
		[1024, "1.0 KiB"],
		[1536, "1.5 KiB"],
		[104857600, "100 MiB"],
		[5 * 1024 ** 3, "5.0 GiB"],
	])("%i bytes → %s", (n, s) => {
		expect(formatBytes(n)).toBe(s);
	});

	it.each([
		[0, "0 ms"],
		[999.6, "1000 ms"],
		[1500, "1.50 s"],
		[12_345, "12.3 s"],
		[125_000, "2 min 5 s"],
	])("%f ms → %s", (n, s) => {
		expect(formatMs(n)).toBe(s);
	});

	it("encodes base64 like Node does, for large inputs too", () => {
		const data = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
		expect(toBase64(data)).toBe(Buffer.from(data).toString("base64"));
	});
});
