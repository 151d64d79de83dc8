/**
 * `git status --porcelain=v2 --branch -z` read into the panel's model. With `-z` every entry ends
 * in NUL and paths are verbatim, so names with spaces, unicode or newlines come through intact.
 */

export interface BranchInfo {
	/** The commit HEAD points at; null before the first commit. */
	oid: string | null;
	/** The branch name; null when HEAD is detached. */
	head: string | null;
	/** `origin/main`, or null when the branch tracks nothing. */
	upstream: string | null;
	/** Commits on the branch and not on its upstream, and the reverse (0 without an upstream). */
	ahead: number;
	behind: number;
	/** The upstream is configured but gone from the remote (`branch.ab` missing). */
	upstreamGone: boolean;
}

export type ChangeGroup = "staged" | "unstaged" | "untracked" | "conflicted";

export interface FileChange {
	/** Path from the repository root, `/`-separated as git prints it. */
	path: string;
	/** The path before a rename or copy. */
	origPath: string | null;
	/** Git's XY letters: index side and work-tree side ("." unchanged, M, A, D, R, C, T, U, "?"). */
	index: string;
	worktree: string;
}

export interface RepoStatus {
	branch: BranchInfo;
	files: FileChange[];
}

/** Entries parsed between two pauses of parseStatusInSlices: a few milliseconds of work. */
export const STATUS_SLICE = 2000;

/** Parses porcelain v2 `-z` output. Lines it does not know are skipped (newer git may add some). */
export function parseStatus(output: string): RepoStatus {
	const parser = new StatusParser(output);
	parser.step(Infinity);
	return parser.result();
}

/**
 * parseStatus in slices of `slice` entries with `pause()` between them, so a 100,000-file status
 * is many short tasks on the UI thread rather than one long one (issue 17: no frozen panel).
 */
export async function parseStatusInSlices(output: string, pause: () => Promise<void>, slice = STATUS_SLICE): Promise<RepoStatus> {
	const parser = new StatusParser(output);
	while (!parser.step(slice)) await pause();
	return parser.result();
}

/** Reads NUL-terminated entries from `pos` on with indexOf: no split of the whole output up front. */
class StatusParser {
	private pos = 0;
	private sawAb = false;
	private readonly branch: BranchInfo = { oid: null, head: null, upstream: null, ahead: 0, behind: 0, upstreamGone: false };
	private readonly files: FileChange[] = [];

	constructor(private readonly output: string) {}

	/** Parses up to `count` entries; true once the output is read. */
	step(count: number): boolean {
		for (let n = 0; n < count; n++) {
			const entry = this.next();
			if (entry === null) return true;
			this.entry(entry);
		}
		return this.pos >= this.output.length;
	}

	result(): RepoStatus {
		this.branch.upstreamGone = this.branch.upstream !== null && !this.sawAb;
		return { branch: this.branch, files: this.files };
	}

	private next(): string | null {
		const { output } = this;
		if (this.pos >= output.length) return null;
		let end = output.indexOf("\0", this.pos);
		if (end < 0) end = output.length;
		const entry = output.slice(this.pos, end);
		this.pos = end + 1;
		return entry;
	}

	private entry(entry: string): void {
		const { branch, files } = this;
		if (entry === "") return;
		switch (entry[0]) {
			case "#": {
				const [, key, ...rest] = entry.split(" ");
				const value = rest.join(" ");
				if (key === "branch.oid") branch.oid = value === "(initial)" ? null : value;
				else if (key === "branch.head") branch.head = value === "(detached)" ? null : value;
				else if (key === "branch.upstream") branch.upstream = value;
				else if (key === "branch.ab") {
					this.sawAb = true;
					const m = /^\+(\d+) -(\d+)$/.exec(value);
					if (m) [branch.ahead, branch.behind] = [Number(m[1]), Number(m[2])];
				}
				break;
			}
			case "1": {
				const { fields, path } = splitFields(entry, 8);
				files.push({ path, origPath: null, index: fields[1][0], worktree: fields[1][1] });
				break;
			}
			case "2": {
				const { fields, path } = splitFields(entry, 9);
				// The original path is the next NUL-terminated entry.
				files.push({ path, origPath: this.next(), index: fields[1][0], worktree: fields[1][1] });
				break;
			}
			case "u": {
				const { fields, path } = splitFields(entry, 10);
				files.push({ path, origPath: null, index: fields[1][0], worktree: fields[1][1] });
				break;
			}
			case "?":
				files.push({ path: entry.slice(2), origPath: null, index: "?", worktree: "?" });
				break;
			default:
				break; // "!" (ignored files) and anything newer
		}
	}
}

/** The first n space-separated fields, and the rest (the path, which may hold spaces). */
function splitFields(entry: string, n: number): { fields: string[]; path: string } {
	const fields: string[] = [];
	let start = 0;
	for (let k = 0; k < n; k++) {
		const space = entry.indexOf(" ", start);
		fields.push(entry.slice(start, space));
		start = space + 1;
	}
	return { fields, path: entry.slice(start) };
}

const CONFLICT_PAIRS = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

export function isConflicted(f: FileChange): boolean {
	return CONFLICT_PAIRS.has(f.index + f.worktree);
}

/** The groups a change shows in: a file staged and then edited again is in both staged and unstaged. */
export function groupsOf(f: FileChange): ChangeGroup[] {
	if (f.index === "?") return ["untracked"];
	if (isConflicted(f)) return ["conflicted"];
	const groups: ChangeGroup[] = [];
	if (f.index !== ".") groups.push("staged");
	if (f.worktree !== ".") groups.push("unstaged");
	return groups;
}

/** The files of each group, in git's order (by path). */
export function groupChanges(files: readonly FileChange[]): Record<ChangeGroup, FileChange[]> {
	const out: Record<ChangeGroup, FileChange[]> = { staged: [], unstaged: [], untracked: [], conflicted: [] };
	for (const f of files) for (const g of groupsOf(f)) out[g].push(f);
	return out;
}

/** What "Discard changes" can do to one file: drop its work-tree side (`untracked`: remove it), or why not. */
export type Discardable = { ok: true; untracked: boolean } | { ok: false; why: "unchanged" | "staged" | "conflicted" };

/**
 * The panel offers Discard changes on a file in Changes or Untracked; this says the same for a path:
 * staged changes are kept (unstage first) and a conflict is resolved, never discarded.
 */
export function discardableChange(files: readonly FileChange[], path: string): Discardable {
	const f = files.find((x) => x.path === path);
	if (!f) return { ok: false, why: "unchanged" };
	const groups = groupsOf(f);
	if (groups.includes("conflicted")) return { ok: false, why: "conflicted" };
	if (groups.includes("untracked")) return { ok: true, untracked: true };
	if (groups.includes("unstaged")) return { ok: true, untracked: false };
	return { ok: false, why: "staged" };
}
