import { BRANCH_ARGS, localNameOf, parseBranches, type BranchRef } from "./branches";
import { createGitRunner, NETWORK_TIMEOUT_MS, type GitCallOptions, type GitResult, type GitRunner, type GitRunnerConfig } from "./exec";
import { failure, type GitFailure } from "./failures";
import { LOG_FORMAT, LOG_PAGE, parseLog, type CommitInfo } from "./log";
import { resolveFrom, type Outcome, type VcsFs } from "./ports";
import { isInside, type GitProcessProbe } from "./process-probe";
import { isConflicted, parseStatusInSlices, type RepoStatus } from "./status";

/** An in-progress operation that blocks commit and sync until the user finishes it in git. */
export type Operation = "merge" | "rebase" | null;

/** Everything the panel shows at once. */
export interface RepoSnapshot {
	status: RepoStatus;
	operation: Operation;
	/** The index.lock path when one exists (stale, or another git is at work). */
	lockPath: string | null;
	remotes: string[];
}

/** Lines a new vault repository ignores: per-device layout and the plugin's run history. */
export function defaultIgnoreLines(configDir: string, historyPath: string): string[] {
	return [`${configDir}/workspace*.json`, `${configDir}/workspace-mobile.json`, historyPath, ".trash/"];
}

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = <T>(r: { failure: GitFailure }): Outcome<T> => ({ ok: false, failure: r.failure });

/** Headless callers have no UI to give turns to. */
const noPause = () => Promise.resolve();

/**
 * One vault repository: every method returns an Outcome and never throws. Nothing here merges,
 * rebases, resets, stashes or forces; what git refuses comes back as a failure to show.
 */
export class GitRepository {
	private constructor(
		private readonly git: GitRunner,
		private readonly fs: VcsFs,
		/** The work tree's root, as git reports it. */
		readonly root: string,
		/** The git directory (`<root>/.git` unless a worktree or GIT_DIR says otherwise). */
		readonly gitDir: string,
		/** The vault's folder inside the repository ("" when the vault is the root; else `notes/`). */
		readonly prefix: string,
		private readonly pause: () => Promise<void>,
	) {}

	/** The repository the directory belongs to, or `not_repository` / `git_missing`. */
	static async open(config: GitRunnerConfig, fs: VcsFs): Promise<Outcome<GitRepository>> {
		const probe = createGitRunner(config);
		const r = await probe.run(["rev-parse", "--show-toplevel", "--absolute-git-dir", "--show-prefix"]);
		if (!r.ok) return fail(r);
		const [root, gitDir, prefix = ""] = r.stdout.split("\n");
		if (!root) return { ok: false, failure: failure("not_repository", "no work tree (a bare repository?)") };
		return ok(new GitRepository(createGitRunner({ ...config, cwd: root }), fs, root, gitDir, prefix, config.pause ?? noPause));
	}

	/** `git init` in the directory, with `.gitignore` lines added (kept if already there). */
	static async init(config: GitRunnerConfig, fs: VcsFs, ignoreLines: readonly string[]): Promise<Outcome<GitRepository>> {
		const r = await createGitRunner(config).run(["init", "--quiet"]);
		if (!r.ok) return fail(r);
		const ignorePath = resolveFrom(config.cwd, ".gitignore");
		const current = (await fs.readText(ignorePath)) ?? "";
		const have = new Set(current.split(/\r?\n/).map((l) => l.trim()));
		const missing = ignoreLines.filter((l) => !have.has(l));
		if (missing.length) await fs.writeText(ignorePath, `${current}${current && !current.endsWith("\n") ? "\n" : ""}${missing.join("\n")}\n`);
		return GitRepository.open(config, fs);
	}

	/** The file system the repository reads and writes through (safety points copy the index with it). */
	get files(): VcsFs {
		return this.fs;
	}

	/** Runs git in the repository root; for what the methods below do not cover. */
	run(args: readonly string[], opts?: GitCallOptions): Promise<GitResult> {
		return this.git.run(args, opts);
	}

