import { encodingExists, getDecoder, getEncoder } from "../../../../../src/ui/db/shims/iconv-lite";

describe("the iconv-lite stand-in", () => {
	it("decodes cesu8 (MySQL's 3-byte utf8) as UTF-8, across chunks", () => {
		const decoder = getDecoder("cesu8");
		const bytes = new TextEncoder().encode("café ☕");
		expect(decoder.write(bytes.slice(0, 4)) + decoder.write(bytes.slice(4)) + decoder.end()).toBe("café ☕");
	});

	it("decodes legacy charsets through the platform", () => {
		const decoder = getDecoder("latin1");
		expect(decoder.write(new Uint8Array([0x63, 0x61, 0x66, 0xe9])) + decoder.end()).toBe("café");
	});

	it("encodes UTF-8 (and cesu-8) as a Buffer, and refuses other charsets clearly", () => {
		const encoder = getEncoder("CESU-8");
		expect(Buffer.isBuffer(encoder.write("é"))).toBe(true);
		expect([...encoder.write("é")]).toEqual([0xc3, 0xa9]);
		expect(encoder.end()).toBeUndefined();
		expect(() => getEncoder("latin1")).toThrow("Runnable Blocks: the plugin sends MySQL text as UTF-8 only, not latin1; set the connection's charset to utf8mb4");
	});

	it("knows the charsets the platform decodes", () => {
		expect(["cesu8", "utf8", "latin1", "utf-16le"].every(encodingExists)).toBe(true);
		expect(encodingExists("klingon")).toBe(false);
	});
});
