import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProcessProbe, defaultIgnoreLines, GitRepository, listSafetyPoints, takeSafetyPoint, VcsSession, type ChangesSince, type SafetyPoint, type VcsState } from "../../../src/vcs";
import { createGitWorld, fileHashes, git, gitStatus, nodeExecFile, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const DAY = 24 * 60 * 60 * 1000;
const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });

function sessionAt(cwd: string, clock = { now: Date.UTC(2026, 10, 25, 10) }): VcsSession {
	return new VcsSession({
		open: () => GitRepository.open(world.config(cwd), vcsFs),
		init: () => GitRepository.init(world.config(cwd), vcsFs, defaultIgnoreLines(".obsidian", "h.sqlite")),
		probe,
		template: () => "Notes {date}: {notes}",
		now: () => new Date(clock.now),
	});
}

const ready = (s: VcsState) => {
	if (s.kind !== "ready") throw new Error(`not ready: ${JSON.stringify(s)}`);
	return s;
};


/** HEAD (its branch and commit), the index's entries, and every file's hash. */
function fingerprint(root: string) {
	return {
		headRef: gitStatus(root, "symbolic-ref", "-q", "HEAD").out.trim(),
		head: git(root, "rev-parse", "HEAD").trim(),
		index: git(root, "ls-files", "-s", "-z"),
		files: fileHashes(root),
	};
}

const fsckClean = (cwd: string) => gitStatus(cwd, "fsck", "--strict", "--no-progress").code;

/** A vault in the middle of work: a staged edit, a further unstaged edit, an unstaged one, an untracked note and an ignored file. */
function messy(root: string): void {
	write(root, "Welcome.md", "# Welcome\nstaged line\n");
	git(root, "add", "Welcome.md");
	write(root, "Welcome.md", "# Welcome\nstaged line\nunstaged line\n");
	write(root, ".gitignore", "*.tmp\n");
	git(root, "add", ".gitignore");
	git(root, "commit", "--quiet", "-m", "Ignore tmp", "--", ".gitignore");
	write(root, "Untracked/Idea.md", "untracked idea\n");
	write(root, "scratch.tmp", "ignored\n");
}

const never = jest.fn(async () => false);

describe("safety points", () => {
	beforeEach(() => never.mockClear());

	it("snapshots without touching the user's index, even with a stale index.lock", async () => {
		messy(world.vault);
		const repo = await world.open();
		const index = readFileSync(join(world.vault, ".git/index"));
		writeFileSync(join(world.vault, ".git/index.lock"), "");
		const status = git(world.vault, "status", "--porcelain=v1", "-z");
		const point = await takeSafetyPoint(repo, "commit", Date.UTC(2026, 10, 25));
		expect(point.ok).toBe(true);
		expect(readFileSync(join(world.vault, ".git/index"))).toEqual(index);
		expect(existsSync(join(world.vault, ".git/index.lock"))).toBe(true);
		rmSync(join(world.vault, ".git/index.lock"));
		expect(git(world.vault, "status", "--porcelain=v1", "-z")).toBe(status);
		// The work tree's snapshot holds the untracked note, not the ignored file; the index's holds the staged text.
		if (!point.ok) return;
		expect(git(world.vault, "show", `${point.value.before.worktreeTree}:Untracked/Idea.md`)).toBe("untracked idea\n");
		expect(gitStatus(world.vault, "cat-file", "-e", `${point.value.before.worktreeTree}:scratch.tmp`).code).not.toBe(0);
		expect(git(world.vault, "show", `${point.value.before.indexTree}:Welcome.md`)).toBe("# Welcome\nstaged line\n");
		expect(git(world.vault, "for-each-ref", "--format=%(refname)", "refs/runnable-blocks/safety/")).toMatch(/^refs\/runnable-blocks\/safety\/\d{13}-0000\/before\n$/);
		expect(fsckClean(world.vault)).toBe(0);
	});

	it("keeps 30 days of points by the injected clock", async () => {
		const repo = await world.open();
		const t0 = Date.UTC(2026, 0, 1);
		await takeSafetyPoint(repo, "commit", t0);
		await takeSafetyPoint(repo, "sync", t0 + 10 * DAY);
		await takeSafetyPoint(repo, "branch", t0 + 31 * DAY);
		const points = await listSafetyPoints(repo);
		expect(points.ok && points.value.map((p) => p.action)).toEqual(["branch", "sync"]);
	});
});

