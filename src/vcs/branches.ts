import { fuzzyScore } from "../blocks/fuzzy-match";

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

/** A branch to switch to (with the ranges of its name the query matched), or a new one to create from HEAD. */
export type BranchChoice = { kind: "switch"; branch: BranchRef; matches: Array<[number, number]> } | { kind: "create"; name: string };

/**
 * The picker's list: the branches whose name matches the query, scored by Mod+K's fuzzy matcher
 * so both pickers rank alike (word starts and runs first); on a tie, and with no query, the
 * current branch first and local ones before remote ones. Then "Create branch…" for a name no
 * local branch has.
 */
export function branchChoices(branches: readonly BranchRef[], query: string): BranchChoice[] {
	const q = query.trim();
	const scored = branches.flatMap((branch) => {
		const match = fuzzyScore(q, branch.name);
		return match === null ? [] : [{ branch, match, rank: (branch.current ? 0 : 1) + (branch.remote ? 1 : 0) }];
	});
	// The sort is stable: branches that tie keep git's order.
	scored.sort((x, y) => y.match.score - x.match.score || x.rank - y.rank);
	const choices: BranchChoice[] = scored.map(({ branch, match }) => ({ kind: "switch", branch, matches: match.matches }));
	if (q && !branches.some((b) => !b.remote && b.name === q)) choices.push({ kind: "create", name: q });
	return choices;
}
