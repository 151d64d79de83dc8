import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sqlWasmBinary, sqlWasmForWorker } from "../../../src/runner/sql-wasm";
import { wasmBytesOf } from "../../../src/runner/wasm-decode";

const installed = readFileSync(join(__dirname, "..", "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm"));
/** Byte for byte the installed file (a deep equality over 600 KB would take jest minutes). */
const isInstalled = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).equals(installed);

describe("sql.js's WebAssembly as the plugin embeds it", () => {
	it("decodes the embedded text to the installed package's bytes", async () => {
		expect(isInstalled(await sqlWasmBinary())).toBe(true);
	});

	it("hands a worker the embedded text undecoded, which the worker decodes to the same bytes", async () => {
		const source = await sqlWasmForWorker();
		expect(Object.keys(source)).toEqual(["deflatedBase64"]);
		expect("deflatedBase64" in source && source.deflatedBase64).toMatch(/^[A-Za-z0-9+/]+=*$/);
		expect(isInstalled(await wasmBytesOf(source))).toBe(true);
	});
});
