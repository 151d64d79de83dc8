/**
 * SQLite in a worker the host can terminate: the plugin's Web Worker (src/ui/db/blob-worker.ts)
 * and the CLI's worker thread (src/cli/sqlite-thread.ts) behind one driver. The file is read
 * and written by the host (through its `SqliteFile`); the worker gets an image of it, runs the
 * statements with sql.js (./sqlite-worker-handler.ts) and hands back what it wrote.
 *
 * Stop and timeout terminate the worker running the query, so even one endless statement stops
 * at once; what the run had committed before it is still saved; the next query starts a fresh
 * worker. Where no worker can start (a test host, a mobile web view that refuses one), the same
 * driver runs on the calling thread instead.
 */
import { loadSqlJs, sqlWasmForWorker } from "../sqljs";
import type { WasmSource } from "../wasm-decode";
import { cancellation, dbFailed, saveFailed, type DbDriver, type ExplainOutcome, type QueryOptions, type QueryOutcome, type SchemaOutcome } from "./driver";
import { createSqliteDriver, type SqliteFile } from "./sqlite";
import type { SqliteFileImage, WorkerRequest, WorkerResponse } from "./sqlite-worker-protocol";

type Outcome = QueryOutcome | ExplainOutcome | SchemaOutcome;
/** A request without its id (the worker numbers them). */
type Job = WorkerRequest extends infer R ? (R extends { op: "init" } ? never : R extends WorkerRequest ? Omit<R, "id"> : never) : never;

/** A started worker as the driver sees it: requests in, and an end at once. */
export interface WorkerLink<Request = WorkerRequest> {
	/** Sends a request, moving the listed buffers instead of copying them. */
	post(request: Request, transfer: ArrayBuffer[]): void;
	terminate(): void;
}

/** What the host tells the driver about its worker: each reply, and that it died (with why). */
export interface WorkerEvents<Response = WorkerResponse> {
	message(response: Response): void;
	gone(reason: string): void;
}

/**
 * Starts a worker over the bundled source, wired to `events`; null where no worker can start
 * here. (The plugin's source also keeps run history, with its own messages: ../worker-history.ts.)
 */
export type WorkerFactory = (events: WorkerEvents) => WorkerLink | null;

class WorkerGone extends Error {}

/** One started worker: sql.js initialised in it, one job at a time. */
class SqliteWorker {
	private nextId = 1;
	private readonly waiting = new Map<number, { resolve(r: WorkerResponse): void; reject(e: Error): void; committed?(bytes: ArrayBuffer): void }>();
	private readonly link: WorkerLink;
	readonly ready: Promise<void>;
	/** False once the worker died or was terminated: an idle one that died is not reused. */
	alive = true;

	/** Throws when the factory gives no worker (none can start here). */
	constructor(factory: WorkerFactory) {
		const link = factory({
			message: (r) => {
				const w = this.waiting.get(r.id);
				if (r.op === "committed") return w?.committed?.(r.bytes);
				this.waiting.delete(r.id);
				w?.resolve(r);
			},
			gone: (reason) => this.fail(new WorkerGone(reason || "the SQLite worker stopped")),
		});
		if (!link) throw new WorkerGone("no worker can start here");
		this.link = link;
		this.ready = sqlWasmForWorker()
			.then((wasm) => this.send({ op: "init", wasm }, "bytes" in wasm ? [wasm.bytes] : []))
			.then((r) => {
				if (r.op === "failed") throw new WorkerGone(r.message);
			});
	}

	/** Sends a job; `committed` hears each commit the run reports before its outcome. */
	send(job: Job | { op: "init"; wasm: WasmSource }, transfer: ArrayBuffer[] = [], committed?: (bytes: ArrayBuffer) => void): Promise<WorkerResponse> {
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject, committed });
			this.link.post({ ...job, id }, transfer);
		});
	}

	private fail(e: Error): void {
		this.alive = false;
		for (const w of this.waiting.values()) w.reject(e);
		this.waiting.clear();
	}

	terminate(): void {
		this.link.terminate();
		this.fail(new WorkerGone("terminated"));
	}
}

