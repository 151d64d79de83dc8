/**
 * Every way a git operation can end short of success (docs/vcs.md): a code the panel
 * turns into a state and a next step, one English message per code (the CLI's text; the panel
 * localises by code), and git's own words as the detail.
 */
export type GitFailureCode =
	| "git_missing"
	| "not_repository"
	| "no_commits"
	| "no_remote"
	| "no_upstream"
	| "detached_head"
	| "merge_in_progress"
	| "rebase_in_progress"
	| "conflicts"
	| "diverged"
	| "push_rejected"
	| "index_locked"
	| "lock_in_use"
	| "nothing_to_commit"
	| "identity_missing"
	| "local_changes_block"
	| "invalid_branch_name"
	| "branch_exists"
	| "auth_failed"
	| "network_failed"
	| "timeout"
	| "cancelled"
	| "no_safety_point"
	| "safety_point_failed"
	| "git_failed";

export interface GitFailure {
	code: GitFailureCode;
	message: string;
	/** Git's own words (its last lines of stderr), or what we found. */
	detail: string;
	/** For `diverged`: commits only this side has, and only the upstream has. */
	ahead?: number;
	behind?: number;
	/** For `index_locked`: the lock file's path. */
	lockPath?: string;
}

const TEXT: Record<GitFailureCode, string> = {
	git_missing: "Git is not installed or not on the PATH",
	not_repository: "This vault is not a git repository",
	no_commits: "The repository has no commits yet",
	no_remote: "The repository has no remote to sync with",
	no_upstream: "The branch has no upstream branch",
	detached_head: "HEAD is detached (not on a branch)",
	merge_in_progress: "A merge is in progress",
	rebase_in_progress: "A rebase is in progress",
	conflicts: "Some files have conflicts",
	diverged: "The branch and its upstream have diverged",
	push_rejected: "The remote rejected the push",
	index_locked: "Another git process seems to be running (index.lock exists)",
	lock_in_use: "A git process is still running in this repository",
	nothing_to_commit: "Nothing to commit",
	identity_missing: "Git does not know who you are (user.name and user.email)",
	local_changes_block: "Local changes would be overwritten",
	invalid_branch_name: "Not a valid branch name",
	branch_exists: "A branch with that name already exists",
	auth_failed: "The remote refused the credentials",
	network_failed: "Could not reach the remote",
	timeout: "Git took too long and was stopped",
	cancelled: "Cancelled",
	no_safety_point: "There is no safety point to go back to",
	safety_point_failed: "No safety point could be taken, so nothing was changed",
	git_failed: "Git failed",
};

export function failure(code: GitFailureCode, detail: string, extra: Partial<GitFailure> = {}): GitFailure {
	return { code, message: TEXT[code], detail, ...extra };
}

/** Git's messages, most specific first; the first match names the failure. */
const PATTERNS: ReadonlyArray<[RegExp, GitFailureCode]> = [
	[/not a git repository/i, "not_repository"],
	[/index\.lock'?: File exists|Unable to create '[^']*index\.lock'/i, "index_locked"],
	[/Please tell me who you are|unable to auto-detect email address|empty ident name/i, "identity_missing"],
	[/You have not concluded your merge|MERGE_HEAD exists/i, "merge_in_progress"],
	[/rebase-merge|rebase-apply|in the middle of a rebase/i, "rebase_in_progress"],
	[/would be overwritten by (checkout|merge|switch)|Please commit your changes or stash them/i, "local_changes_block"],
	[/Not possible to fast-forward|not possible to fast-forward|divergent branches/i, "diverged"],
	[/\[rejected\]|\[remote rejected\]|failed to push some refs|non-fast-forward|Updates were rejected/i, "push_rejected"],
	[/has no upstream branch|no upstream configured|There is no tracking information/i, "no_upstream"],
	[/No configured push destination|No remote repository specified|does not appear to be a git repository/i, "no_remote"],
	[/Authentication failed|Permission denied \(publickey|could not read Username|could not read Password|terminal prompts disabled/i, "auth_failed"],
	[/Could not resolve host|Could not read from remote repository|unable to access|Connection refused|Connection timed out|Network is unreachable/i, "network_failed"],
	[/unmerged|needs merge|fix conflicts|Committing is not possible because you have unmerged files/i, "conflicts"],
	[/nothing to commit|no changes added to commit/i, "nothing_to_commit"],
	[/is not a valid branch name|not a valid branch name/i, "invalid_branch_name"],
	[/a branch named .* already exists|already exists/i, "branch_exists"],
	[/You are not currently on a branch|HEAD detached/i, "detached_head"],
	[/does not have any commits yet|bad (default )?revision 'HEAD'|ambiguous argument 'HEAD'/i, "no_commits"],
];

/** The failure git's stderr describes; `git_failed` with its words when none matches. */
export function classifyGitError(stderr: string): GitFailure {
	const detail = lastLines(stderr);
	for (const [pattern, code] of PATTERNS) {
		if (!pattern.test(stderr)) continue;
		if (code === "index_locked") return failure(code, detail, { lockPath: /'([^']*index\.lock)'/.exec(stderr)?.[1] });
		return failure(code, detail);
	}
	return failure("git_failed", detail);
}

/** The end of git's stderr, where it says what went wrong, without hint lines. */
function lastLines(stderr: string): string {
	const lines = stderr
		.split(/\r?\n/)
		.map((l) => l.trimEnd())
		.filter((l) => l !== "" && !l.startsWith("hint:"));
	return lines.slice(-6).join("\n").slice(0, 2000);
}
