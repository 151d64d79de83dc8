import { NETWORK_TIMEOUT_MS } from "./exec";
import { failure, type GitFailure } from "./failures";
import type { GitRepository } from "./repository";

export type SyncStep = "check" | "commit" | "fetch" | "pull" | "push";

/** What sync did before it ended, so a failure still says "committed abc123". */
export interface SyncReport {
	/** The commit sync made, or null when nothing had changed. */
	committed: string | null;
	/** Commits fast-forwarded from the upstream. */
	pulled: number;
	/** Commits pushed. */
	pushed: number;
}

export type SyncOutcome = { ok: true; report: SyncReport } | { ok: false; failure: GitFailure; report: SyncReport; step: SyncStep };

export interface SyncOptions {
	/** The commit message for the staged paths (repository-relative). */
	message: (paths: string[]) => string;
	signal?: AbortSignal;
	onProgress?: (step: SyncStep) => void;
	/** Pull: fetch and fast-forward only; local changes are neither committed nor pushed (they stay as they are). */
	pullOnly?: boolean;
}

/**
 * Stage, commit if anything changed, fetch, fast-forward, push (docs/vcs.md). It never
 * loses work: when the upstream cannot be fast-forwarded to, it stops after the fetch (which only
 * moves remote-tracking refs), before anything touches the work tree, and reports how far the sides
 * diverged. It never merges, rebases, resets, stashes or forces. The pull is `fetch` then
 * `merge --ff-only @{upstream}`, which is what `pull --ff-only` does, minus a second fetch.
 */
export async function sync(repo: GitRepository, opts: SyncOptions): Promise<SyncOutcome> {
	const report: SyncReport = { committed: null, pulled: 0, pushed: 0 };
	let step: SyncStep = "check";
	const stop = (f: GitFailure): SyncOutcome => ({ ok: false, failure: f, report, step });
	const call = { signal: opts.signal };
	const net = { signal: opts.signal, timeoutMs: NETWORK_TIMEOUT_MS };
	const cancelled = () => opts.signal?.aborted === true;

	opts.onProgress?.(step);
	const st = await repo.status(call);
	if (!st.ok) return stop(st.failure);
	const head = st.value.branch.head;
	if (head === null) return stop(failure("detached_head", "switch to a branch first"));
	const blocked = await repo.blockedBy();
	if (blocked) return stop(blocked);

	if (st.value.files.length > 0 && !opts.pullOnly) {
		step = "commit";
		opts.onProgress?.(step);
		const staged = await repo.stageAll(call);
		if (!staged.ok) return stop(staged.failure);
		// Named from what git staged, which may include an edit made after the status above.
		const paths = await repo.stagedPaths(call);
		if (!paths.ok) return stop(paths.failure);
		const committed = await repo.commit(opts.message(paths.value), call);
		if (!committed.ok && committed.failure.code !== "nothing_to_commit") return stop(committed.failure);
		if (committed.ok) report.committed = committed.value;
	}
	if (cancelled()) return stop(failure("cancelled", ""));

	const remote = await configValue(repo, `branch.${head}.remote`);
	const merge = await configValue(repo, `branch.${head}.merge`);
	if (!remote || !merge) {
		const remotes = await repo.remotes(call);
		if (remotes.ok && remotes.value.length === 0) return stop(failure("no_remote", "add one with git remote add origin <url>"));
		return stop(failure("no_upstream", `${head} tracks no remote branch`));
	}

	step = "fetch";
	opts.onProgress?.(step);
	const fetched = await repo.run(["fetch", "--quiet", remote], net);
	if (!fetched.ok) return stop(fetched.failure);
	if (cancelled()) return stop(failure("cancelled", ""));

	const counts = await repo.run(["rev-list", "--left-right", "--count", "HEAD...@{upstream}"], call);
	if (!counts.ok) return stop(counts.failure.code === "git_failed" ? failure("no_upstream", counts.failure.detail) : counts.failure);
	const [ahead, behind] = counts.stdout.trim().split(/\s+/).map(Number);
	if (ahead > 0 && behind > 0) return stop(failure("diverged", `diverged: ${ahead} local, ${behind} remote commits`, { ahead, behind }));

	if (behind > 0) {
		step = "pull";
		opts.onProgress?.(step);
		const pulled = await repo.run(["merge", "--ff-only", "--quiet", "@{upstream}"], call);
		if (!pulled.ok) return stop(pulled.failure);
		report.pulled = behind;
	}
	if (cancelled()) return stop(failure("cancelled", ""));

	if (ahead > 0 && !opts.pullOnly) {
		step = "push";
		opts.onProgress?.(step);
		const pushed = await repo.run(["push", "--quiet", remote, `HEAD:${merge}`], net);
		if (!pushed.ok) return stop(pushed.failure);
		report.pushed = ahead;
	}
	return { ok: true, report };
}

async function configValue(repo: GitRepository, key: string): Promise<string | null> {
	const r = await repo.run(["config", "--get", key]);
	return r.ok ? r.stdout.trim() || null : null;
}
