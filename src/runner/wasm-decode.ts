import type * as Fflate from "fflate";

/** WebAssembly as a host hands it to a SQLite worker: bytes, or the plugin's embedded text for the worker to decode. */
export type WasmSource = { bytes: ArrayBuffer } | { deflatedBase64: string };

/**
 * Decodes base64 straight into bytes: natively where the runtime has `Uint8Array.fromBase64`.
 * (Going through a module namespace instead — what esbuild's `__toESM` does to a dynamically
 * imported binary module — copies the bytes through a getter per index and froze the first run
 * for a second.)
 */
export function decodeBase64(text: string): Uint8Array {
	const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
	if (typeof native === "function") return native(text);
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

/**
 * Raw-deflated bytes inflated by the runtime's own zlib (`DecompressionStream`, asynchronous)
 * where it has one: fflate's JavaScript inflate of 917 KB, run once and cold, held the main
 * thread for about 100 ms right after the first run of a session. fflate stays the fallback.
 */
export async function inflateRaw(deflated: Uint8Array): Promise<Uint8Array> {
	if (typeof DecompressionStream === "function") {
		try {
			const stream = new Blob([deflated as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
			return new Uint8Array(await new Response(stream).arrayBuffer());
		} catch {
			// A runtime without "deflate-raw": the JavaScript inflate below.
		}
	}
	// Required here: main.js carries fflate as a text module, for the rare runtime that needs it (docs/architecture.md).
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return (require("fflate") as typeof Fflate).inflateSync(deflated);
}

/** The WebAssembly's bytes, decoded where this code runs (in the plugin: the SQLite worker, off the main thread). */
export async function wasmBytesOf(source: WasmSource): Promise<ArrayBuffer> {
	if ("bytes" in source) return source.bytes;
	const bytes = await inflateRaw(decodeBase64(source.deflatedBase64));
	return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
}
