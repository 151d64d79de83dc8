import initSqlJs from "sql.js";
import { nextMessage, startThread } from "../../support/node-thread";

// A thread bundles its code with esbuild and compiles sql.js: seconds on a busy 2-core machine.
jest.setTimeout(30_000);

// Run as dist/cli.js runs it, in a thread: jest would resolve sql.js's wasm to its stand-in (jest.config.js).
const CALLS = `
import { parentPort } from "node:worker_threads";
import { sqlWasmBinary, sqlWasmForWorker } from "./src/cli/sql-wasm-file";
void (async () => {
	const binary = await sqlWasmBinary();
	const first = await sqlWasmForWorker();
	const second = await sqlWasmForWorker();
	parentPort!.postMessage({ binary, first, second, distinct: first.bytes !== second.bytes && first.bytes !== binary.buffer });
})();
`;

interface Calls {
	binary: Uint8Array;
	first: { bytes: ArrayBuffer };
	second: { bytes: ArrayBuffer };
	distinct: boolean;
}

let calls: Calls;
beforeAll(async () => {
	const thread = startThread({ source: CALLS });
	calls = await nextMessage<Calls>(thread);
	await thread.terminate();
});

describe("sql.js's WebAssembly, read from the installed package", () => {
	it("reads a valid WebAssembly module", () => {
		expect([...calls.binary.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
		expect(WebAssembly.validate(new Uint8Array(calls.binary))).toBe(true);
	});

	it("hands a worker the same bytes, which sql.js starts from", async () => {
		expect(Buffer.from(calls.first.bytes).equals(calls.binary)).toBe(true); // not toEqual: a byte-by-byte diff of the whole module is slow
		const SQL = await initSqlJs({ wasmBinary: calls.first.bytes });
		const db = new SQL.Database();
		expect(db.exec("SELECT 6 * 7 AS answer")[0].values).toEqual([[42]]);
		db.close();
	});

	it("hands each worker a buffer of its own, so that transferring one leaves the others intact", () => {
		expect(calls.distinct).toBe(true);
	});
});
