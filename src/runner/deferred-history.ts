import type { HistoryEntry, HistoryRecorder } from "./executor";
import type { HistoryRow, RunHistoryStore } from "./history-store";

/** Operations kept while the store is not open yet (a retry after a failed open keeps them). */
const MAX_PENDING = 10_000;

/**
 * Run history that opens in the background: a run records at once and never waits for the
 * database. Rows (and renames) wait in memory, in order, until the store is open. Opening
 * starts on first use, in a later task, so the request that caused it goes out first. A
 * failed open is reported and tried again on the next use, never cached.
 */
export class DeferredHistory implements HistoryRecorder {
	private store: RunHistoryStore | null = null;
	private opening: Promise<RunHistoryStore | null> | null = null;
	private readonly pending: Array<(store: RunHistoryStore) => void> = [];
	/** Skips the wait for `later` (close does not wait for a task that may never come). */
	private openNow: (() => void) | null = null;

	constructor(
		private readonly open: () => Promise<RunHistoryStore>,
		private readonly onError: (error: unknown) => void,
		private readonly later: (f: () => void) => void = (f) => setTimeout(f, 0),
	) {}

	record(entry: HistoryEntry): void {
		this.whenOpen((s) => s.record(entry));
	}

	renameFile(oldPath: string, newPath: string): void {
		this.whenOpen((s) => s.renameFile(oldPath, newPath));
	}

	/** The block's runs, newest first (empty while history is unavailable). */
	async list(filePath: string, alias: string): Promise<HistoryRow[]> {
		const store = await this.ready();
		return store ? store.list(filePath, alias) : [];
	}

	/** The database with every run recorded so far (opens it when needed); rejects when history is unavailable. */
	async snapshot(): Promise<Uint8Array> {
		const store = await this.ready();
		if (!store) throw new Error("run history is unavailable");
		if (!store.snapshot) throw new Error("this run history cannot be read as a database");
		return store.snapshot();
	}

	/** Another process changed the file: the open store takes it in (nothing to do before it is open). */
	async reload(): Promise<void> {
		await this.store?.reload?.();
	}

	/** The open store; starts opening when nothing is under way. Resolves null when opening failed. */
	ready(): Promise<RunHistoryStore | null> {
		if (this.store) return Promise.resolve(this.store);
		this.opening ??= new Promise<void>((resolve) => {
			this.openNow = resolve;
			this.later(resolve);
		})
			.then(() => this.open())
			.then(
				(store) => {
					this.store = store;
					for (const op of this.pending.splice(0)) op(store);
					return store;
				},
				(e: unknown) => {
					this.opening = null;
					this.onError(e);
					return null;
				},
			);
		return this.opening;
	}

	/** Writes everything recorded so far and closes the store (opens it at once when rows wait). */
	async close(): Promise<void> {
		let store = this.store;
		if (!store && (this.opening || this.pending.length > 0)) {
			const opening = this.ready();
			this.openNow?.();
			store = await opening;
		}
		await store?.close();
	}

	private whenOpen(op: (store: RunHistoryStore) => void): void {
		if (this.store) return op(this.store);
		if (this.pending.length < MAX_PENDING) this.pending.push(op);
		void this.ready();
	}
}
