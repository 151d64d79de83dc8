import type * as Fflate from "fflate";

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
async function inflate(deflated: Uint8Array): Promise<Uint8Array> {
	if (typeof DecompressionStream === "function") {
		try {
			const stream = new Blob([deflated as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
			return new Uint8Array(await new Response(stream).arrayBuffer());
		} catch {
			// A runtime without "deflate-raw": the JavaScript inflate below.
		}
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a text module of main.js, for the rare runtime that needs it (docs/architecture.md)
	return (require("fflate") as typeof Fflate).inflateSync(deflated);
}

/**
 * sql.js's WebAssembly as the plugin gets it: embedded raw-deflated and as base64 by the build
 * (esbuild.config.mjs, `deflated-wasm`: half the size in main.js). The CLI's build puts
 * src/cli/sql-wasm-file.ts in this module's place: it reads the file from node_modules instead
 * of every CLI start reading and compiling 450 KB of base64 it rarely uses.
 */
export function sqlWasmBinary(): Promise<Uint8Array> {
	// Required here, not imported: main.js carries it as a text module, read only on this first use
	// (docs/architecture.md, "Text modules").
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return inflate(decodeBase64(require("sql.js/dist/sql-wasm.wasm") as string));
}
