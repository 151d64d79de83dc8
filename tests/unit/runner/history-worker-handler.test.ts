import { deflateRawSync } from "node:zlib";
import initSqlJs from "sql.js";
import type { HistoryEntry } from "../../../src/runner/executor";
import { createHistoryWorkerHandler } from "../../../src/runner/history-worker-handler";
import type { HistoryRequest, HistoryResponse } from "../../../src/runner/history-worker-protocol";
import { memoryStorage, type MemoryStorage } from "../../support/memory-storage";

const PATH = "h.sqlite";

function entry(i: number, patch: Partial<HistoryEntry> = {}): HistoryEntry {
	return { filePath: "api.md", alias: "login", method: "GET", url: `http://127.0.0.1:8080/?i=${i}`, status: 200, outcome: "done", errorCode: null, requestBytes: i, responseBytes: 0, durationMs: 1, timestamp: 1_700_000_000_000 + i, transport: "node", ...patch };
}

type StorageAsk = Extract<HistoryResponse, { op: "storage" }>;

/**
 * The host's side, as a plain object: the handler under test, each storage call it asks for made
 * on `storage` (or answered by `serve` when given) in a later task, and every other message kept.
 */
function host(storage: MemoryStorage, options: { serve?: (ask: StorageAsk) => HistoryRequest | null } = {}) {
	const received: HistoryResponse[] = [];
	const asks: StorageAsk[] = [];
	const waiters: Array<() => void> = [];
	const wasms: ArrayBuffer[] = [];
	let nextId = 1;
	const handle = createHistoryWorkerHandler(
		(m) => {
			if (m.op !== "storage") {
				received.push(m);
				for (const w of waiters.splice(0)) w();
				return;
			}
			asks.push(m);
			const scripted = options.serve?.(m);
			if (scripted) return void setImmediate(() => handle(scripted));
			(storage[m.method].bind(storage) as (...args: unknown[]) => Promise<unknown>)(...m.args).then(
				(value) => handle({ op: "storage.result", call: m.call, value }),
				(e: Error) => handle({ op: "storage.failed", call: m.call, message: e.message }),
			);
		},
		(wasm) => (wasms.push(wasm), initSqlJs()),
	);
	const answerTo = (id: number): Promise<HistoryResponse> =>
		new Promise((resolve) => {
			const check = () => {
				const found = received.find((m) => "id" in m && m.id === id);
				if (found) resolve(found);
				else waiters.push(check);
			};
			check();
		});
	/** Sends a request with the next id and resolves with its answer. */
	const request = (r: HistoryRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never) => {
		const id = nextId++;
		handle({ ...r, id });
		return answerTo(id);
	};
	return { handle, request, received, asks, wasms };
}

const bytesWasm = { bytes: new ArrayBuffer(8) };

