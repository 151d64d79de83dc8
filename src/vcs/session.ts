import type { BranchRef } from "./branches";
import { failure, type GitFailure } from "./failures";
import { LOG_PAGE, type CommitInfo } from "./log";
import { commitMessage, DEFAULT_COMMIT_TEMPLATE } from "./message";
import type { Outcome } from "./ports";
import { isConflicted } from "./status";
import type { GitProcessProbe } from "./process-probe";
import { restoreVersion, type NoteVersion } from "./history";
import { abortIntegration, continueIntegration, integrateUpstream, markResolved, resolveConflict, type Integration, type Resolution } from "./integrate";
import type { GitRepository, RepoSnapshot } from "./repository";
import { changesSince, listSafetyPoints, recordAfter, removeSafetyPoint, restoreState, takeSafetyPoint, undoToSafetyPoint, type ChangesSince } from "./safety";
import type { SafetyAction, SafetyPoint } from "./safety-points";
import { sync, type SyncReport, type SyncStep } from "./sync";

/** What the panel is doing now; null when idle. */
export type VcsTask = "refresh" | "stage" | "unstage" | "discard" | "wait" | "commit" | "branch" | "init" | "lock" | "publish" | "undo" | "merge" | "rebase" | "resolve" | "continue" | "abort" | "restore" | `sync:${SyncStep}`;

export type VcsState =
	| { kind: "loading" }
	/** No repository to show: git missing, or the vault is not one (the panel offers to initialise). */
	| { kind: "unavailable"; failure: GitFailure }
	| {
			kind: "ready";
			snapshot: RepoSnapshot;
			commits: CommitInfo[];
			/** A full page came back: there may be older commits. */
			moreCommits: boolean;
			busy: VcsTask | null;
			/** Why the last action stopped, shown until the next one. */
			problem: GitFailure | null;
			/** What the last sync did. */
			lastSync: SyncReport | null;
			/** The safety points, newest first: what "Undo last …" and the panel's list offer. */
			safetyPoints: SafetyPoint[];
			/** Files of a merge or rebase in progress still to be resolved (empty when none is). */
			conflicts: string[];
	  };

/**
 * Asked before an undo would overwrite what changed since the action it undoes (or when that
 * cannot be told); true goes ahead. Nothing is overwritten without it.
 */
export type ConfirmUndo = (point: SafetyPoint, changes: ChangesSince) => Promise<boolean>;

export interface VcsSessionDeps {
	open(): Promise<Outcome<GitRepository>>;
	init(): Promise<Outcome<GitRepository>>;
	probe: GitProcessProbe;
	/** The commit template (`{date}`, `{notes}`, `{count}`). */
	template(): string;
	now(): Date;
	/**
	 * Resolves after `ms` (the wait for a held index.lock): the host's timer (the core knows no
	 * window); tests advance their clock here instead of sleeping. Without it, nothing waits.
	 */
	sleep?: (ms: number) => Promise<void>;
}

/** How often a held index.lock is looked at again, and for how long at most before the action gives up and says so. */
export const LOCK_POLL_MS = 500;
export const LOCK_WAIT_MS = 30_000;

/**
 * The one source of the panel's state: every action goes through here, one at
 * a time, and ends in a new state; the view subscribes and draws. A refresh asked for while an
 * action runs happens once it ends.
 */
export class VcsSession {
	private current: VcsState = { kind: "loading" };
	private repo: GitRepository | null = null;
	private readonly listeners = new Set<(s: VcsState) => void>();
	private running: Promise<void> = Promise.resolve();
	private abort: AbortController | null = null;
	private refreshQueued = false;

	constructor(private readonly deps: VcsSessionDeps) {}

	get state(): VcsState {
		return this.current;
	}

	get repository(): GitRepository | null {
		return this.repo;
	}

