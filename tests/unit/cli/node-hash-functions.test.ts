import fc from "fast-check";
import * as native from "../../../src/cli/node-hash-functions";
import * as noble from "../../../src/runner/hash-functions";
import type { HashFunctions } from "../../../src/runner/hashes";

// The CLI's functions stand in for the plugin's: the same digests, the same shapes.
const cli: HashFunctions = native;

describe("the CLI's hash functions (Node's, in @noble/hashes's place)", () => {
	it.each([
		["sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
		["sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
		["md5", "abc", "900150983cd24fb0d6963f7d28e17f72"],
	] as const)("gives %s(%j) its standard digest", (fn, text, hex) => {
		expect(cli.bytesToHex(cli[fn](cli.utf8ToBytes(text)))).toBe(hex);
	});

	it("agrees with @noble/hashes on any text and any bytes, a view into a larger buffer included", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme" }), fc.uint8Array({ maxLength: 300 }), fc.nat(8), (text, bytes, offset) => {
				expect([...cli.utf8ToBytes(text)]).toEqual([...noble.utf8ToBytes(text)]);
				const view = new Uint8Array(bytes.length + 2 * offset).subarray(offset, offset + bytes.length);
				view.set(bytes);
				expect(cli.bytesToHex(cli.sha256(view))).toBe(noble.bytesToHex(noble.sha256(bytes)));
				expect(cli.bytesToHex(cli.md5(view))).toBe(noble.bytesToHex(noble.md5(bytes)));
				expect(cli.bytesToHex(view)).toBe(noble.bytesToHex(bytes));
			}),
			{ numRuns: 200 },
		);
	});

	it("returns plain Uint8Arrays of the digest's length, as the library does", () => {
		for (const digest of [cli.sha256(new Uint8Array([1])), cli.md5(new Uint8Array([1])), cli.randomBytes(16)]) {
			expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype);
			expect(digest.byteOffset).toBe(0);
			expect(digest.buffer.byteLength).toBe(digest.byteLength);
		}
		expect(cli.sha256(new Uint8Array())).toHaveLength(32);
		expect(cli.md5(new Uint8Array())).toHaveLength(16);
	});

	it("gives random bytes of the length asked, different each time", () => {
		const a = cli.randomBytes(16);
		expect(a).toHaveLength(16);
		expect(cli.bytesToHex(a)).not.toBe(cli.bytesToHex(cli.randomBytes(16)));
	});
});
