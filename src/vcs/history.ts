/**
 * A note's history (docs/vcs.md): the commits that touched it, renames followed (`git log
 * --follow`), each with the path the note had there; any version read back; restoring one writes
 * its text as a new change in the work tree, never by resetting.
 */
import type { CommitInfo } from "./log";
import type { Outcome } from "./ports";
import type { GitRepository } from "./repository";

export interface NoteVersion {
	commit: CommitInfo;
	/** The note's path in this commit. */
	path: string;
	/** The path before, when this commit renamed the note. */
	renamedFrom: string | null;
}

/** Records start with RS (0x1e); fields split by US; the name-status part is NUL-separated. */
export const HISTORY_FORMAT = "--format=%x1e%H%x1f%h%x1f%an%x1f%at%x1f%s";

/** Reads `git log --follow -z --name-status HISTORY_FORMAT -- <path>`. */
export function parseNoteHistory(output: string): NoteVersion[] {
	return output
		.split("\x1e")
		.filter((r) => r !== "")
		.flatMap((record) => {
			const end = record.indexOf("\0");
			if (end < 0) return [];
			const [hash, shortHash, author, time, subject] = record.slice(0, end).split("\x1f");
			const [status = "", ...paths] = record
				.slice(end + 1)
				.replace(/^\n/, "")
				.split("\0")
				.filter((p) => p !== "");
			if (paths.length === 0) return [];
			const renamed = /^[RC]/.test(status) && paths.length >= 2;
			return [{ commit: { hash, shortHash, author, time: Number(time), subject: subject ?? "" }, path: paths[paths.length - 1], renamedFrom: renamed ? paths[0] : null }];
		});
}

/** The commits that touched a repository-relative path, newest first, through renames. */
export async function noteHistory(repo: GitRepository, path: string): Promise<Outcome<NoteVersion[]>> {
	const r = await repo.run(["log", "--follow", "-z", "--name-status", HISTORY_FORMAT, "HEAD", "--", path]);
	if (r.ok) return { ok: true, value: parseNoteHistory(r.stdout) };
	return r.failure.code === "no_commits" ? { ok: true, value: [] } : { ok: false, failure: r.failure };
}

/** The note's text in a commit (null when that commit deleted it). */
export async function versionText(repo: GitRepository, v: NoteVersion): Promise<Outcome<string | null>> {
	const r = await repo.run(["cat-file", "blob", `${v.commit.hash}:${v.path}`]);
	if (r.ok) return { ok: true, value: r.stdout };
	return /does not exist|not a valid object|invalid object name|Not a valid object name|exists on disk, but not in/i.test(r.stderr) ? { ok: true, value: null } : { ok: false, failure: r.failure };
}

/** Writes a version's text over the note's current path: a new change to commit, HEAD untouched. */
export async function restoreVersion(repo: GitRepository, v: NoteVersion, currentPath: string): Promise<Outcome<void>> {
	const text = await versionText(repo, v);
	if (!text.ok) return text;
	const file = `${repo.root}/${currentPath}`;
	if (text.value === null) await repo.files.remove(file).catch(() => undefined);
	else await repo.files.writeText(file, text.value);
	return { ok: true, value: undefined };
}