describe("undo puts HEAD, the index and the work tree back byte for byte", () => {
	async function undoRestores(session: VcsSession, before: ReturnType<typeof fingerprint>, action: string): Promise<void> {
		await session.refresh();
		expect(ready(session.state).safetyPoints[0].action).toBe(action);
		await session.undo(never);
		expect(never).not.toHaveBeenCalled();
		expect(ready(session.state).problem).toBeNull();
		expect(fingerprint(world.vault)).toEqual(before);
		expect(fsckClean(world.vault)).toBe(0);
	}

	it("after a commit", async () => {
		messy(world.vault);
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.commit("Everything", true);
		expect(ready(session.state).problem).toBeNull();
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Everything");
		await undoRestores(session, before, "commit");
	});

	it("after a sync that fast-forwarded", async () => {
		world.otherCommits("From phone.md", "typed on the phone\n");
		write(world.vault, "scratch.tmp", "ignored\n");
		write(world.vault, ".git/info/exclude", "*.tmp\n");
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.sync();
		expect(ready(session.state).lastSync).toMatchObject({ pulled: 1 });
		await undoRestores(session, before, "sync");
	});

	it("after a pull, with staged, unstaged and untracked work around it", async () => {
		messy(world.vault);
		git(world.vault, "push", "--quiet");
		world.otherCommits("From phone.md", "typed on the phone\n");
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.pull();
		expect(ready(session.state).problem).toBeNull();
		expect(existsSync(join(world.vault, "From phone.md"))).toBe(true);
		await undoRestores(session, before, "pull");
	});

	it("after a branch switch", async () => {
		git(world.vault, "switch", "--quiet", "-c", "topic");
		write(world.vault, "Topic.md", "on topic\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Topic note");
		git(world.vault, "switch", "--quiet", "main");
		messy(world.vault);
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.switchTo({ name: "topic", remote: false, current: false, upstream: null });
		expect(ready(session.state).snapshot.status.branch.head).toBe("topic");
		await undoRestores(session, before, "branch");
		expect(git(world.vault, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
	});

	it("after a merge of the remote", async () => {
		world.otherCommits("Remote.md", "remote\n");
		write(world.vault, "Local.md", "local\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Local note");
		git(world.vault, "fetch", "--quiet");
		write(world.vault, "Untracked/Idea.md", "untracked idea\n");
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.integrate("merge");
		expect(ready(session.state).problem).toBeNull();
		expect(git(world.vault, "rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
		await undoRestores(session, before, "merge");
	});
});

describe("discard changes", () => {
	it("drops a file's work-tree edit (its staged part stays) and removes an untracked note, each undone byte for byte", async () => {
		messy(world.vault);
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);

		await session.discard("Welcome.md", false);
		expect(ready(session.state).problem).toBeNull();
		expect(readFileSync(join(world.vault, "Welcome.md"), "utf8")).toBe("# Welcome\nstaged line\n");
		expect(git(world.vault, "diff", "--cached", "--name-only")).toBe("Welcome.md\n");
		await session.discard("Untracked/Idea.md", true);
		expect(existsSync(join(world.vault, "Untracked/Idea.md"))).toBe(false);
		// Ignored files are not the user's changes: discarding never touches them.
		expect(existsSync(join(world.vault, "scratch.tmp"))).toBe(true);
		const [second, first] = ready(session.state).safetyPoints;
		expect([second.action, first.action]).toEqual(["discard", "discard"]);

		await session.undo(never);
		expect(existsSync(join(world.vault, "Untracked/Idea.md"))).toBe(true);
		// The newest point is now that undo's own: the first discard is taken back by its point.
		await session.undo(never, first.id);
		expect(never).not.toHaveBeenCalled();
		expect(ready(session.state).problem).toBeNull();
		expect(fingerprint(world.vault)).toEqual(before);
		expect(fsckClean(world.vault)).toBe(0);
	});
});

describe("undo when something changed since", () => {
	it("says what changed and overwrites nothing unless told; the overwritten edit is itself a safety point", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const before = fingerprint(world.vault);
		const session = sessionAt(world.vault);
		await session.commit("Alpha", true);
		write(world.vault, "Alpha.md", "edited after the commit\n");
		const asked: Array<{ point: SafetyPoint; changes: ChangesSince }> = [];
		await session.undo(async (point, changes) => {
			asked.push({ point, changes });
			return false;
		});
		expect(asked).toHaveLength(1);
		expect(asked[0].point.action).toBe("commit");
		expect(asked[0].changes).toEqual({ changed: true, paths: ["Alpha.md"], headMoved: false });
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Alpha");
		expect(readFileSync(join(world.vault, "Alpha.md"), "utf8")).toBe("edited after the commit\n");

		await session.undo(async () => true);
		expect(fingerprint(world.vault)).toEqual(before);
		// Undo the undo: the edit made after the commit comes back.
		expect(ready(session.state).safetyPoints[0].action).toBe("undo");
		await session.undo(never);
		expect(readFileSync(join(world.vault, "Alpha.md"), "utf8")).toBe("edited after the commit\n");
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Alpha");
		expect(fsckClean(world.vault)).toBe(0);
	});

	it("makes no change when no safety point can be taken", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const session = sessionAt(world.vault);
		// A safety ref that is a file where a folder must go: update-ref cannot write the point.
		write(world.vault, ".git/refs/runnable-blocks/safety", "not a folder\n");
		const head = git(world.vault, "rev-parse", "HEAD");
		await session.commit("Alpha", true);
		expect(ready(session.state).problem).toMatchObject({ code: "safety_point_failed" });
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
	});
});
