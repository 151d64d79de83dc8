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

/** A branch to switch to, or a new one to create from HEAD. */
export type BranchChoice = { kind: "switch"; branch: BranchRef } | { kind: "create"; name: string };

/** Subsequence match, case-insensitive; a lower score is better (gaps and a late start cost). */
export function fuzzyScore(query: string, text: string): number | null {
	const q = query.toLowerCase();
	const s = text.toLowerCase();
	if (q === "") return 0;
	let score = 0;
	let at = -1;
	for (const ch of q) {
		const next = s.indexOf(ch, at + 1);
		if (next < 0) return null;
		score += next - at - 1;
		at = next;
	}
	return score + (s.startsWith(q) ? 0 : 1) + s.length / 1000;
}

/** The picker's list: matching branches (current first when unfiltered), then "Create branch…" for a new name. */
export function branchChoices(branches: readonly BranchRef[], query: string): BranchChoice[] {
	const q = query.trim();
	const scored = branches.flatMap((b) => {
		const score = fuzzyScore(q, b.name);
		return score === null ? [] : [{ b, score: score + (b.current ? -0.5 : 0) + (b.remote ? 0.25 : 0) }];
	});
	scored.sort((x, y) => x.score - y.score);
	const choices: BranchChoice[] = scored.map(({ b }) => ({ kind: "switch", branch: b }));
	if (q && !branches.some((b) => !b.remote && b.name === q)) choices.push({ kind: "create", name: q });
	return choices;
}