describe("the history worker handler", () => {
	it("fails every operation before open, saying so", async () => {
		const h = host(memoryStorage());
		await expect(h.request({ op: "history.list", filePath: "api.md", alias: "login" })).resolves.toEqual({ id: 1, op: "history.failed", message: "run history is not open" });
		await expect(h.request({ op: "history.close" })).resolves.toMatchObject({ op: "history.failed" });
		expect(h.asks).toEqual([]);
	});

	it("opens through the host's storage only, and answers records, renames and lists in the order they came", async () => {
		const storage = memoryStorage();
		const h = host(storage);
		const opened = h.request({ op: "history.open", path: PATH, wasm: bytesWasm });
		const recorded = h.request({ op: "history.record", entry: entry(1) });
		const renamed = h.request({ op: "history.rename", oldPath: "api.md", newPath: "b.md" });
		const listed = h.request({ op: "history.list", filePath: "b.md", alias: "login" });
		await expect(opened).resolves.toEqual({ id: 1, op: "history.done" });
		await expect(recorded).resolves.toEqual({ id: 2, op: "history.done" });
		await expect(renamed).resolves.toEqual({ id: 3, op: "history.done" });
		expect(await listed).toEqual({ id: 4, op: "history.done", rows: [{ id: 1, ...entry(1), filePath: "b.md" }] });
		expect(h.received.map((m) => "id" in m && m.id)).toEqual([1, 2, 3, 4]);
		expect(h.asks.map((a) => a.method)).toEqual(expect.arrayContaining(["createExclusive", "read", "remove"]));
		expect(h.asks.map((a) => a.call)).toEqual(h.asks.map((_, i) => i + 1));
		expect(h.wasms).toEqual([bytesWasm.bytes]);
	});

	it("writes on close, through the host's storage, and answers an empty list with no rows", async () => {
		const storage = memoryStorage();
		const h = host(storage);
		await h.request({ op: "history.open", path: PATH, wasm: bytesWasm });
		await expect(h.request({ op: "history.list", filePath: "api.md", alias: "login" })).resolves.toEqual({ id: 2, op: "history.done", rows: [] });
		await h.request({ op: "history.record", entry: entry(5) });
		expect(storage.files.has(PATH)).toBe(false);
		await expect(h.request({ op: "history.close" })).resolves.toEqual({ id: 4, op: "history.done" });
		expect(new TextDecoder().decode(storage.files.get(PATH)?.subarray(0, 15))).toBe("SQLite format 3");
		expect(storage.log.some((l) => l.startsWith(`rename ${PATH}.tmp-`) && l.endsWith(` ${PATH}`))).toBe(true);
	});

	it("decodes embedded WebAssembly text before handing it to sql.js's loader", async () => {
		const wasm = Uint8Array.from({ length: 3000 }, (_, i) => i % 251);
		const h = host(memoryStorage());
		await h.request({ op: "history.open", path: PATH, wasm: { deflatedBase64: deflateRawSync(wasm).toString("base64") } });
		expect(h.wasms.map((b) => Buffer.from(b).equals(Buffer.from(wasm)))).toEqual([true]);
	});

	it("fails the open, and what follows, with the reason a storage call failed on the host", async () => {
		const h = host(memoryStorage(), { serve: (ask) => (ask.method === "createExclusive" ? { op: "storage.failed", call: ask.call, message: "vault is read-only" } : null) });
		await expect(h.request({ op: "history.open", path: PATH, wasm: bytesWasm })).resolves.toEqual({ id: 1, op: "history.failed", message: "vault is read-only" });
		await expect(h.request({ op: "history.list", filePath: "api.md", alias: "login" })).resolves.toEqual({ id: 2, op: "history.failed", message: "vault is read-only" });
	});

	it("fails the open with the loader's reason when sql.js does not compile", async () => {
		const answers: HistoryResponse[] = [];
		const handle = createHistoryWorkerHandler(
			(m) => answers.push(m),
			() => Promise.reject(new Error("CompileError: bad magic")),
		);
		handle({ id: 9, op: "history.open", path: PATH, wasm: bytesWasm });
		await new Promise<void>((resolve) => {
			const wait = () => (answers.length ? resolve() : setImmediate(wait));
			wait();
		});
		expect(answers).toEqual([{ id: 9, op: "history.failed", message: "CompileError: bad magic" }]);
	});

	it("passes the store's notices to the host", async () => {
		const storage = memoryStorage({ [PATH]: "not a database ".repeat(40) });
		const h = host(storage);
		await h.request({ op: "history.open", path: PATH, wasm: bytesWasm });
		expect(h.received.filter((m) => m.op === "history.notice")).toEqual([{ op: "history.notice", message: expect.stringContaining("moved to h.sqlite.corrupt-") as string, notice: expect.objectContaining({ code: "moved_aside" }) as object }]);
		expect(storage.log.filter((l) => l.startsWith(`rename ${PATH} ${PATH}.corrupt-`))).toHaveLength(1);
	});

	it("takes in another writer's rows on reload", async () => {
		const storage = memoryStorage();
		const a = host(storage);
		const b = host(storage);
		await a.request({ op: "history.open", path: PATH, wasm: bytesWasm });
		await b.request({ op: "history.open", path: PATH, wasm: bytesWasm });
		await b.request({ op: "history.record", entry: entry(3, { alias: "cli" }) });
		await b.request({ op: "history.close" });
		await expect(a.request({ op: "history.reload" })).resolves.toEqual({ id: 2, op: "history.done" });
		await expect(a.request({ op: "history.list", filePath: "api.md", alias: "cli" })).resolves.toMatchObject({ rows: [{ requestBytes: 3 }] });
	});

	it("ignores an answer to a storage call it never made", () => {
		const h = host(memoryStorage());
		expect(() => h.handle({ op: "storage.result", call: 42, value: null })).not.toThrow();
		expect(() => h.handle({ op: "storage.failed", call: 43, message: "x" })).not.toThrow();
		expect(h.received).toEqual([]);
	});
});
