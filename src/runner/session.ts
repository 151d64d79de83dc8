import { IDLE, type BlockResult, type RunSnapshot } from "./result";
import type { ResultStore } from "./run-note";
import { isBusy } from "./busy";

export type SnapshotListener = (snapshot: RunSnapshot) => void;

/**
 * Run state of one note: the single source of truth that every view of the note
 * (reading view, live preview, source mode) subscribes to, so a response stays visible
 * while the block is edited and two views show the same run.
 */
export class NoteSession implements ResultStore {
	private readonly snapshots = new Map<string, RunSnapshot>();
	private readonly results = new Map<string, BlockResult>();
	private readonly listeners = new Map<string, Set<SnapshotListener>>();
	private readonly controllers = new Map<string, AbortController>();
	/** Per block, its latest finished run with a response and the one before: "Compare with previous run". Memory only, never history. */
	private readonly finished = new Map<string, { last: RunSnapshot; previous?: RunSnapshot }>();

	/** The latest snapshot of a block (idle when it never ran). */
	snapshot(key: string): RunSnapshot {
		return this.snapshots.get(key) ?? IDLE;
	}

	/** Publishes a new snapshot to the block's subscribers. */
	update(key: string, snapshot: RunSnapshot): void {
		this.snapshots.set(key, snapshot);
		const kept = this.finished.get(key);
		if ((snapshot.state === "done" || snapshot.state === "cached") && snapshot.kind !== undefined && snapshot.startedAt !== kept?.last.startedAt) {
			this.finished.set(key, { last: snapshot, previous: kept?.last });
		}
		for (const l of this.listeners.get(key) ?? []) l(snapshot);
	}

	/** The finished run (with a response) before the latest one, body included: this session only. */
	previousRun(key: string): RunSnapshot | undefined {
		return this.finished.get(key)?.previous;
	}

	/** Calls `listener` now with the current snapshot and on every update; returns the unsubscribe. */
	subscribe(key: string, listener: SnapshotListener): () => void {
		let set = this.listeners.get(key);
		if (!set) this.listeners.set(key, (set = new Set()));
		set.add(listener);
		listener(this.snapshot(key));
		return () => {
			set.delete(listener);
			if (set.size === 0) this.listeners.delete(key);
		};
	}

	/** Starts tracking a run; an earlier run of the same block is cancelled first. */
	begin(key: string): AbortController {
		this.controllers.get(key)?.abort();
		const controller = new AbortController();
		this.controllers.set(key, controller);
		return controller;
	}

	/** Forgets the controller once its run ended (only if it is still the current one). */
	end(key: string, controller: AbortController): void {
		if (this.controllers.get(key) === controller) this.controllers.delete(key);
	}

	/** Cancels the block's run (a request in flight, or a poll between attempts); returns whether one was running. */
	cancel(key: string): boolean {
		const c = this.controllers.get(key);
		if (!c || !isBusy(this.snapshot(key))) return false;
		c.abort();
		return true;
	}

	/** Cancels every running block of the note. */
	cancelAll(): number {
		let n = 0;
		for (const key of [...this.controllers.keys()]) if (this.cancel(key)) n++;
		return n;
	}

	/** Cancels every run and drops every subscriber: after the plugin unloads, no view is drawn again. */
	close(): void {
		this.cancelAll();
		this.listeners.clear();
	}

	isRunning(key: string): boolean {
		return isBusy(this.snapshot(key));
	}

	// ResultStore: finished runs by alias, for chaining.
	get(alias: string): BlockResult | undefined {
		return this.results.get(alias);
	}

	set(alias: string, result: BlockResult): void {
		this.results.set(alias, result);
	}

	/** Aliases with a result, for the `(cached)` completion hint. */
	aliasesWithResults(): string[] {
		return [...this.results.keys()];
	}
}

/** Sessions of every open note, keyed by vault path. */
export class SessionStore {
	private readonly notes = new Map<string, NoteSession>();

	note(path: string): NoteSession {
		let s = this.notes.get(path);
		if (!s) this.notes.set(path, (s = new NoteSession()));
		return s;
	}

	/** Moves a note's session when the note is renamed, so its results follow it. */
	rename(oldPath: string, newPath: string): void {
		const s = this.notes.get(oldPath);
		if (!s) return;
		this.notes.delete(oldPath);
		this.notes.set(newPath, s);
	}

	delete(path: string): void {
		this.notes.get(path)?.cancelAll();
		this.notes.delete(path);
	}

	cancelAll(): void {
		for (const s of this.notes.values()) s.cancelAll();
	}

	/** Unload: every run cancelled, and the cancellations reach no view (its window may be gone). */
	close(): void {
		for (const s of this.notes.values()) s.close();
	}
}