/**
 * The workers of a host: an idle one is reused (sql.js compiled once per worker), a busy one
 * never shared, a cancelled one terminated. `available` turns false for good once a worker
 * fails to start, and every query then runs on the calling thread.
 */
export class SqliteWorkers {
	private idle: SqliteWorker | null = null;
	private live = new Set<SqliteWorker>();
	available = true;

	constructor(private readonly factory: WorkerFactory) {}

	/** A started worker, or null when none can start here. */
	async acquire(): Promise<SqliteWorker | null> {
		if (!this.available) return null;
		const reused = this.idle;
		this.idle = null;
		if (reused?.alive) return reused;
		if (reused) this.discard(reused);
		let w: SqliteWorker;
		try {
			w = new SqliteWorker(this.factory);
		} catch {
			this.available = false;
			return null;
		}
		this.live.add(w);
		try {
			await w.ready;
		} catch {
			this.discard(w);
			this.available = false;
			return null;
		}
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

	/** Terminates every worker (the host is closing); a later query starts a new one. */
	close(): void {
		for (const w of this.live) w.terminate();
		this.live.clear();
		this.idle = null;
	}
}

/** The file's current bytes as an image for the worker (a copy, transferred to it). */
async function imageOf(file: SqliteFile, readonly: boolean): Promise<SqliteFileImage> {
	const bytes = await file.read();
	// A copy: the storage may hand out a buffer it keeps (transferring that would detach its copy).
	const buffer = bytes === null ? null : new Uint8Array(bytes).buffer;
	return { path: file.path, bytes: buffer, readonly };
}

/**
 * A SQLite driver that runs each query in a worker from `workers`, reading the file on the
 * calling thread and writing back (atomically, by `file`) what a writable connection committed.
 */
export function createWorkerSqliteDriver(workers: SqliteWorkers, file: SqliteFile, options: { readonly: boolean }): DbDriver {
	let callingThread: DbDriver | null = null;
	const fallback = () => (callingThread ??= createSqliteDriver(loadSqlJs, file, options));

	/** Saves what the worker wrote (or last committed); a failure to save is the query's outcome. */
	const save = async (bytes: ArrayBuffer | null, outcome: Outcome, startedAt: number): Promise<Outcome> => {
		if (!bytes || options.readonly) return outcome;
		try {
			await file.write(new Uint8Array(bytes));
			return outcome;
		} catch (e) {
			return saveFailed(file.path, e, startedAt);
		}
	};

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
		/** The file as the run last committed it, when it committed before the statement it is in. */
		let committed: ArrayBuffer | null = null;
		try {
			const reply = await Promise.race([worker.send(job(image), image.bytes ? [image.bytes] : [], (bytes) => (committed = bytes)), whenStopped]);
			if (reply === "stopped") return await save(committed, { kind: "cancelled", reason: cancel.reason() ?? "user", timing: { total: Date.now() - startedAt } }, startedAt);
			workers.release(worker);
			if (reply.op !== "outcome") return dbFailed("connect_failed", reply.op === "failed" ? reply.message : "the SQLite worker did not answer", startedAt);
			return await save(reply.written, reply.outcome, startedAt);
		} catch (e) {
			// Terminated by the cancel, or dead under the query (out of memory, a crash): then this
			// query fails, and the next starts a new worker.
			const why = cancel.reason();
			if (!why) workers.discard(worker);
			const outcome: Outcome = why ? { kind: "cancelled", reason: why, timing: { total: Date.now() - startedAt } } : dbFailed("connect_failed", `${file.path}: ${e instanceof Error ? e.message : String(e)}`, startedAt);
			return save(committed, outcome, startedAt);
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