	subscribe(listener: (s: VcsState) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Re-reads status and the first page of commits. Calls made while another runs collapse into one. */
	refresh(): Promise<void> {
		if (this.refreshQueued) return this.running;
		this.refreshQueued = true;
		return this.enqueue(async () => {
			this.refreshQueued = false;
			await this.load();
		});
	}

	stage(paths: string[]): Promise<void> {
		return this.act("stage", null, (r) => r.stage(paths));
	}

	unstage(paths: string[]): Promise<void> {
		return this.act("unstage", null, (r) => r.unstage(paths));
	}

	/** "Discard changes" of one file (its work-tree side; an untracked file is removed), after a safety point: "Undo last discard" brings it back. */
	discard(path: string, untracked: boolean): Promise<void> {
		return this.act("discard", "discard", (r) => r.discard([path], untracked));
	}

	/** The message the commit box proposes for the changes the panel last saw (its placeholder). */
	defaultMessage(): string {
		const s = this.current;
		const files = s.kind === "ready" ? s.snapshot.status.files : [];
		const staged = files.filter((f) => f.index !== "." && f.index !== "?");
		return this.messageFor((staged.length ? staged : files).map((f) => f.path));
	}

	/**
	 * Commits what is staged, or everything when `all` (vcs.commit). An empty message takes the
	 * default for what git has staged once staging is done, not for the panel's last status, which
	 * an edit made just before may not have reached yet.
	 */
	commit(message: string, all: boolean): Promise<void> {
		return this.act("commit", "commit", async (r) => {
			if (all) {
				const staged = await r.stageAll();
				if (!staged.ok) return staged;
			}
			if (message.trim()) return r.commit(message.trim());
			const paths = await r.stagedPaths();
			return paths.ok ? r.commit(this.messageFor(paths.value)) : paths;
		});
	}

	/**
	 * Stage, commit, fast-forward, push; `pull` only fetches and fast-forwards (nothing is committed or pushed).
	 * `holdIf` is asked when the sync's turn has come (after the actions queued before it and a held
	 * index.lock), before anything changes: true drops this sync (auto-sync: a note is being typed in again).
	 */
	sync(mode: { pullOnly?: boolean; safety?: SafetyAction; holdIf?: () => boolean } = {}): Promise<void> {
		return this.enqueue(async () => {
			const repo = await this.ensureRepo();
			if (!repo) return;
			if (!(await this.lockReleased(repo))) return;
			if (mode.holdIf?.()) return this.patch({ busy: null });
			const point = await this.safetyPoint(repo, mode.safety ?? (mode.pullOnly ? "pull" : "sync"));
			if (!point) return;
			this.abort = new AbortController();
			const outcome = await sync(repo, {
				signal: this.abort.signal,
				message: (paths) => this.messageFor(paths),
				onProgress: (step) => this.patch({ busy: `sync:${step}` }),
				pullOnly: mode.pullOnly,
			});
			this.abort = null;
			await recordAfter(repo, point, this.deps.now().getTime());
			await this.load({ problem: outcome.ok ? null : outcome.failure, lastSync: outcome.report });
		});
	}

	pull(): Promise<void> {
		return this.sync({ pullOnly: true });
	}

	/**
	 * Undoes the change a safety point guards (the newest when no id is given): HEAD, the index and
	 * the work tree go back exactly as they were. When anything changed since that change ended, or
	 * that cannot be told, `confirm` decides; the undo itself takes a safety point first.
	 */
	undo(confirm: ConfirmUndo, id?: string): Promise<void> {
		return this.enqueue(async () => {
			const repo = await this.ensureRepo();
			if (!repo || !(await this.lockReleased(repo))) return;
			this.patch({ busy: "undo", problem: null });
			const points = await listSafetyPoints(repo);
			if (!points.ok) return this.load({ problem: points.failure });
			const point = id ? points.value.find((p) => p.id === id) : points.value[0];
			if (!point) return this.load({ problem: failure("no_safety_point", id ?? "") });
			const changes = await changesSince(repo, point);
			if (!changes.ok) return this.load({ problem: changes.failure });
			if (changes.value.changed !== false && !(await confirm(point, changes.value))) return this.load();
			const r = await undoToSafetyPoint(repo, point, this.deps.now().getTime());
			await this.load({ problem: r.ok ? null : r.failure });
		});
	}

	/** "Restore this version": the note's text as of a commit becomes a new change (after a safety point). */
	restoreVersion(version: NoteVersion, currentPath: string): Promise<void> {
		return this.act("restore", "restore", (r) => restoreVersion(r, version, currentPath));
	}

	/** "Merge the remote" / "Rebase my commits onto the remote", after a safety point; conflicts stop it for resolving. */
	integrate(how: Integration): Promise<void> {
		return this.act(how, how, (r) => integrateUpstream(r, how));
	}

	/** Writes a resolution of one conflicted file into the work tree (not staged yet). */
	resolve(path: string, how: Resolution): Promise<void> {
		return this.act("resolve", null, (r) => resolveConflict(r, path, how));
	}

	markResolved(path: string): Promise<void> {
		return this.act("resolve", null, (r) => markResolved(r, path));
	}

	/**
	 * Commits the merge or goes on with the rebase once every file is resolved. It is part of the
	 * merge or rebase: the safety point taken before that one guards it and records where it
	 * ended, so "Undo last merge" goes back to before the merge. One another tool started gets a
	 * safety point of its own.
	 */
	continueIntegration(): Promise<void> {
		return this.enqueue(async () => {
			const repo = await this.ensureRepo();
			if (!repo || !(await this.lockReleased(repo))) return;
			this.patch({ busy: "continue", problem: null });
			const point = (await this.startedPoint(repo)) ?? (await this.safetyPoint(repo, "continue"));
			if (!point) return;
			const r = await continueIntegration(repo);
			await recordAfter(repo, point, this.deps.now().getTime());
			await this.load({ problem: r.ok ? null : r.failure });
		});
	}

	/** The safety point the merge or rebase in progress started from: the newest such point whose HEAD git kept as ORIG_HEAD. */
	private async startedPoint(repo: GitRepository): Promise<SafetyPoint | null> {
		const [points, orig] = await Promise.all([listSafetyPoints(repo), repo.run(["rev-parse", "--quiet", "--verify", "ORIG_HEAD"])]);
		if (!points.ok || !orig.ok) return null;
		const started = points.value.find((p) => p.action === "merge" || p.action === "rebase");
		return started && started.before.headOid === orig.stdout.trim() ? started : null;
	}

	/**
	 * Stops the merge or rebase. When it was ours, HEAD, the index and the work tree go back byte
	 * for byte to the safety point taken before it (untracked files too); one left by another tool
	 * goes back to where git started it. What was resolved so far is kept in a safety point first.
	 */
	abortIntegration(): Promise<void> {
		return this.act("abort", "abort", async (r) => {
			const started = await this.startedPoint(r);
			const aborted = await abortIntegration(r);
			if (!aborted.ok || !started) return aborted;
			const restored = await restoreState(r, started.before);
			if (restored.ok) await removeSafetyPoint(r, started.id);
			return restored;
		});
	}

	/** Local and remote branches (the picker's list), opening the repository when nothing has yet. */
	async branches(): Promise<Outcome<BranchRef[]>> {
		const repo = await this.ensureRepo();
		if (repo) return repo.branches();
		const s = this.current;
		return { ok: false, failure: s.kind === "unavailable" ? s.failure : failure("not_repository", "") };
	}

	switchTo(branch: BranchRef): Promise<void> {
		return this.act("branch", "branch", (r) => r.switchTo(branch));
	}

	createBranch(name: string): Promise<void> {
		return this.act("branch", "branch", (r) => r.createBranch(name));
	}

	publish(remote: string): Promise<void> {
		return this.act("publish", null, (r) => r.publish(remote, { signal: this.abort?.signal }));
	}

	removeStaleLock(): Promise<void> {
		return this.act("lock", "lock", (r) => r.removeStaleLock(this.deps.probe));
	}

	/** `git init` with the vault's .gitignore (the "not a repository" state's action). */
	initialise(): Promise<void> {
		return this.enqueue(async () => {
			const r = await this.deps.init();
			if (!r.ok) return this.set({ kind: "unavailable", failure: r.failure });
			this.repo = r.value;
			await this.load();
		});
	}

	/** Appends the next page of commits. */
	moreCommits(): Promise<void> {
		return this.enqueue(async () => {
			const s = this.current;
			if (s.kind !== "ready" || !this.repo) return;
			const page = await this.repo.log(s.commits.length, LOG_PAGE);
			if (!page.ok) return this.patch({ problem: page.failure });
			this.patch({ commits: [...s.commits, ...page.value], moreCommits: page.value.length === LOG_PAGE });
		});
	}

	/** Stops the running sync or publish (git is killed; what it finished stays done). */
	cancel(): void {
		this.abort?.abort();
	}

	/** Plugin unload: stops git and draws no view again (the window the views lived in may be gone). */
	close(): void {
		this.cancel();
		this.listeners.clear();
	}

	/** The commit template filled for repository-relative paths. */
	private messageFor(paths: readonly string[]): string {
		return commitMessage(this.deps.template() || DEFAULT_COMMIT_TEMPLATE, paths, this.deps.now());
	}

	/** Runs an action; one that changes the repository (`safety` given) runs only after a safety point, and its end is recorded. */
	private act(task: VcsTask, safety: SafetyAction | null, run: (repo: GitRepository) => Promise<Outcome<unknown>>): Promise<void> {
		return this.enqueue(async () => {
			const repo = await this.ensureRepo();
			if (!repo) return;
			if (task !== "lock" && !(await this.lockReleased(repo))) return;
			this.patch({ busy: task, problem: null });
			const point = safety ? await this.safetyPoint(repo, safety) : null;
			if (safety && !point) return;
			this.abort = new AbortController();
			const r = await run(repo);
			this.abort = null;
			if (point) await recordAfter(repo, point, this.deps.now().getTime());
			await this.load({ problem: r.ok ? null : r.failure });
		});
	}

	/**
	 * Waits (when the host gave a sleep) while another git process holds index.lock — polling every LOCK_POLL_MS, saying so
	 * (busy "wait"), for at most LOCK_WAIT_MS by the injected clock — and returns whether the
	 * action may go on. A stale lock, or one the system cannot tell about, does not wait: git's
	 * refusal then shows, with the stale lock's removal offered. Giving up is a problem shown, never
	 * an exception.
	 */
	private async lockReleased(repo: GitRepository): Promise<boolean> {
		const started = this.deps.now().getTime();
		const sleep = this.deps.sleep;
		while (sleep && (await repo.lockHeld(this.deps.probe)) === true) {
			const waited = this.deps.now().getTime() - started;
			if (waited >= LOCK_WAIT_MS) {
				await this.load({ problem: failure("index_locked", `another git process held index.lock for ${Math.round(waited / 1000)} s; try again once it has finished`, { lockPath: await repo.lockPath() ?? undefined }) });
				return false;
			}
			this.patch({ busy: "wait", problem: null });
			await sleep(LOCK_POLL_MS);
		}
		return true;
	}

	/** A safety point before a change; when none can be taken the change does not happen and the panel says why. */
	private async safetyPoint(repo: GitRepository, action: SafetyAction): Promise<SafetyPoint | null> {
		const point = await takeSafetyPoint(repo, action, this.deps.now().getTime());
		if (point.ok) return point.value;
		await this.load({ problem: failure("safety_point_failed", `${point.failure.message}: ${point.failure.detail}`) });
		return null;
	}

	private async ensureRepo(): Promise<GitRepository | null> {
		if (this.repo) return this.repo;
		const r = await this.deps.open();
		if (!r.ok) {
			this.set({ kind: "unavailable", failure: r.failure });
			return null;
		}
		return (this.repo = r.value);
	}

	private async load(extra: { problem?: GitFailure | null; lastSync?: SyncReport | null } = {}): Promise<void> {
		const repo = await this.ensureRepo();
		if (!repo) return;
		if (this.current.kind === "ready") this.patch({ busy: "refresh" });
		const [snap, log, points] = await Promise.all([repo.snapshot(), repo.log(0, LOG_PAGE), listSafetyPoints(repo)]);
		if (!snap.ok) {
			// The repository went away (deleted .git): start over on the next refresh.
			if (snap.failure.code === "not_repository") this.repo = null;
			return this.set(this.current.kind === "ready" && snap.failure.code !== "not_repository" ? { ...this.current, busy: null, problem: snap.failure } : { kind: "unavailable", failure: snap.failure });
		}
		const prev = this.current.kind === "ready" ? this.current : null;
		this.set({
			kind: "ready",
			snapshot: snap.value,
			commits: log.ok ? log.value : [],
			moreCommits: log.ok && log.value.length === LOG_PAGE,
			busy: null,
			problem: extra.problem !== undefined ? extra.problem : log.ok ? (prev?.problem ?? null) : log.failure,
			lastSync: extra.lastSync !== undefined ? extra.lastSync : (prev?.lastSync ?? null),
			safetyPoints: points.ok ? points.value : [],
			conflicts: snap.value.status.files.filter(isConflicted).map((f) => f.path),
		});
	}

	private enqueue(work: () => Promise<void>): Promise<void> {
		const next = this.running.then(work).catch((e: unknown) => {
			// Only a bug of ours lands here: show it as a failure rather than leave the panel stuck.
			const detail = e instanceof Error ? e.message : String(e);
			if (this.current.kind === "ready") this.set({ ...this.current, busy: null, problem: failure("git_failed", detail) });
			else this.set({ kind: "unavailable", failure: failure("git_failed", detail) });
		});
		this.running = next;
		return next;
	}

	private patch(p: Partial<Extract<VcsState, { kind: "ready" }>>): void {
		if (this.current.kind === "ready") this.set({ ...this.current, ...p });
	}

	private set(s: VcsState): void {
		this.current = s;
		for (const l of this.listeners) l(s);
	}
}