import { DEFAULT_PIN_CUT, parsePinnedResponse, type PinOptions } from "../../../../src/blocks";
import { pinText, type PinSource } from "../../../../src/runner/response/pin-text";
import type { ResponseHead } from "../../../../src/runner/transport";

const bytes = (text: string) => new TextEncoder().encode(text);
const head = (headers: Array<[string, string]>, status = 200, statusText = "OK"): ResponseHead => ({ status, statusText, httpVersion: "1.1", headers, url: "http://127.0.0.1/", redirects: 0 });
const DEFAULTS: PinOptions = { headers: null, cut: DEFAULT_PIN_CUT, normalize: false };
const source = (over: Partial<PinSource>): PinSource => ({ head: head([["Content-Type", "application/json"]]), body: bytes('{"b":1,"a":[1,2]}'), assertions: [], secrets: [], ...over });

describe("the text of a pin", () => {
	it("is the status line, content-type, a blank line and the pretty-printed body in the server's key order", () => {
		expect(pinText(source({}), DEFAULTS)).toBe('HTTP/1.1 200 OK\ncontent-type: application/json\n\n{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}');
	});

	it("sorts keys only when the pin normalises", () => {
		expect(parsePinnedResponse(pinText(source({}), { ...DEFAULTS, normalize: true })).body).toBe('{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}');
	});

	it("keeps by default content-type and the headers the block's assertions read, in wire order, names lower-cased", () => {
		const h = head([["Date", "Fri, 27 Nov 2026 10:00:00 GMT"], ["ETag", '"v1"'], ["Content-Type", "text/plain"], ["X-Rate", "5"]]);
		const text = pinText(source({ head: h, body: bytes("hi"), assertions: [{ text: "header etag exists" }, { text: "status == 200" }] }), DEFAULTS);
		expect(text).toBe('HTTP/1.1 200 OK\netag: "v1"\ncontent-type: text/plain\n\nhi');
	});

	it.each([
		[["*"], ["date", "x-a"]],
		[["x-a"], ["x-a"]],
	])("keeps the headers its fence names: %j", (asked, names) => {
		const text = pinText(source({ head: head([["Date", "d"], ["X-A", "1"]]), body: undefined }), { ...DEFAULTS, headers: asked });
		expect(parsePinnedResponse(text).headers.map(([n]) => n)).toEqual(names);
	});

	it("writes no time: the same response gives the same pin", () => {
		expect(pinText(source({}), DEFAULTS)).toBe(pinText(source({}), DEFAULTS));
		expect(pinText(source({}), DEFAULTS)).not.toMatch(/\d\d:\d\d/);
	});

	it("has no blank line without a body, and the status line as the transport gave it", () => {
		expect(pinText(source({ head: head([], 204, ""), body: new Uint8Array() }), DEFAULTS)).toBe("HTTP/1.1 204");
	});

	it("masks secrets as history does, in headers and body, raw and percent-encoded", () => {
		const h = head([["Content-Type", "text/plain"], ["Location", "http://x/?k=s%20cret"]]);
		const text = pinText(source({ head: h, body: bytes("token s cret here"), secrets: ["s cret"] }), { ...DEFAULTS, headers: ["*"] });
		expect(text).not.toContain("cret");
		expect(text).toContain("location: http://x/?k=•••");
		expect(text).toContain("token ••• here");
	});

	it("describes a binary body rather than writing it", () => {
		const text = pinText(source({ head: head([["Content-Type", "image/png"]]), body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) }), DEFAULTS);
		expect(parsePinnedResponse(text).body).toBe("(image body, image/png, 7 B)");
	});

	it("writes the body's line breaks as the pin's, with no final empty line", () => {
		expect(parsePinnedResponse(pinText(source({ head: head([["Content-Type", "text/plain"]]), body: bytes("a\r\nb\r\n") }), DEFAULTS)).body).toBe("a\nb");
	});

	it("cuts a 10 MB JSON body at the cut size, raw (not pretty-printed), with the marker", () => {
		const item = '{"id":1,"name":"é"},';
		const big = "[" + item.repeat(Math.ceil(10_000_000 / item.length)) + "{}]";
		const body = bytes(big);
		const text = pinText(source({ body }), DEFAULTS);
		const pin = parsePinnedResponse(text);
		expect(pin.cut?.total).toBe(body.byteLength);
		expect(pin.cut!.shown).toBeLessThanOrEqual(DEFAULT_PIN_CUT);
		expect(pin.cut!.shown).toBeGreaterThan(DEFAULT_PIN_CUT - 4);
		expect(bytes(pin.body).byteLength).toBe(pin.cut!.shown);
		expect(big.startsWith(pin.body)).toBe(true);
		expect(text.length).toBeLessThan(DEFAULT_PIN_CUT + 200);
	});

	it("never splits a UTF-8 character at the cut", () => {
		const text = pinText(source({ head: head([["Content-Type", "text/plain; charset=utf-8"]]), body: bytes("aé€😀".repeat(10)) }), { ...DEFAULTS, cut: 6 });
		const pin = parsePinnedResponse(text);
		expect(pin.body).toBe("aé€");
		expect(pin.cut).toEqual({ shown: 6, total: 100 });
	});
});
