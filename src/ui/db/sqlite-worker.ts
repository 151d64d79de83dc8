/**
 * The SQLite worker: sql.js compiled from the bytes the plugin hands over (never fetched),
 * running the same driver the CLI runs (src/runner/db/sqlite.ts) off the main thread, so a
 * long query never blocks the UI and Stop can terminate it. Built by esbuild into a string
 * that main.js starts from a Blob URL (esbuild.config.mjs, `worker:` imports).
 */
import initSqlJs, { type SqlJsStatic } from "sql.js";
import { createSqliteDriver } from "../../runner/db/sqlite";
import type { SqliteFileImage, WorkerRequest, WorkerResponse } from "./sqlite-worker-protocol";

interface WorkerScope {
	onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
	postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

let sqlJs: Promise<SqlJsStatic> | null = null;

/** A driver over one image of the file; what it writes is kept to hand back. */
function driverOver(image: SqliteFileImage) {
	let written: Uint8Array | null = null;
	const driver = createSqliteDriver(
		() => sqlJs ?? Promise.reject(new Error("sql.js is not initialised")),
		{ path: image.path, read: () => Promise.resolve(image.bytes ? new Uint8Array(image.bytes) : null), write: (bytes) => Promise.resolve(void (written = bytes)) },
		{ readonly: image.readonly },
	);
	return { driver, written: () => written };
}

async function handle(req: WorkerRequest): Promise<void> {
	if (req.op === "init") {
		sqlJs = initSqlJs({ wasmBinary: req.wasm });
		try {
			await sqlJs;
			scope.postMessage({ id: req.id, op: "ready" });
		} catch (e) {
			scope.postMessage({ id: req.id, op: "failed", message: e instanceof Error ? e.message : String(e) });
		}
		return;
	}
	const { driver, written } = driverOver(req.file);
	const outcome =
		req.op === "run"
			? await driver.run(req.statements, { timeoutMs: req.timeoutMs, maxRows: req.maxRows })
			: req.op === "explain"
				? await driver.explain(req.statement, { timeoutMs: req.timeoutMs, maxRows: req.maxRows })
				: await driver.schema();
	const bytes = written();
	const buffer = bytes ? (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer)) : null;
	scope.postMessage({ id: req.id, op: "outcome", outcome, written: buffer }, buffer ? [buffer] : []);
}

scope.onmessage = (e) => {
	handle(e.data).catch((err: unknown) => scope.postMessage({ id: e.data.id, op: "failed", message: err instanceof Error ? err.message : String(err) }));
};
