/**
 * Safety points (docs/vcs.md): what a safety point records, how it is written into a commit
 * message and read back, and which points pruning keeps. Pure; src/vcs/safety.ts talks to git.
 */

/** The changes to the repository a safety point is taken before. */
export type SafetyAction = "commit" | "sync" | "pull" | "branch" | "merge" | "rebase" | "discard" | "lock" | "undo" | "restore" | "continue" | "abort" | "auto-sync";

export const SAFETY_ACTIONS: readonly SafetyAction[] = ["commit", "sync", "pull", "branch", "merge", "rebase", "discard", "lock", "undo", "restore", "continue", "abort", "auto-sync"];

/** HEAD, the index and the work tree at one moment, as git objects. */
export interface RepoState {
	/** `refs/heads/main`, or null when HEAD is detached. */
	headRef: string | null;
	/** The commit HEAD points at; null before the first commit. */
	headOid: string | null;
	/** The index as a tree; null when it held conflicts (an unmerged index is no tree). */
	indexTree: string | null;
	/** The work tree as a tree: tracked files as they are on disk plus untracked ones (ignored files aside). */
	worktreeTree: string;
}

export interface SafetyPoint {
	/** Orders the points: `<time, 13 digits>-<sequence, 4 digits>`. */
	id: string;
	action: SafetyAction;
	/** Milliseconds since the epoch, from the session's clock. */
	time: number;
	before: RepoState;
	/** The state once the action ended; null when it was never recorded (the app closed meanwhile). */
	after: RepoState | null;
}

export const SAFETY_PREFIX = "refs/runnable-blocks/safety/";
/** Kept for this long, and at most MAX_POINTS of them (the newest). */
export const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
export const MAX_POINTS = 50;

export function safetyId(time: number, seq: number): string {
	return `${String(Math.max(0, Math.floor(time))).padStart(13, "0")}-${String(seq).padStart(4, "0")}`;
}

/** The next id at `time`: one past the highest sequence already used at that millisecond. */
export function nextSafetyId(time: number, existing: readonly string[]): string {
	const stem = safetyId(time, 0).slice(0, 13);
	const seqs = existing.filter((id) => id.startsWith(`${stem}-`)).map((id) => Number(id.slice(14)));
	return safetyId(time, seqs.length ? Math.max(...seqs) + 1 : 0);
}

/** The commit message holding a state; one `rb-…: value` line per field, so it reads in `git log` too. */
export function stateMessage(title: string, action: SafetyAction, time: number, s: RepoState): string {
	return [title, "", `rb-action: ${action}`, `rb-time: ${time}`, `rb-head-ref: ${s.headRef ?? "-"}`, `rb-head: ${s.headOid ?? "-"}`, `rb-index: ${s.indexTree ?? "-"}`, `rb-worktree: ${s.worktreeTree}`, ""].join("\n");
}

/** Reads stateMessage back; null when the message is not one of ours (a ref someone else wrote). */
export function parseStateMessage(message: string): { action: SafetyAction; time: number; state: RepoState } | null {
	const fields = new Map<string, string>();
	for (const line of message.split("\n")) {
		const m = /^rb-([a-z-]+): (.*)$/.exec(line.trim());
		if (m) fields.set(m[1], m[2]);
	}
	const action = fields.get("action") as SafetyAction | undefined;
	const time = Number(fields.get("time"));
	const worktree = fields.get("worktree");
	if (!action || !SAFETY_ACTIONS.includes(action) || !Number.isFinite(time) || !worktree || !/^[0-9a-f]{40,64}$/.test(worktree)) return null;
	const opt = (key: string) => {
		const v = fields.get(key);
		return v === undefined || v === "-" ? null : v;
	};
	return { action, time, state: { headRef: opt("head-ref"), headOid: opt("head"), indexTree: opt("index"), worktreeTree: worktree } };
}

/** The ids pruning removes: older than KEEP_MS at `now`, or beyond the newest MAX_POINTS. */
export function idsToPrune(points: ReadonlyArray<Pick<SafetyPoint, "id" | "time">>, now: number, keepMs = KEEP_MS, max = MAX_POINTS): string[] {
	const newestFirst = [...points].sort((a, b) => (a.id < b.id ? 1 : -1));
	return newestFirst.filter((p, i) => i >= max || now - p.time > keepMs).map((p) => p.id);
}

export function sameState(a: RepoState, b: RepoState): boolean {
	return a.headRef === b.headRef && a.headOid === b.headOid && a.indexTree === b.indexTree && a.worktreeTree === b.worktreeTree;
}