	async status(opts?: GitCallOptions): Promise<Outcome<RepoStatus>> {
		const r = await this.git.run(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"], opts);
		return r.ok ? ok(await parseStatusInSlices(r.stdout, this.pause)) : fail(r);
	}

	/** Status, the operation in progress, a lock, and the remotes: one call for the panel. */
	async snapshot(opts?: GitCallOptions): Promise<Outcome<RepoSnapshot>> {
		const [status, remotes, operation, lockPath] = await Promise.all([this.status(opts), this.remotes(opts), this.operation(), this.lockPath()]);
		if (!status.ok) return status;
		if (!remotes.ok) return remotes;
		return ok({ status: status.value, remotes: remotes.value, operation, lockPath });
	}

	async operation(): Promise<Operation> {
		const at = (name: string) => this.fs.exists(`${this.gitDir}/${name}`);
		if (await at("MERGE_HEAD")) return "merge";
		if ((await at("rebase-merge")) || (await at("rebase-apply"))) return "rebase";
		return null;
	}

	async lockPath(): Promise<string | null> {
		const path = `${this.gitDir}/index.lock`;
		return (await this.fs.exists(path)) ? path : null;
	}

	async remotes(opts?: GitCallOptions): Promise<Outcome<string[]>> {
		const r = await this.git.run(["remote"], opts);
		return r.ok ? ok(r.stdout.split("\n").filter(Boolean)) : fail(r);
	}

	/** Stages files (new, changed and deleted alike). */
	async stage(paths: readonly string[], opts?: GitCallOptions): Promise<Outcome<void>> {
		if (paths.length === 0) return ok(undefined);
		const r = await this.git.run(["add", "--all", "--", ...paths], opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	async stageAll(opts?: GitCallOptions): Promise<Outcome<void>> {
		const r = await this.git.run(["add", "--all"], opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	/**
	 * The repository-relative paths the next commit would record (index against HEAD; before the
	 * first commit, everything staged; a rename by its new path). Read from git, so it holds
	 * whoever staged them and however stale the panel's last status is.
	 */
	async stagedPaths(opts?: GitCallOptions): Promise<Outcome<string[]>> {
		const r = await this.git.run(["diff", "--cached", "--name-only", "--find-renames", "-z"], opts);
		return r.ok ? ok(r.stdout.split("\0").filter(Boolean)) : fail(r);
	}

	/** Takes files out of the index; their work-tree content stays as it is. */
	async unstage(paths: readonly string[], opts?: GitCallOptions): Promise<Outcome<void>> {
		if (paths.length === 0) return ok(undefined);
		const head = await this.git.run(["rev-parse", "--verify", "--quiet", "HEAD"], opts);
		// Before the first commit there is no HEAD to restore from: unstaging means forgetting the add.
		const args = head.ok ? ["restore", "--staged", "--", ...paths] : ["rm", "--cached", "--quiet", "-r", "--", ...paths];
		const r = await this.git.run(args, opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	/**
	 * Drops the work-tree side of files' changes: tracked files go back to what the index holds
	 * (a staged edit stays staged), untracked ones are removed. Callers take a safety point first:
	 * it holds the work tree, untracked files included, so the discard can be undone.
	 */
	async discard(paths: readonly string[], untracked: boolean, opts?: GitCallOptions): Promise<Outcome<void>> {
		if (paths.length === 0) return ok(undefined);
		const r = await this.git.run(untracked ? ["clean", "--force", "--quiet", "--", ...paths] : ["restore", "--worktree", "--", ...paths], opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	/** Commits what is staged; returns the new commit's hash. */
	async commit(message: string, opts?: GitCallOptions): Promise<Outcome<string>> {
		const blocked = await this.blockedBy();
		if (blocked) return { ok: false, failure: blocked };
		const r = await this.git.run(["commit", "--quiet", "-m", message], opts);
		if (!r.ok) return fail(r);
		const head = await this.git.run(["rev-parse", "HEAD"], opts);
		return head.ok ? ok(head.stdout.trim()) : fail(head);
	}

	/** A merge or rebase in progress, or conflicts: the states in which we commit nothing. */
	async blockedBy(): Promise<GitFailure | null> {
		const op = await this.operation();
		if (op === "merge") return failure("merge_in_progress", "finish it (commit) or abort it (git merge --abort) in git");
		if (op === "rebase") return failure("rebase_in_progress", "finish it (git rebase --continue) or abort it (git rebase --abort) in git");
		const st = await this.status();
		if (st.ok && st.value.files.some(isConflicted)) return failure("conflicts", st.value.files.filter(isConflicted).map((f) => f.path).join("\n"));
		return null;
	}

	/** Commits on HEAD, newest first: a page of LOG_PAGE from `skip`. No commits yet: an empty list. */
	async log(skip = 0, count = LOG_PAGE, opts?: GitCallOptions): Promise<Outcome<CommitInfo[]>> {
		const r = await this.git.run(["log", "-z", LOG_FORMAT, `--max-count=${count}`, `--skip=${skip}`, "HEAD", "--"], opts);
		if (r.ok) return ok(parseLog(r.stdout));
		return r.failure.code === "no_commits" ? ok([]) : fail(r);
	}

	async branches(opts?: GitCallOptions): Promise<Outcome<BranchRef[]>> {
		const r = await this.git.run(BRANCH_ARGS, opts);
		return r.ok ? ok(parseBranches(r.stdout)) : fail(r);
	}

	/**
	 * Switches to a branch; a remote one (`origin/topic`) through its local twin, created to track
	 * it when missing. Git refuses when local changes would be overwritten; nothing is forced.
	 */
	async switchTo(branch: BranchRef, opts?: GitCallOptions): Promise<Outcome<void>> {
		let args = ["switch", "--quiet", branch.name];
		if (branch.remote) {
			const local = localNameOf(branch.name);
			const exists = await this.git.run(["rev-parse", "--verify", "--quiet", `refs/heads/${local}`], opts);
			args = exists.ok ? ["switch", "--quiet", local] : ["switch", "--quiet", "--track", branch.name];
		}
		const r = await this.git.run(args, opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	/** Creates a branch at HEAD and switches to it (the work tree and index stay as they are). */
	async createBranch(name: string, opts?: GitCallOptions): Promise<Outcome<void>> {
		const valid = await this.git.run(["check-ref-format", "--branch", name], opts);
		if (!valid.ok || name.startsWith("-")) return { ok: false, failure: failure("invalid_branch_name", name) };
		const exists = await this.git.run(["rev-parse", "--verify", "--quiet", `refs/heads/${name}`], opts);
		if (exists.ok) return { ok: false, failure: failure("branch_exists", name) };
		const r = await this.git.run(["switch", "--quiet", "-c", name], opts);
		return r.ok ? ok(undefined) : fail(r);
	}

	/** A file's text at HEAD (repository-relative path); null when HEAD has no such file. */
	async fileAtHead(path: string, opts?: GitCallOptions): Promise<Outcome<string | null>> {
		const r = await this.git.run(["cat-file", "blob", `HEAD:${path}`], opts);
		if (r.ok) return ok(r.stdout);
		return /does not exist|not a valid object|invalid object name|Not a valid object name/i.test(r.stderr) || r.failure.code === "no_commits" ? ok(null) : fail(r);
	}

	/** The work-tree text of a repository-relative path; null when it was deleted. */
	fileInWorktree(path: string): Promise<string | null> {
		return this.fs.readText(`${this.root}/${path}`);
	}

	/**
	 * Removes `index.lock` only when it is stale: no git process works in this repository (ours or
	 * anyone's). When the system cannot say, the lock stays and the user is told why.
	 */
	async removeStaleLock(probe: GitProcessProbe): Promise<Outcome<void>> {
		const path = await this.lockPath();
		if (!path) return ok(undefined);
		const holders = await this.lockHolders(probe);
		if (holders === "unknown") return { ok: false, failure: failure("lock_in_use", "cannot tell which git processes are running; close them and remove the lock by hand") };
		if (holders.length) return { ok: false, failure: failure("lock_in_use", holders.join("\n")) };
		await this.fs.remove(path);
		return ok(undefined);
	}

	/**
	 * Whether `index.lock` is held by a git process at work in this repository: false when there is
	 * no lock or it is stale, "unknown" when the system cannot say which git processes run.
	 */
	async lockHeld(probe: GitProcessProbe): Promise<boolean | "unknown"> {
		if (!(await this.lockPath())) return false;
		const holders = await this.lockHolders(probe);
		return holders === "unknown" ? "unknown" : holders.length > 0;
	}

	/** The git processes working in this repository (the panel's own included), or "unknown". */
	private async lockHolders(probe: GitProcessProbe): Promise<string[] | "unknown"> {
		if (this.git.inFlight() > 0) return ["the panel is running git"];
		const dirs = await probe();
		return dirs === "unknown" ? "unknown" : dirs.filter((d) => isInside(d, [this.root, this.gitDir]));
	}

	/** Pushes the current branch to a remote and makes it the upstream (the "no upstream" next step). */
	async publish(remote: string, opts?: GitCallOptions): Promise<Outcome<void>> {
		const r = await this.git.run(["push", "--quiet", "--set-upstream", remote, "HEAD"], { timeoutMs: NETWORK_TIMEOUT_MS, ...opts });
		return r.ok ? ok(undefined) : fail(r);
	}
}
