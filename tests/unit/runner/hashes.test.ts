import { hashes } from "../../../src/runner/hashes";

describe("hashes", () => {
	it.each([
		["sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
		["sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
		["md5", "abc", "900150983cd24fb0d6963f7d28e17f72"],
	] as const)("gives %s(%j) its standard digest", (fn, text, hex) => {
		const h = hashes();
		expect(h.bytesToHex(h[fn](h.utf8ToBytes(text)))).toBe(hex);
	});

	it("encodes text as UTF-8", () => {
		expect([...hashes().utf8ToBytes("é€")]).toEqual([0xc3, 0xa9, 0xe2, 0x82, 0xac]);
	});

	it("gives random bytes of the length asked, different each time", () => {
		const { randomBytes, bytesToHex } = hashes();
		const a = randomBytes(16);
		expect(a).toHaveLength(16);
		expect(bytesToHex(a)).not.toBe(bytesToHex(randomBytes(16)));
	});

	it("is one module however often it is asked for", () => {
		expect(hashes()).toBe(hashes());
	});
});
