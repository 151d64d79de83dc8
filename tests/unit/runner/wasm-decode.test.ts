import { deflateRawSync } from "node:zlib";
import { decodeBase64, inflateRaw, wasmBytesOf } from "../../../src/runner/wasm-decode";

/** Bytes of every value, and long enough to span several deflate blocks. */
const sample = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + (i >> 8)) % 256);

/** Runs `fn` with `name` on `owner` replaced (or removed, with undefined), restored after. */
async function withGlobal<T>(owner: object, name: string, value: unknown, fn: () => Promise<T> | T): Promise<T> {
	const had = Object.getOwnPropertyDescriptor(owner, name);
	Object.defineProperty(owner, name, { value, configurable: true, writable: true });
	try {
		return await fn();
	} finally {
		if (had) Object.defineProperty(owner, name, had);
		else delete (owner as Record<string, unknown>)[name];
	}
}

describe("decodeBase64", () => {
	it("decodes every byte value without the runtime's native decoder", async () => {
		const text = Buffer.from(sample).toString("base64");
		const bytes = await withGlobal(Uint8Array, "fromBase64", undefined, () => decodeBase64(text));
		expect(Buffer.from(bytes).equals(Buffer.from(sample))).toBe(true);
		expect(decodeBase64("")).toEqual(new Uint8Array());
	});

	it("hands the text to Uint8Array.fromBase64 where the runtime has it", async () => {
		const seen: string[] = [];
		const native = (s: string) => (seen.push(s), Uint8Array.of(42));
		const bytes = await withGlobal(Uint8Array, "fromBase64", native, () => decodeBase64("AAEC"));
		expect([...bytes]).toEqual([42]);
		expect(seen).toEqual(["AAEC"]);
	});
});

describe("inflateRaw", () => {
	const deflated = new Uint8Array(deflateRawSync(sample));

	it("inflates raw-deflated bytes with the runtime's DecompressionStream", async () => {
		expect(typeof DecompressionStream).toBe("function");
		expect(Buffer.from(await inflateRaw(deflated)).equals(Buffer.from(sample))).toBe(true);
	});

	it("inflates them in JavaScript where the runtime has no DecompressionStream, or one without deflate-raw", async () => {
		const without = await withGlobal(globalThis, "DecompressionStream", undefined, () => inflateRaw(deflated));
		expect(Buffer.from(without).equals(Buffer.from(sample))).toBe(true);
		class NoRawDeflate {
			constructor(format: string) {
				throw new TypeError(`unsupported format ${format}`);
			}
		}
		const refused = await withGlobal(globalThis, "DecompressionStream", NoRawDeflate, () => inflateRaw(deflated));
		expect(Buffer.from(refused).equals(Buffer.from(sample))).toBe(true);
	});
});

describe("wasmBytesOf", () => {
	it("gives bytes handed over as they are, without a copy", async () => {
		const bytes = sample.slice().buffer;
		await expect(wasmBytesOf({ bytes })).resolves.toBe(bytes);
	});

	it("decodes the embedded text to a buffer holding exactly the WebAssembly's bytes", async () => {
		const deflatedBase64 = deflateRawSync(sample).toString("base64");
		for (const DS of [DecompressionStream, undefined]) {
			const buffer = await withGlobal(globalThis, "DecompressionStream", DS, () => wasmBytesOf({ deflatedBase64 }));
			expect(buffer).toBeInstanceOf(ArrayBuffer);
			expect(Buffer.from(buffer).equals(Buffer.from(sample))).toBe(true);
		}
	});
});
