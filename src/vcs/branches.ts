/** Local and remote branches, from `git for-each-ref`. */

export interface BranchRef {
	/** `main`, or `origin/main` for a remote branch. */
	name: string;
	remote: boolean;
	/** HEAD is on this branch. */
	current: boolean;
	/** The upstream of a local branch (`origin/main`), or null. */
	upstream: string | null;
}

/** The `for-each-ref` arguments parseBranches reads: fields split by NUL, one ref per line. */
export const BRANCH_ARGS = ["for-each-ref", "--format=%(refname)%00%(refname:short)%00%(HEAD)%00%(upstream:short)", "refs/heads", "refs/remotes"];

export function parseBranches(output: string): BranchRef[] {
	return output
		.split("\n")
		.filter((l) => l !== "")
		.flatMap((line) => {
			const [full, short, head, upstream] = line.split("\0");
			// origin/HEAD is an alias of a remote branch, not a branch of its own.
			if (full.startsWith("refs/remotes/") && full.endsWith("/HEAD")) return [];
			return [{ name: short, remote: full.startsWith("refs/remotes/"), current: head === "*", upstream: upstream || null }];
		});
}

/** For a remote branch `origin/topic`: the local name switching to it creates (`topic`). */
export function localNameOf(remoteBranch: string): string {
	return remoteBranch.slice(remoteBranch.indexOf("/") + 1);
}
