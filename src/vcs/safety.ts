/**
 * Safety points in git (docs/vcs.md): before every change to the repository, HEAD, the index and
 * the work tree (untracked files included) are written as stash-like commits under
 * refs/runnable-blocks/safety/<id>/before, and the state the change left under …/<id>/after. The
 * snapshot works on a copy of the index (GIT_INDEX_FILE), so the user's index and work tree are
 * never touched and a stale index.lock does not stop it. Nothing is ever applied automatically.
 */
import type { GitResult } from "./exec";
import { failure } from "./failures";
import type { Outcome } from "./ports";
import type { GitRepository } from "./repository";
import { idsToPrune, nextSafetyId, parseStateMessage, SAFETY_PREFIX, sameState, stateMessage, type RepoState, type SafetyAction, type SafetyPoint } from "./safety-points";

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = <T>(r: GitResult & { ok: false }): Outcome<T> => ({ ok: false, failure: r.failure });

/** Safety commits name the plugin, not the user (who may have no identity configured), and carry the session's clock. */
function safetyEnv(time: number): Record<string, string> {
	const date = `@${Math.floor(time / 1000)} +0000`;
	return { GIT_AUTHOR_NAME: "Runnable Blocks", GIT_AUTHOR_EMAIL: "safety@runnable-blocks.invalid", GIT_COMMITTER_NAME: "Runnable Blocks", GIT_COMMITTER_EMAIL: "safety@runnable-blocks.invalid", GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

/** HEAD, the index and the work tree now, as git objects, read through a copy of the index. */
export async function captureState(repo: GitRepository): Promise<Outcome<RepoState>> {
	const sym = await repo.run(["symbolic-ref", "--quiet", "HEAD"]);
	const head = await repo.run(["rev-parse", "--quiet", "--verify", "HEAD^{commit}"]);
	const temp = `${repo.gitDir}/rb-safety-index-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
	const indexFile = `${repo.gitDir}/index`;
	try {
		if (await repo.files.exists(indexFile)) await repo.files.copy(indexFile, temp);
		const env = { GIT_INDEX_FILE: temp };
		// An index with conflicts is no tree; the work tree still is once its files are added.
		const indexTree = await repo.run(["write-tree"], { env });
		const added = await repo.run(["add", "--all", "--", "."], { env });
		if (!added.ok) return fail(added);
		const worktree = await repo.run(["write-tree"], { env });
		if (!worktree.ok) return fail(worktree);
		return ok({
			headRef: sym.ok ? sym.stdout.trim() : null,
			headOid: head.ok ? head.stdout.trim() : null,
			indexTree: indexTree.ok ? indexTree.stdout.trim() : null,
			worktreeTree: worktree.stdout.trim(),
		});
	} catch (e) {
		return { ok: false, failure: failure("git_failed", `cannot copy the index for a safety point: ${e instanceof Error ? e.message : String(e)}`) };
	} finally {
		await repo.files.remove(temp).catch(() => undefined);
		await repo.files.remove(`${temp}.lock`).catch(() => undefined);
	}
}

/** Writes a state as a commit whose tree is the work tree, with HEAD and a commit of the index as parents (as `git stash` does). */
async function writeState(repo: GitRepository, title: string, action: SafetyAction, time: number, s: RepoState): Promise<Outcome<string>> {
	const env = safetyEnv(time);
	const parents: string[] = s.headOid ? ["-p", s.headOid] : [];
	if (s.indexTree) {
		const index = await repo.run(["commit-tree", s.indexTree, ...parents, "-m", `index of ${title}`], { env });
		if (!index.ok) return fail(index);
		parents.push("-p", index.stdout.trim());
	}
	const w = await repo.run(["commit-tree", s.worktreeTree, ...parents, "-m", stateMessage(title, action, time, s)], { env });
	return w.ok ? ok(w.stdout.trim()) : fail(w);
}

/** The safety points, newest first (refs that are not ours are skipped). */
export async function listSafetyPoints(repo: GitRepository): Promise<Outcome<SafetyPoint[]>> {
	const r = await repo.run(["for-each-ref", "--format=%(refname)%00%(contents)%1e", SAFETY_PREFIX]);
	if (!r.ok) return fail(r);
	const byId = new Map<string, Partial<Pick<SafetyPoint, "before" | "after">> & { action?: SafetyAction; time?: number }>();
	for (const record of r.stdout.split("\x1e")) {
		const [ref, message = ""] = record.replace(/^\n/, "").split("\0");
		const m = /^refs\/runnable-blocks\/safety\/([0-9]{13}-[0-9]{4})\/(before|after)$/.exec(ref ?? "");
		const parsed = m ? parseStateMessage(message) : null;
		if (!m || !parsed) continue;
		const entry = byId.get(m[1]) ?? {};
		entry[m[2] as "before" | "after"] = parsed.state;
		if (m[2] === "before") Object.assign(entry, { action: parsed.action, time: parsed.time });
		byId.set(m[1], entry);
	}
	const points: SafetyPoint[] = [];
	for (const [id, e] of byId) if (e.before && e.action && e.time !== undefined) points.push({ id, action: e.action, time: e.time, before: e.before, after: e.after ?? null });
	return ok(points.sort((a, b) => (a.id < b.id ? 1 : -1)));
}

/** Takes a safety point before `action` and prunes the old ones. */
export async function takeSafetyPoint(repo: GitRepository, action: SafetyAction, now: number): Promise<Outcome<SafetyPoint>> {
	const state = await captureState(repo);
	if (!state.ok) return state;
	const existing = await listSafetyPoints(repo);
	if (!existing.ok) return existing;
	const id = nextSafetyId(now, existing.value.map((p) => p.id));
	const commit = await writeState(repo, `Safety point before ${action}`, action, now, state.value);
	if (!commit.ok) return commit;
	const ref = await repo.run(["update-ref", "-m", `runnable-blocks: safety point before ${action}`, `${SAFETY_PREFIX}${id}/before`, commit.value, ""]);
	if (!ref.ok) return fail(ref);
	const point: SafetyPoint = { id, action, time: now, before: state.value, after: null };
	await prune(repo, [point, ...existing.value], now);
	return ok(point);
}

/** Records the state an action left, so an undo can tell whether anything changed since. */
export async function recordAfter(repo: GitRepository, point: SafetyPoint, now: number): Promise<Outcome<SafetyPoint>> {
	const state = await captureState(repo);
	if (!state.ok) return state;
	const commit = await writeState(repo, `State after ${point.action}`, point.action, point.time, state.value);
	if (!commit.ok) return commit;
	const ref = await repo.run(["update-ref", "-m", `runnable-blocks: state after ${point.action}`, `${SAFETY_PREFIX}${point.id}/after`, commit.value]);
	return ref.ok ? ok({ ...point, after: state.value }) : fail(ref);
}

async function prune(repo: GitRepository, points: readonly SafetyPoint[], now: number): Promise<void> {
	for (const id of idsToPrune(points, now)) await removeSafetyPoint(repo, id);
}

export async function removeSafetyPoint(repo: GitRepository, id: string): Promise<void> {
	await repo.run(["update-ref", "-d", `${SAFETY_PREFIX}${id}/after`]);
	await repo.run(["update-ref", "-d", `${SAFETY_PREFIX}${id}/before`]);
}

/** What changed since the action a point guards ended: nothing, these paths, or "unknown" when its end was never recorded. */
export interface ChangesSince {
	changed: boolean | "unknown";
	/** Work-tree paths that differ from the state the action left. */
	paths: string[];
	/** HEAD moved since (another commit, another branch). */
	headMoved: boolean;
}

export async function changesSince(repo: GitRepository, point: SafetyPoint): Promise<Outcome<ChangesSince>> {
	const now = await captureState(repo);
	if (!now.ok) return now;
	const after = point.after;
	if (!after) return ok({ changed: "unknown", paths: [], headMoved: false });
	if (sameState(after, now.value)) return ok({ changed: false, paths: [], headMoved: false });
	const diff = await repo.run(["diff-tree", "-r", "--name-only", "-z", after.worktreeTree, now.value.worktreeTree]);
	const paths = diff.ok ? diff.stdout.split("\0").filter(Boolean) : [];
	return ok({ changed: true, paths, headMoved: after.headOid !== now.value.headOid || after.headRef !== now.value.headRef });
}

/**
 * Puts HEAD, the index and the work tree back exactly as `s` holds them: the branch HEAD was on
 * points at the same commit again, files that were not there are removed, untracked ones come
 * back untracked. The caller takes a safety point first, so this too can be undone.
 */
export async function restoreState(repo: GitRepository, s: RepoState): Promise<Outcome<void>> {
	const msg = "runnable-blocks: undo to a safety point";
	if (s.headRef) {
		const moved = s.headOid ? await repo.run(["update-ref", "-m", msg, s.headRef, s.headOid]) : await repo.run(["update-ref", "-d", s.headRef]);
		if (!moved.ok) return fail(moved);
		const sym = await repo.run(["symbolic-ref", "-m", msg, "HEAD", s.headRef]);
		if (!sym.ok) return fail(sym);
	} else if (s.headOid) {
		const det = await repo.run(["update-ref", "--no-deref", "-m", msg, "HEAD", s.headOid]);
		if (!det.ok) return fail(det);
	}
	const work = await repo.run(["read-tree", "--reset", "-u", s.worktreeTree]);
	if (!work.ok) return fail(work);
	// The index now is the point's work tree, and its .gitignore is back: what is untracked now the point did not have.
	const extra = await repo.run(["ls-files", "-z", "--others", "--exclude-standard"]);
	if (!extra.ok) return fail(extra);
	for (const path of extra.stdout.split("\0").filter(Boolean)) await repo.files.remove(`${repo.root}/${path}`).catch(() => undefined);
	const index = await repo.run(["read-tree", s.indexTree ?? s.headOid ?? "--empty"]);
	if (!index.ok) return fail(index);
	// Fresh stat data, so status does not re-read every file; it exits 1 when files differ from the index, which is expected.
	await repo.run(["update-index", "-q", "--refresh"]);
	return ok(undefined);
}

/**
 * Undoes the change a point guards: a safety point of now first ("undo", so the undo can be
 * undone), then the point's state, then the point is removed. It refuses during a merge or rebase
 * (abort that instead).
 */
export async function undoToSafetyPoint(repo: GitRepository, point: SafetyPoint, now: number): Promise<Outcome<SafetyPoint>> {
	const blocked = await repo.operation();
	if (blocked) return { ok: false, failure: failure(blocked === "merge" ? "merge_in_progress" : "rebase_in_progress", "abort it first; the abort returns to the safety point") };
	const guard = await takeSafetyPoint(repo, "undo", now);
	if (!guard.ok) return guard;
	const restored = await restoreState(repo, point.before);
	if (!restored.ok) return restored;
	await removeSafetyPoint(repo, point.id);
	return recordAfter(repo, guard.value, now);
}
