/**
 * Bringing the remote's commits in when the branch diverged (docs/vcs.md): "Merge the remote" and
 * "Rebase my commits onto the remote" are explicit actions (the session takes a safety point
 * first); a conflict stops them with the conflicted files listed, to be resolved one at a time,
 * then continued or aborted. A merge or rebase another tool left behind is handled the same way.
 */
import type { GitCallOptions } from "./exec";
import { failure, type GitFailure } from "./failures";
import type { Outcome } from "./ports";
import type { GitRepository, Operation } from "./repository";
import { isConflicted } from "./status";

export type Integration = Exclude<Operation, null>;

/** Where a merge or rebase stands: done, or stopped at conflicts in these files. */
export type IntegrationStop = { done: true } | { done: false; operation: Integration; conflicts: string[] };

/** `:` tells git not to start an editor at all: the merge and rebase messages stay as git proposes them. */
const NO_EDITOR: GitCallOptions = { env: { GIT_EDITOR: ":", GIT_SEQUENCE_EDITOR: ":" } };

/** Merges or rebases onto the branch's upstream; a conflict is not a failure but a stop. */
export async function integrateUpstream(repo: GitRepository, how: Integration): Promise<Outcome<IntegrationStop>> {
	const blocked = await repo.blockedBy();
	if (blocked) return { ok: false, failure: blocked };
	const args = how === "merge" ? ["merge", "--no-edit", "--quiet", "@{upstream}"] : ["rebase", "--quiet", "@{upstream}"];
	const r = await repo.run(args, NO_EDITOR);
	return whereItStands(repo, r.ok ? null : r);
}

/** After every conflicted file is marked resolved: commits the merge, or lets the rebase go on (it may stop again). */
export async function continueIntegration(repo: GitRepository): Promise<Outcome<IntegrationStop>> {
	const op = await repo.operation();
	if (!op) return { ok: true, value: { done: true } };
	const st = await repo.status();
	if (!st.ok) return st;
	const left = st.value.files.filter(isConflicted).map((f) => f.path);
	if (left.length) return { ok: false, failure: failure("conflicts", left.join("\n")) };
	const r = await repo.run(op === "merge" ? ["commit", "--no-edit", "--quiet"] : ["rebase", "--continue"], NO_EDITOR);
	return whereItStands(repo, r.ok ? null : r);
}

/** Stops the merge or rebase; git puts back the commit it started from (the session then restores its safety point). */
export async function abortIntegration(repo: GitRepository): Promise<Outcome<void>> {
	const op = await repo.operation();
	if (!op) return { ok: true, value: undefined };
	const r = await repo.run([op, "--abort"]);
	return r.ok ? { ok: true, value: undefined } : { ok: false, failure: r.failure };
}

async function whereItStands(repo: GitRepository, failed: { failure: GitFailure } | null): Promise<Outcome<IntegrationStop>> {
	const op = await repo.operation();
	if (!op) return failed ? { ok: false, failure: failed.failure } : { ok: true, value: { done: true } };
	const st = await repo.status();
	if (!st.ok) return st;
	return { ok: true, value: { done: false, operation: op, conflicts: st.value.files.filter(isConflicted).map((f) => f.path) } };
}

/** How a conflicted file is resolved: one side whole, both sides' lines at each conflict, or the user's own text. */
export type Resolution = { kind: "ours" } | { kind: "theirs" } | { kind: "both" } | { kind: "edit"; text: string };

/** The three texts of a conflicted file (null where a side deleted it or there is no common base). */
export interface ConflictSides {
	base: string | null;
	ours: string | null;
	theirs: string | null;
}

export async function conflictSides(repo: GitRepository, path: string): Promise<Outcome<ConflictSides>> {
	const stage = async (n: 1 | 2 | 3) => {
		const r = await repo.run(["cat-file", "blob", `:${n}:${path}`]);
		return r.ok ? r.stdout : null;
	};
	const [base, ours, theirs] = await Promise.all([stage(1), stage(2), stage(3)]);
	return { ok: true, value: { base, ours, theirs } };
}

/**
 * Writes the resolution into the work tree; nothing is staged until "Mark resolved". A side that
 * deleted the file resolves to its deletion.
 */
export async function resolveConflict(repo: GitRepository, path: string, how: Resolution): Promise<Outcome<void>> {
	const file = `${repo.root}/${path}`;
	if (how.kind === "edit") {
		await repo.files.writeText(file, how.text);
		return { ok: true, value: undefined };
	}
	const sides = await conflictSides(repo, path);
	if (!sides.ok) return sides;
	const { ours, theirs } = sides.value;
	if (how.kind === "both") {
		// Markers made afresh from the index, so an earlier choice in the work tree does not matter.
		const marked = await repo.run(["checkout", "--conflict=merge", "--", path]);
		if (!marked.ok) return { ok: false, failure: marked.failure };
		const text = await repo.files.readText(file);
		await repo.files.writeText(file, keepBothSides(text ?? ""));
		return { ok: true, value: undefined };
	}
	const text = how.kind === "ours" ? ours : theirs;
	if (text === null) await repo.files.remove(file).catch(() => undefined);
	else await repo.files.writeText(file, text);
	return { ok: true, value: undefined };
}

/** Stages a resolved file (or its deletion). */
export async function markResolved(repo: GitRepository, path: string): Promise<Outcome<void>> {
	const r = await repo.run(["add", "--all", "--", path]);
	return r.ok ? { ok: true, value: undefined } : { ok: false, failure: r.failure };
}

/** Every conflict block replaced by our lines then theirs (the base section of a diff3 block dropped). */
export function keepBothSides(text: string): string {
	const out: string[] = [];
	let part: "outside" | "ours" | "base" | "theirs" = "outside";
	for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
		if (/^<{7}( |\r?\n|$)/.test(line) && part === "outside") part = "ours";
		else if (/^\|{7}( |\r?\n|$)/.test(line) && part === "ours") part = "base";
		else if (/^={7}(\r?\n|$)/.test(line) && (part === "ours" || part === "base")) part = "theirs";
		else if (/^>{7}( |\r?\n|$)/.test(line) && part === "theirs") part = "outside";
		else if (part !== "base") out.push(line);
	}
	return out.join("");
}
