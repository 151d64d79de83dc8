/**
 * Run history kept in a SQLite worker (the plugin's; src/runner/history-worker-handler.ts runs
 * there): sql.js is decoded, compiled and run in the worker, and this thread only posts rows and
 * serves the worker's file operations through `storage` (the vault adapter lives here). On
 * runtimes without `Uint8Array.fromBase64` or `DecompressionStream`, preparing sql.js on the main
 * thread held it 75–200 ms right after the first run of a session.
 */
import type { BinaryStorage } from "./binary-storage";
import type { WorkerEvents, WorkerLink } from "./db/worker-driver";
import type { HistoryEntry } from "./executor";
import type { HistoryNotice, HistoryRow, RunHistoryStore } from "./history-schema";
import type { HistoryRequest, HistoryResponse, StorageCall } from "./history-worker-protocol";
import { sqlWasmForWorker } from "./sqljs";

/** Starts a SQLite worker (the plugin's source answers both db and history messages); null where none can start. */
export type HistoryWorkerFactory = (events: WorkerEvents<HistoryResponse>) => WorkerLink<HistoryRequest> | null;

/** What a request is answered with: rows (list), bytes (snapshot), or nothing. */
type Answer = { rows?: HistoryRow[]; bytes?: Uint8Array };

type Request = HistoryRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

export interface WorkerHistoryOptions {
	/** What went wrong with the file (moved aside, a write that will be tried again), as the store reports it. */
	onNotice?: (message: string, notice: HistoryNotice) => void;
}

/**
 * Opens `path`'s history in a new worker from `factory`. Resolves null when no worker can start
 * here (the caller then keeps history on this thread); rejects when the worker could not open it.
 */
export async function openWorkerHistory(factory: HistoryWorkerFactory, storage: BinaryStorage, path: string, options: WorkerHistoryOptions = {}): Promise<RunHistoryStore | null> {
	const history = new WorkerHistory(factory, storage, options);
	if (!history.started) return null;
	try {
		await history.open(path);
	} catch (e) {
		history.terminate();
		throw e;
	}
	return history;
}

function callStorage(s: BinaryStorage, c: StorageCall): Promise<unknown> {
	switch (c.method) {
		case "rename":
			return s.rename(...c.args);
		case "write":
			return s.write(...c.args);
		case "createExclusive":
			return s.createExclusive(...c.args);
		default:
			return s[c.method](c.args[0]);
	}
}

class WorkerHistory implements RunHistoryStore {
	private readonly link: WorkerLink<HistoryRequest> | null;
	private nextId = 1;
	private readonly waiting = new Map<number, { resolve(answer: Answer): void; reject(e: Error): void }>();
	/** Why the worker stopped, once it did: later rows cannot be kept. */
	private gone: string | null = null;

	constructor(
		factory: HistoryWorkerFactory,
		private readonly storage: BinaryStorage,
		private readonly options: WorkerHistoryOptions,
	) {
		this.link = factory({ message: (m) => this.receive(m), gone: (reason) => this.stop(reason || "the SQLite worker stopped") });
	}

	get started(): boolean {
		return this.link !== null;
	}

	async open(path: string): Promise<void> {
		// Starting the worker (its source) and reading sql.js's text are each long on this thread: a task apiece, not one long task.
		await new Promise((next) => setTimeout(next, 0));
		await this.send({ op: "history.open", path, wasm: await sqlWasmForWorker() });
	}

	record(entry: HistoryEntry): void {
		this.post({ op: "history.record", entry });
	}

	renameFile(oldPath: string, newPath: string): void {
		this.post({ op: "history.rename", oldPath, newPath });
	}

	async list(filePath: string, alias: string): Promise<HistoryRow[]> {
		return (await this.send({ op: "history.list", filePath, alias })).rows ?? [];
	}

	async snapshot(): Promise<Uint8Array> {
		const { bytes } = await this.send({ op: "history.snapshot" });
		if (!bytes) throw new Error("the SQLite worker sent no database");
		return bytes;
	}

	async reload(): Promise<void> {
		await this.send({ op: "history.reload" });
	}

	/** Writes what is pending, then ends the worker. */
	async close(): Promise<void> {
		try {
			if (!this.gone) await this.send({ op: "history.close" });
		} finally {
			this.terminate();
		}
	}

	terminate(): void {
		this.link?.terminate();
		this.stop("closed");
	}

	/** A change that needs no answer; a worker that stopped cannot keep it, which the user is told. */
	private post(request: Request): void {
		if (this.gone) {
			const reason = `the SQLite worker stopped (${this.gone})`;
			this.options.onNotice?.(`Run history could not be written (${reason}).`, { code: "write_failed", reason });
			return;
		}
		this.link?.post({ ...request, id: this.nextId++ }, []);
	}

	private send(request: Request): Promise<Answer> {
		if (this.gone) return Promise.reject(new Error(this.gone));
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.link?.post({ ...request, id }, []);
		});
	}

	private receive(m: HistoryResponse): void {
		switch (m.op) {
			case "storage":
				return void this.serve(m);
			case "history.notice":
				return this.options.onNotice?.(m.message, m.notice);
			case "history.done":
			case "history.failed": {
				const w = this.waiting.get(m.id);
				this.waiting.delete(m.id);
				if (m.op === "history.done") w?.resolve(m);
				else w?.reject(new Error(m.message));
			}
		}
	}

	/** Makes one file operation for the worker and posts its result (or why it failed). */
	private async serve(m: { call: number } & StorageCall): Promise<void> {
		try {
			const value = await callStorage(this.storage, m);
			this.link?.post({ op: "storage.result", call: m.call, value }, []);
		} catch (e) {
			this.link?.post({ op: "storage.failed", call: m.call, message: e instanceof Error ? e.message : String(e) }, []);
		}
	}

	private stop(reason: string): void {
		this.gone ??= reason;
		for (const w of this.waiting.values()) w.reject(new Error(reason));
		this.waiting.clear();
	}
}
