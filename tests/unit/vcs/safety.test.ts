import { existsSync, mkdirSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { GitRepository } from "../../../src/vcs/repository";
import { captureState, changesSince, listSafetyPoints, recordAfter, removeSafetyPoint, restoreState, takeSafetyPoint, undoToSafetyPoint } from "../../../src/vcs/safety";
import { SAFETY_PREFIX, type SafetyPoint } from "../../../src/vcs/safety-points";
import { createLocalVault, git, gitStatus, read, vcsFs, write, type LocalVault } from "../../support/git";

jest.setTimeout(30_000);

const T = Date.UTC(2026, 10, 25, 10);
let world: LocalVault;
beforeEach(() => (world = createLocalVault()));
afterEach(() => world.cleanup());

const refs = () => git(world.vault, "for-each-ref", "--format=%(refname)", SAFETY_PREFIX).split("\n").filter(Boolean);
const value = <T>(r: { ok: true; value: T } | { ok: false; failure: { detail: string } }): T => {
	if (!r.ok) throw new Error(r.failure.detail);
	return r.value;
};

describe("captureState", () => {
	it("reads HEAD, the index and the work tree (untracked files too), leaving no copy of the index behind", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nstaged\n");
		git(world.vault, "add", "Welcome.md");
		write(world.vault, "Welcome.md", "# Welcome\nstaged\nnot staged\n");
		write(world.vault, "Idea.md", "untracked\n");
		const repo = await world.open();
		const s = value(await captureState(repo));
		expect(s).toMatchObject({ headRef: "refs/heads/main", headOid: git(world.vault, "rev-parse", "HEAD").trim() });
		expect(git(world.vault, "show", `${s.indexTree}:Welcome.md`)).toBe("# Welcome\nstaged\n");
		expect(git(world.vault, "show", `${s.worktreeTree}:Welcome.md`)).toBe("# Welcome\nstaged\nnot staged\n");
		expect(git(world.vault, "show", `${s.worktreeTree}:Idea.md`)).toBe("untracked\n");
		expect(readdirSync(repo.gitDir).filter((f) => f.startsWith("rb-safety-index"))).toEqual([]);
		expect(git(world.vault, "status", "--porcelain")).toBe("MM Welcome.md\n?? Idea.md\n");
	});

	it("reads a repository without commits: a branch with no commit, an empty index", async () => {
		const fresh = join(world.dir, "fresh");
		mkdirSync(fresh);
		git(fresh, "init", "--quiet", "--initial-branch=main");
		const repo = await world.open(fresh);
		write(fresh, "First.md", "1\n");
		const s = value(await captureState(repo));
		expect(s).toMatchObject({ headRef: "refs/heads/main", headOid: null, indexTree: git(fresh, "hash-object", "-t", "tree", "/dev/null").trim() });
		expect(git(fresh, "ls-tree", "--name-only", s.worktreeTree)).toBe("First.md\n");
	});

	it("reads a detached HEAD as no branch", async () => {
		git(world.vault, "switch", "--quiet", "--detach");
		expect(value(await captureState(await world.open())).headRef).toBeNull();
	});
});

describe("taking and listing safety points", () => {
	it("writes the point under its id as a commit by the plugin, dated by the injected clock", async () => {
		const repo = await world.open();
		const point = value(await takeSafetyPoint(repo, "commit", T));
		expect(point).toMatchObject({ id: `${T}-0000`, action: "commit", time: T, after: null });
		expect(refs()).toEqual([`${SAFETY_PREFIX}${T}-0000/before`]);
		expect(git(world.vault, "log", "-1", "--format=%an <%ae> %at %s", `${SAFETY_PREFIX}${T}-0000/before`).trim()).toBe(`Runnable Blocks <safety@runnable-blocks.invalid> ${T / 1000} Safety point before commit`);
		expect(git(world.vault, "rev-parse", `${SAFETY_PREFIX}${T}-0000/before^1`)).toBe(git(world.vault, "rev-parse", "HEAD"));
	});

	it("numbers points taken in the same millisecond and lists them newest first, with their end once recorded", async () => {
		const repo = await world.open();
		const first = value(await takeSafetyPoint(repo, "commit", T));
		write(world.vault, "After.md", "a\n");
		value(await recordAfter(repo, first, T + 5));
		await takeSafetyPoint(repo, "sync", T);
		const points = value(await listSafetyPoints(repo));
		expect(points.map((p) => [p.id, p.action])).toEqual([
			[`${T}-0001`, "sync"],
			[`${T}-0000`, "commit"],
		]);
		expect(points[1].after && git(world.vault, "ls-tree", "--name-only", points[1].after.worktreeTree)).toBe("After.md\nWelcome.md\n");
		expect(points[0].after).toBeNull();
	});

	it("skips refs under the prefix that are not safety points of ours", async () => {
		const repo = await world.open();
		await takeSafetyPoint(repo, "commit", T);
		const head = git(world.vault, "rev-parse", "HEAD").trim();
		git(world.vault, "update-ref", `${SAFETY_PREFIX}not-an-id/before`, head);
		git(world.vault, "update-ref", `${SAFETY_PREFIX}${T + 1}-0000/before`, head); // an ordinary commit: no state in its message
		git(world.vault, "update-ref", `${SAFETY_PREFIX}${T + 2}-0000/after`, `${SAFETY_PREFIX}${T}-0000/before`); // an end without a start
		expect(value(await listSafetyPoints(repo)).map((p) => p.id)).toEqual([`${T}-0000`]);
	});

	it("removes a point's refs, start and end", async () => {
		const repo = await world.open();
		const point = value(await takeSafetyPoint(repo, "branch", T));
		await recordAfter(repo, point, T);
		expect(refs()).toHaveLength(2);
		await removeSafetyPoint(repo, point.id);
		expect(refs()).toEqual([]);
	});
});

