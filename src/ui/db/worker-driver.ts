/**
 * SQLite for the plugin: sql.js in a Web Worker (docs/db.md), so the UI never blocks on a
 * query. The worker's code is bundled into main.js as a string (no `import()`: esbuild builds
 * src/ui/db/sqlite-worker.ts for the `worker:` import) and started from a Blob URL; sql.js's
 * WebAssembly is decoded once on the main thread and a copy handed to each worker.
 *
 * Stop and timeout terminate the worker running the query (a runaway statement stops at
 * once); the next query starts a fresh one. Where no worker can start (a test host, a mobile
 * web view that refuses one), the same driver runs on the main thread instead.
 */
import workerSource from "worker:./sqlite-worker";
import { cancellation, DB_TEXT, dbFailed, type DbDriver, type ExplainOutcome, type QueryOptions, type QueryOutcome, type SchemaOutcome } from "../../runner/db/driver";
import { createSqliteDriver, type SqliteFile } from "../../runner/db/sqlite";
import { loadSqlJs, sqlWasmBytes } from "../../runner/sqljs";
import type { SqliteFileImage, WorkerRequest, WorkerResponse } from "./sqlite-worker-protocol";

type Outcome = QueryOutcome | ExplainOutcome | SchemaOutcome;
/** A request without its id (the worker numbers them). */
type Job = WorkerRequest extends infer R ? (R extends { op: "init" } ? never : R extends WorkerRequest ? Omit<R, "id"> : never) : never;

/** What the driver needs of the environment: how to start a worker (null: none can start here). */
export interface WorkerFactory {
	(): Worker | null;
}

/** A Blob-URL worker over the bundled source; null where this environment has no workers. */
export const blobWorker: WorkerFactory = () => {
	if (typeof Worker === "undefined" || typeof Blob === "undefined" || typeof URL.createObjectURL !== "function") return null;
	const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
	try {
		return new Worker(url);
	} catch {
		return null;
	} finally {
		// The worker has fetched its script once constructed; the URL is not needed after.
		window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
	}
};

class WorkerGone extends Error {}

/** One started worker: sql.js initialised in it, one job at a time. */
class SqliteWorker {
	private nextId = 1;
	private readonly waiting = new Map<number, { resolve(r: WorkerResponse): void; reject(e: Error): void }>();
	readonly ready: Promise<void>;

	constructor(private readonly worker: Worker) {
		worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
			const w = this.waiting.get(e.data.id);
			this.waiting.delete(e.data.id);
			w?.resolve(e.data);
		};
		worker.onerror = (e: ErrorEvent) => {
			e.preventDefault();
			this.fail(new WorkerGone(e.message || "the SQLite worker stopped"));
		};
		this.ready = sqlWasmBytes()
			.then((bytes) => {
				const wasm = bytes.slice().buffer;
				return this.send({ op: "init", wasm }, [wasm]);
			})
			.then((r) => {
				if (r.op === "failed") throw new WorkerGone(r.message);
			});
	}

	send(job: Job | { op: "init"; wasm: ArrayBuffer }, transfer: Transferable[] = []): Promise<WorkerResponse> {
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.worker.postMessage({ ...job, id }, transfer);
		});
	}

	private fail(e: Error): void {
		for (const w of this.waiting.values()) w.reject(e);
		this.waiting.clear();
	}

	terminate(): void {
		this.worker.terminate();
		this.fail(new WorkerGone("terminated"));
	}
}

/**
 * The workers of the plugin: an idle one is reused (sql.js compiled once per worker), a busy
 * one never shared, a cancelled one terminated. `available` turns false for good once a worker
 * fails to start, and every query then runs on the main thread.
 */
export class SqliteWorkers {
	private idle: SqliteWorker | null = null;
	private live = new Set<SqliteWorker>();
	available = true;

	constructor(private readonly factory: WorkerFactory = blobWorker) {}

	/** A started worker, or null when none can start here. */
	async acquire(): Promise<SqliteWorker | null> {
		if (!this.available) return null;
		const reused = this.idle;
		this.idle = null;
		if (reused) return reused;
		const raw = this.factory();
		if (!raw) {
			this.available = false;
			return null;
		}
		const w = new SqliteWorker(raw);
		try {
			await w.ready;
		} catch {
			w.terminate();
			this.available = false;
			return null;
		}
		this.live.add(w);
		return w;
	}

