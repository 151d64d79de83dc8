import type { AutoSync, AutoSyncState } from "../../vcs/auto-sync";

export interface AutoSyncHost {
	/** user.toml `[vcs] auto_sync_minutes`; 0 is off. */
	minutes(): number;
	/** Makes the schedule over the vault's session (this loads the git core); null where git cannot run. */
	make(intervalMs: number): AutoSync | null;
	/** Shows the state in the status bar; null hides the item. */
	show(state: AutoSyncState | null): void;
}

/**
 * Starts, restarts and stops the auto-sync schedule (src/vcs/auto-sync.ts) as user.toml says
 * (docs/vcs.md, "Auto-sync"). With 0 minutes nothing is made, so the git core is never loaded for it.
 */
export class AutoSyncWiring {
	private running: AutoSync | null = null;
	private minutes = 0;
	private unsubscribe: (() => void) | null = null;

	constructor(private readonly host: AutoSyncHost) {}

	/** Called once the layout is ready and after each settings change. */
	apply(): void {
		const minutes = this.host.minutes();
		if (minutes === this.minutes && (this.running || minutes === 0)) return;
		this.stop();
		this.minutes = minutes;
		if (minutes === 0) return;
		const schedule = this.host.make(minutes * 60_000);
		if (!schedule) return;
		this.running = schedule;
		this.unsubscribe = schedule.subscribe((s) => this.host.show(s));
		schedule.start();
	}

	/** A note was edited: a sync due now waits until typing has paused. */
	edited(): void {
		this.running?.edited();
	}

	/** Whether "Resume auto-sync" applies: the schedule stopped on a failure. */
	get stopped(): boolean {
		return this.running?.state.kind === "stopped";
	}

	resume(): void {
		if (this.stopped) this.running?.start();
	}

	stop(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
		this.running?.stop();
		this.running = null;
		this.host.show(null);
	}
}

const WHY_KEYS = {
	typing: "autoSyncWhyTyping",
	merge: "autoSyncWhyMerge",
	rebase: "autoSyncWhyRebase",
	conflicts: "autoSyncWhyConflicts",
	busy: "autoSyncWhyBusy",
} as const;

/** The status-bar text of a state, as translation key and variables; `clock` formats a time of day. */
export function autoSyncStatus(state: AutoSyncState, clock: (at: number) => string): { key: "autoSyncNext" | "autoSyncHeld" | "autoSyncSyncing" | "autoSyncStopped" | "autoSyncOff"; vars: Record<string, string>; why?: (typeof WHY_KEYS)[keyof typeof WHY_KEYS] } {
	switch (state.kind) {
		case "waiting":
			return { key: "autoSyncNext", vars: { time: clock(state.at) } };
		case "held":
			return { key: "autoSyncHeld", vars: { time: clock(state.at) }, why: WHY_KEYS[state.why] };
		case "syncing":
			return { key: "autoSyncSyncing", vars: {} };
		case "stopped":
			return { key: "autoSyncStopped", vars: { reason: state.reason } };
		case "off":
			return { key: "autoSyncOff", vars: {} };
	}
}