describe("changesSince", () => {
	async function pointAroundCommit(): Promise<{ repo: GitRepository; point: SafetyPoint }> {
		const repo = await world.open();
		write(world.vault, "Alpha.md", "a\n");
		const taken = value(await takeSafetyPoint(repo, "commit", T));
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Alpha");
		return { repo, point: value(await recordAfter(repo, taken, T)) };
	}

	it("cannot tell when the action's end was never recorded", async () => {
		const repo = await world.open();
		const point = value(await takeSafetyPoint(repo, "commit", T));
		expect(await changesSince(repo, point)).toEqual({ ok: true, value: { changed: "unknown", paths: [], headMoved: false } });
	});

	it("finds nothing when all is as the action left it", async () => {
		const { repo, point } = await pointAroundCommit();
		expect(await changesSince(repo, point)).toEqual({ ok: true, value: { changed: false, paths: [], headMoved: false } });
	});

	it("names the files changed since, and whether HEAD moved", async () => {
		const { repo, point } = await pointAroundCommit();
		write(world.vault, "Alpha.md", "edited\n");
		write(world.vault, "Beta.md", "new\n");
		expect(await changesSince(repo, point)).toEqual({ ok: true, value: { changed: true, paths: ["Alpha.md", "Beta.md"], headMoved: false } });
		git(world.vault, "switch", "--quiet", "-c", "elsewhere");
		expect(value(await changesSince(repo, point)).headMoved).toBe(true);
	});
});

describe("restoring and undoing", () => {
	it("puts back a repository without commits: the branch unborn again, the file untracked", async () => {
		const fresh = join(world.dir, "fresh");
		mkdirSync(fresh);
		const repo = value(await GitRepository.init(world.config(fresh), vcsFs, []));
		write(fresh, "First.md", "1\n");
		const before = value(await captureState(repo));
		git(fresh, "add", "--all");
		git(fresh, "commit", "--quiet", "-m", "First");
		expect(await restoreState(repo, before)).toEqual({ ok: true, value: undefined });
		expect(gitStatus(fresh, "rev-parse", "--verify", "--quiet", "HEAD").code).not.toBe(0);
		expect(git(fresh, "status", "--porcelain")).toBe("?? First.md\n");
		expect(read(fresh, "First.md")).toBe("1\n");
	});

	it("puts back a detached HEAD and removes files the state did not have", async () => {
		git(world.vault, "switch", "--quiet", "--detach");
		const repo = await world.open();
		const before = value(await captureState(repo));
		git(world.vault, "switch", "--quiet", "main");
		write(world.vault, "Later.md", "later\n");
		expect(await restoreState(repo, before)).toEqual({ ok: true, value: undefined });
		expect(gitStatus(world.vault, "symbolic-ref", "--quiet", "HEAD").code).not.toBe(0);
		expect(existsSync(join(world.vault, "Later.md"))).toBe(false);
	});

	it("undoes to a point, taking a point of its own first and dropping the one it went back to", async () => {
		const repo = await world.open();
		const point = value(await takeSafetyPoint(repo, "discard", T));
		unlinkSync(join(world.vault, "Welcome.md"));
		value(await recordAfter(repo, point, T));
		const guard = value(await undoToSafetyPoint(repo, point, T + 1000));
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\n");
		expect(guard).toMatchObject({ action: "undo", time: T + 1000 });
		expect(guard.after).not.toBeNull();
		expect(value(await listSafetyPoints(repo)).map((p) => p.id)).toEqual([guard.id]);
	});

	it.each([
		["MERGE_HEAD", "merge_in_progress"],
		["rebase-merge", "rebase_in_progress"],
	])("refuses while %s says an operation is in progress, changing nothing", async (marker, code) => {
		const repo = await world.open();
		const point = value(await takeSafetyPoint(repo, "commit", T));
		write(world.vault, "Kept.md", "kept\n");
		if (marker === "MERGE_HEAD") write(world.vault, `.git/${marker}`, git(world.vault, "rev-parse", "HEAD"));
		else mkdirSync(join(repo.gitDir, marker));
		expect(await undoToSafetyPoint(repo, point, T + 1)).toMatchObject({ ok: false, failure: { code, detail: "abort it first; the abort returns to the safety point" } });
		expect(read(world.vault, "Kept.md")).toBe("kept\n");
		expect(refs()).toEqual([`${SAFETY_PREFIX}${point.id}/before`]);
	});
});