	release(w: SqliteWorker): void {
		if (this.idle) this.discard(w);
		else this.idle = w;
	}

	discard(w: SqliteWorker): void {
		w.terminate();
		this.live.delete(w);
		if (this.idle === w) this.idle = null;
	}

	close(): void {
		for (const w of this.live) w.terminate();
		this.live.clear();
		this.idle = null;
	}
}

/** The file's current bytes as an image for the worker (a copy, transferred to it). */
async function imageOf(file: SqliteFile, readonly: boolean): Promise<SqliteFileImage> {
	const bytes = await file.read();
	// A copy: the adapter may hand out a buffer it keeps (transferring that would detach its copy).
	const buffer = bytes === null ? null : bytes.slice().buffer;
	return { path: file.path, bytes: buffer, readonly };
}

/**
 * A SQLite driver that runs each query in a worker from `workers`, reading the file on the
 * main thread and writing back (atomically, by `file`) what a writable connection changed.
 */
export function createWorkerSqliteDriver(workers: SqliteWorkers, file: SqliteFile, options: { readonly: boolean }): DbDriver {
	let mainThread: DbDriver | null = null;
	const fallback = () => (mainThread ??= createSqliteDriver(loadSqlJs, file, options));

	/** Runs one job in a worker; cancel and timeout terminate it. Null: no worker here. */
	const inWorker = async (job: (image: SqliteFileImage) => Job, opts: QueryOptions): Promise<Outcome | null> => {
		const startedAt = Date.now();
		const worker = await workers.acquire();
		if (!worker) return null;
		let image: SqliteFileImage;
		try {
			image = await imageOf(file, options.readonly);
		} catch (e) {
			workers.release(worker);
			return dbFailed("connect_failed", `${file.path}: ${e instanceof Error ? e.message : String(e)}`, startedAt);
		}
		let stopped: () => void = () => undefined;
		const whenStopped = new Promise<"stopped">((resolve) => (stopped = () => resolve("stopped")));
		const cancel = cancellation(opts, () => {
			workers.discard(worker);
			stopped();
		});
		try {
			const reply = await Promise.race([worker.send(job(image), image.bytes ? [image.bytes] : []), whenStopped]);
			if (reply === "stopped") return { kind: "cancelled", reason: cancel.reason() ?? "user", timing: { total: Date.now() - startedAt } };
			workers.release(worker);
			if (reply.op !== "outcome") return dbFailed("connect_failed", reply.op === "failed" ? reply.message : "the SQLite worker did not answer", startedAt);
			if (reply.written && reply.outcome.kind === "done" && !options.readonly) {
				try {
					await file.write(new Uint8Array(reply.written));
				} catch (e) {
					return dbFailed("sql_error", `${file.path}: could not save: ${e instanceof Error ? e.message : String(e)}`, startedAt, { message: "Could not save the database" });
				}
			}
			return reply.outcome;
		} catch (e) {
			// The worker died under the query (out of memory, a crash): this query fails, the next starts a new one.
			workers.discard(worker);
			const why = cancel.reason();
			if (why) return { kind: "cancelled", reason: why, timing: { total: Date.now() - startedAt } };
			return dbFailed("connect_failed", `${file.path}: ${e instanceof Error ? e.message : String(e)}`, startedAt, { message: DB_TEXT.connect_failed });
		} finally {
			cancel.dispose();
		}
	};

	return {
		dialect: "sqlite",
		run: async (statements, opts) => ((await inWorker((image) => ({ op: "run", file: image, statements: [...statements], timeoutMs: opts.timeoutMs, maxRows: opts.maxRows }), opts)) as QueryOutcome | null) ?? fallback().run(statements, opts),
		explain: async (statement, opts) => ((await inWorker((image) => ({ op: "explain", file: image, statement, timeoutMs: opts.timeoutMs, maxRows: opts.maxRows }), opts)) as ExplainOutcome | null) ?? fallback().explain(statement, opts),
		schema: async () => ((await inWorker((image) => ({ op: "schema", file: image }), { timeoutMs: 30_000, maxRows: Infinity })) as SchemaOutcome | null) ?? fallback().schema(),
		close: () => Promise.resolve(),
	};
}
