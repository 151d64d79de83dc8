/**
 * What a SQLite worker does with each request, whichever thread it is: the plugin's Web Worker
 * (src/ui/db/sqlite-worker.ts) and the CLI's worker thread (src/cli/sqlite-worker.ts) differ only
 * in how messages travel and where sql.js comes from. It runs the same driver the calling thread
 * would (./sqlite.ts) on an image of the file, and hands back what a writable connection wrote.
 */
import type { SqlJsStatic } from "sql.js";
import { wasmBytesOf } from "../wasm-decode";
import { createSqliteDriver } from "./sqlite";
import type { SqliteFileImage, WorkerRequest, WorkerResponse } from "./sqlite-worker-protocol";

/** Posts a reply to the host, moving the listed buffers instead of copying them. */
export type PostReply = (message: WorkerResponse, transfer: ArrayBuffer[]) => void;

/** Bytes as an ArrayBuffer of their own, ready to transfer (a view into a larger buffer is copied). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
	return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
}

/**
 * The worker's message handler: `init` decodes and compiles sql.js from what the host sends (never fetched),
 * then each query runs to an `outcome`; a write committed while later statements are still to
 * run is posted at once (`committed`), since the host may terminate the worker in one of them.
 */
export function createSqliteWorkerHandler(post: PostReply, loadSqlJs: (wasm: ArrayBuffer) => Promise<SqlJsStatic>): (req: WorkerRequest) => void {
	let sqlJs: Promise<SqlJsStatic> | null = null;

	/** A driver over one image of the file; what it writes is kept to hand back. */
	const driverOver = (req: WorkerRequest & { file: SqliteFileImage }) => {
		const image = req.file;
		let written: Uint8Array | null = null;
		const driver = createSqliteDriver(
			() => sqlJs ?? Promise.reject(new Error("sql.js is not initialised")),
			{ path: image.path, read: () => Promise.resolve(image.bytes ? new Uint8Array(image.bytes) : null), write: (bytes) => Promise.resolve(void (written = bytes)) },
			{
				readonly: image.readonly,
				onCommitted: (bytes) => {
					const buffer = ownBuffer(bytes);
					post({ id: req.id, op: "committed", bytes: buffer }, [buffer]);
				},
			},
		);
		return { driver, written: () => written };
	};

	const handle = async (req: WorkerRequest): Promise<void> => {
		if (req.op === "init") {
			sqlJs = wasmBytesOf(req.wasm).then(loadSqlJs);
			try {
				await sqlJs;
				post({ id: req.id, op: "ready" }, []);
			} catch (e) {
				post({ id: req.id, op: "failed", message: e instanceof Error ? e.message : String(e) }, []);
			}
			return;
		}
		const { driver, written } = driverOver(req);
		const outcome =
			req.op === "run"
				? await driver.run(req.statements, { timeoutMs: req.timeoutMs, maxRows: req.maxRows })
				: req.op === "explain"
					? await driver.explain(req.statement, { timeoutMs: req.timeoutMs, maxRows: req.maxRows })
					: await driver.schema();
		const bytes = written();
		const buffer = bytes ? ownBuffer(bytes) : null;
		post({ id: req.id, op: "outcome", outcome, written: buffer }, buffer ? [buffer] : []);
	};

	return (req) => {
		handle(req).catch((err: unknown) => post({ id: req.id, op: "failed", message: err instanceof Error ? err.message : String(err) }, []));
	};
}
