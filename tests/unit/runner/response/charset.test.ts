import { readResult } from "../../../../src/runner/block-runners";
import { bodyEncoding, decodeExact } from "../../../../src/runner/response/charset";
import { classifyBody, responseText } from "../../../../src/runner/response/content-type";
import type { BlockResult } from "../../../../src/runner/result";

const bytes = (...b: number[]) => Uint8Array.from(b);
const ct = (v: string): Array<[string, string]> => [["Content-Type", v]];

// "café señor" in latin-1 / windows-1252, "日本語" in Shift_JIS, "hé€" in UTF-16LE.
const LATIN1 = bytes(0x63, 0x61, 0x66, 0xe9, 0x20, 0x73, 0x65, 0xf1, 0x6f, 0x72);
const CP1252_EURO = bytes(0x80, 0x20, 0x35);
const SJIS = bytes(0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea);
const UTF16LE = bytes(0x68, 0x00, 0xe9, 0x00, 0xac, 0x20);

describe("response charsets", () => {
	it.each([
		["text/plain; charset=iso-8859-1", LATIN1, "café señor", "windows-1252"],
		["text/plain; charset=latin1", LATIN1, "café señor", "windows-1252"],
		["text/plain; charset=windows-1252", CP1252_EURO, "€ 5", "windows-1252"],
		["text/plain; charset=Shift_JIS", SJIS, "日本語", "shift_jis"],
		["text/plain; charset=utf-16le", UTF16LE, "hé€", "utf-16le"],
		['application/json; charset="utf-16"', Uint8Array.from([...UTF16LE]), "hé€", "utf-16le"],
	])("%s is text, decoded in its charset", (type, body, text, encoding) => {
		const kind = classifyBody(ct(type), body);
		expect(kind.kind).not.toBe("binary");
		expect(kind.charset).toBe(encoding);
		expect(responseText(ct(type), body)).toBe(text);
	});

	it("a byte-order mark wins over the header and is not part of the text", () => {
		const body = Uint8Array.from([0xff, 0xfe, ...UTF16LE]);
		expect(bodyEncoding("iso-8859-1", body)).toBe("utf-16le");
		expect(responseText(ct("text/plain; charset=iso-8859-1"), body)).toBe("hé€");
		expect(responseText(ct("application/json"), bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toBe("{}");
	});

	it("an unknown charset label falls back to UTF-8", () => {
		expect(classifyBody(ct("text/plain; charset=x-no-such"), new TextEncoder().encode("ok é")).charset).toBe("utf-8");
		expect(responseText(ct("text/plain; charset=x-no-such"), new TextEncoder().encode("ok é"))).toBe("ok é");
	});

	it("still calls bytes binary: undeclared invalid UTF-8, NUL bytes in a single-byte charset", () => {
		expect(classifyBody(ct("application/octet-stream"), bytes(0x89, 0x50, 0x4e, 0x47, 0x00, 0x01)).kind).toBe("binary");
		// FF FE starts many binary formats: a BOM counts only where text is expected.
		expect(classifyBody(ct("application/octet-stream"), bytes(0xff, 0xfe, 0xfd, 0x00, 0x01)).kind).toBe("binary");
		expect(classifyBody([], LATIN1).kind).toBe("binary");
		expect(classifyBody(ct("text/plain; charset=iso-8859-1"), bytes(0x61, 0x00, 0x62)).kind).toBe("binary");
	});

	it("sniffs the decoded text: UTF-16 JSON without a JSON type is JSON", () => {
		const json = new Uint8Array(Buffer.from('{"a":1}', "utf16le"));
		expect(classifyBody(ct("text/plain; charset=utf-16le"), json).kind).toBe("json");
	});

	it("decodes every windows-1252 byte as WHATWG says, whatever the runtime's decoder does", () => {
		const all = Uint8Array.from({ length: 256 }, (_, i) => i);
		const text = responseText(ct("text/plain; charset=windows-1252"), all);
		expect(text).toHaveLength(256);
		expect([...text.slice(0x80, 0x8d)].map((c) => c.codePointAt(0))).toEqual([0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152]);
		expect(text.slice(0xe0, 0xe4)).toBe("àáâã");
	});

	it("decodeExact refuses bytes that are not valid in the encoding", () => {
		expect(decodeExact(bytes(0x61, 0xff), "utf-8")).toBeNull();
		expect(decodeExact(LATIN1, "windows-1252")).toBe("café señor");
	});

	it("chaining reads the body in its charset", () => {
		const result: BlockResult = {
			kind: "http",
			state: "done",
			receivedBytes: LATIN1.byteLength,
			body: LATIN1,
			head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: ct("text/plain; charset=iso-8859-1"), url: "http://127.0.0.1/", redirects: 0 },
		};
		expect(readResult(result, { alias: "latin", part: "response", section: "body", selector: "*" })).toEqual({ ok: true, value: "café señor" });
	});
});
