/**
 * Opt-in auto-sync (`[vcs] auto_sync_minutes`, docs/vcs.md): every N minutes the session's sync
 * runs — with its own safety point ("auto-sync") and the commit template — but never while a note
 * is being typed in (an edit less than AUTO_SYNC_IDLE_MS ago), during a merge or rebase, with
 * conflicts or while another action runs: then it waits and looks again. The first failure stops
 * it, and the state says why. One explicit state, one writer (`move`); time and timers are injected.
 */
import type { VcsSession } from "./session";

/** How long after the last edit a note counts as no longer being typed in. */
export const AUTO_SYNC_IDLE_MS = 5000;

export type AutoSyncState =
	| { kind: "off" }
	/** The next sync is due at `at`. */
	| { kind: "waiting"; at: number }
	/** Due, but held back; looked at again at `at`. */
	| { kind: "held"; why: "typing" | "merge" | "rebase" | "conflicts" | "busy"; at: number }
	| { kind: "syncing" }
	/** Stopped by a failure: nothing runs until it is started again. */
	| { kind: "stopped"; reason: string };

export interface AutoSyncDeps {
	session: Pick<VcsSession, "sync" | "state">;
	intervalMs: number;
	now(): number;
	/** Runs `f` after `ms`; returns the cancel. */
	timer(f: () => void, ms: number): () => void;
}

export class AutoSync {
	private current: AutoSyncState = { kind: "off" };
	private lastEdit = Number.NEGATIVE_INFINITY;
	private cancelTimer: (() => void) | null = null;
	private readonly listeners = new Set<(s: AutoSyncState) => void>();

	constructor(private readonly deps: AutoSyncDeps) {}

	get state(): AutoSyncState {
		return this.current;
	}

	subscribe(listener: (s: AutoSyncState) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	start(): void {
		this.schedule({ kind: "waiting", at: this.deps.now() + this.deps.intervalMs });
	}

	stop(): void {
		this.cancelTimer?.();
		this.cancelTimer = null;
		this.move({ kind: "off" });
	}

	/** A note was edited (each keystroke): a sync due now waits until typing has paused. */
	edited(): void {
		this.lastEdit = this.deps.now();
	}

	/** The timer's work: sync when nothing holds it back. Exposed for the hosts' "sync now" and for tests. */
	async due(): Promise<void> {
		if (this.current.kind !== "waiting" && this.current.kind !== "held") return;
		if (this.typing()) return this.holdForTyping();
		const why = this.heldBy();
		if (why) return this.schedule({ kind: "held", why, at: this.deps.now() + Math.min(this.deps.intervalMs, 60_000) });
		this.move({ kind: "syncing" });
		// The sync may wait its turn (another action, another git's index.lock) while typing starts again: asked again then.
		let typedMeanwhile = false;
		await this.deps.session.sync({ safety: "auto-sync", holdIf: () => (typedMeanwhile = this.typing()) });
		if (typedMeanwhile) {
			if (this.isSyncing()) this.holdForTyping();
			return;
		}
		const s = this.deps.session.state;
		const problem = s.kind === "ready" ? s.problem : s.kind === "unavailable" ? s.failure : null;
		if (problem) return this.move({ kind: "stopped", reason: problem.detail ? `${problem.message}: ${problem.detail}` : problem.message });
		// Stopped while the sync ran: it stays off.
		if (this.isSyncing()) this.schedule({ kind: "waiting", at: this.deps.now() + this.deps.intervalMs });
	}

	/** An edit less than AUTO_SYNC_IDLE_MS ago. */
	private typing(): boolean {
		return this.deps.now() < this.lastEdit + AUTO_SYNC_IDLE_MS;
	}

	private holdForTyping(): void {
		this.schedule({ kind: "held", why: "typing", at: this.lastEdit + AUTO_SYNC_IDLE_MS });
	}

	private isSyncing(): boolean {
		return this.current.kind === "syncing";
	}

	/** What keeps a due sync from running now, if anything. */
	private heldBy(): Extract<AutoSyncState, { kind: "held" }>["why"] | null {
		const s = this.deps.session.state;
		if (s.kind !== "ready") return null;
		if (s.busy) return "busy";
		if (s.snapshot.operation) return s.snapshot.operation;
		if (s.conflicts.length > 0) return "conflicts";
		return null;
	}

	private schedule(next: Extract<AutoSyncState, { at: number }>): void {
		this.cancelTimer?.();
		this.cancelTimer = this.deps.timer(() => void this.due(), Math.max(0, next.at - this.deps.now()));
		this.move(next);
	}

	private move(next: AutoSyncState): void {
		this.current = next;
		for (const l of this.listeners) l(next);
	}
}
