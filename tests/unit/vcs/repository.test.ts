import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultIgnoreLines, GitRepository } from "../../../src/vcs/repository";
import { createLocalVault, git, gitStatus, read, vcsFs, write, type LocalVault } from "../../support/git";

jest.setTimeout(30_000);

let world: LocalVault;
beforeEach(() => (world = createLocalVault()));
afterEach(() => world.cleanup());

/** A bare remote, `origin` of the vault; returns its path. */
function addRemote(): string {
	const remote = join(world.dir, "remote.git");
	git(world.dir, "init", "--quiet", "--bare", "--initial-branch=main", remote);
	git(world.vault, "remote", "add", "origin", remote);
	return remote;
}

const done = { ok: true, value: undefined };

/** A merge of `topic` into main stopped at a conflict over Welcome.md. */
function conflictedMerge(root: string): void {
	git(root, "switch", "--quiet", "-c", "topic");
	write(root, "Welcome.md", "# Welcome\ntopic\n");
	git(root, "commit", "--quiet", "-am", "Topic");
	git(root, "switch", "--quiet", "main");
	write(root, "Welcome.md", "# Welcome\nmain\n");
	git(root, "commit", "--quiet", "-am", "Main");
	expect(gitStatus(root, "merge", "--quiet", "topic").code).not.toBe(0);
}

describe("opening and initialising", () => {
	it("opens from the vault's folder inside the repository, and runs git from the root", async () => {
		mkdirSync(join(world.vault, "notes"));
		const repo = await world.open(join(world.vault, "notes"));
		expect({ root: repo.root, gitDir: repo.gitDir, prefix: repo.prefix }).toEqual({ root: world.vault, gitDir: join(world.vault, ".git"), prefix: "notes/" });
		expect(await repo.run(["rev-parse", "--show-prefix"])).toMatchObject({ ok: true, stdout: "\n" });
		expect((await world.open()).prefix).toBe("");
	});

	it("says a plain folder is not a repository", async () => {
		const plain = mkdtempSync(join(tmpdir(), "rb-plain-"));
		try {
			expect(await GitRepository.open(world.config(plain), vcsFs)).toMatchObject({ ok: false, failure: { code: "not_repository" } });
		} finally {
			rmSync(plain, { recursive: true, force: true });
		}
	});

	it("initialises with the ignore lines, keeping the user's .gitignore and adding only what it lacks", async () => {
		const dir = join(world.dir, "fresh");
		mkdirSync(dir);
		writeFileSync(join(dir, ".gitignore"), "node_modules/\n.trash/"); // no newline at the end
		const lines = defaultIgnoreLines(".obsidian", ".obsidian/plugins/runnable-blocks/history.sqlite");
		const r = await GitRepository.init(world.config(dir), vcsFs, lines);
		expect(r.ok && r.value.root).toBe(dir);
		expect(read(dir, ".gitignore")).toBe("node_modules/\n.trash/\n.obsidian/workspace*.json\n.obsidian/workspace-mobile.json\n.obsidian/plugins/runnable-blocks/history.sqlite\n");
		await GitRepository.init(world.config(dir), vcsFs, lines);
		expect(read(dir, ".gitignore").split("\n").filter((l) => l === ".trash/")).toHaveLength(1);
	});

	it("writes a .gitignore of the lines alone where there was none, and none when there are no lines", async () => {
		const dir = join(world.dir, "fresh");
		mkdirSync(dir);
		await GitRepository.init(world.config(dir), vcsFs, ["a/", "b.md"]);
		expect(read(dir, ".gitignore")).toBe("a/\nb.md\n");
		const bare = join(world.dir, "no-lines");
		mkdirSync(bare);
		await GitRepository.init(world.config(bare), vcsFs, []);
		expect(existsSync(join(bare, ".gitignore"))).toBe(false);
	});

	it("ignores per-device layout, the run history and the trash in a new vault repository", () => {
		expect(defaultIgnoreLines(".config", "data/history.sqlite")).toEqual([".config/workspace*.json", ".config/workspace-mobile.json", "data/history.sqlite", ".trash/"]);
	});
});

describe("what the panel shows", () => {
	it("snapshots status, remotes, the operation and a lock in one call", async () => {
		addRemote();
		write(world.vault, "New.md", "n\n");
		writeFileSync(join(world.vault, ".git", "index.lock"), "");
		const snap = await (await world.open()).snapshot();
		expect(snap).toMatchObject({ ok: true, value: { remotes: ["origin"], operation: null, lockPath: join(world.vault, ".git", "index.lock") } });
		expect(snap.ok && snap.value.status.files.map((f) => f.path)).toEqual(["New.md"]);
	});

	it.each([
		["MERGE_HEAD", "merge"],
		["rebase-merge", "rebase"],
		["rebase-apply", "rebase"],
	])("reads %s in the git dir as a %s in progress", async (marker, operation) => {
		const repo = await world.open();
		expect(await repo.operation()).toBeNull();
		if (marker === "MERGE_HEAD") writeFileSync(join(repo.gitDir, marker), `${git(world.vault, "rev-parse", "HEAD")}`);
		else mkdirSync(join(repo.gitDir, marker));
		expect(await repo.operation()).toBe(operation);
	});

	it("pages the log, and has an empty one before the first commit", async () => {
		for (const s of ["Two", "Three"]) git(world.vault, "commit", "--quiet", "--allow-empty", "-m", s);
		const repo = await world.open();
		const page = await repo.log(1, 1);
		expect(page.ok && page.value.map((c) => c.subject)).toEqual(["Two"]);
		const fresh = join(world.dir, "fresh");
		mkdirSync(fresh);
		const init = await GitRepository.init(world.config(fresh), vcsFs, []);
		expect(init.ok && (await init.value.log())).toEqual({ ok: true, value: [] });
	});

	it("reads a file at HEAD and in the work tree, null where it is not", async () => {
		const repo = await world.open();
		write(world.vault, "Welcome.md", "# Welcome\nedited\n");
		expect(await repo.fileAtHead("Welcome.md")).toEqual({ ok: true, value: "# Welcome\n" });
		expect(await repo.fileAtHead("Missing.md")).toEqual({ ok: true, value: null });
		expect(await repo.fileInWorktree("Welcome.md")).toBe("# Welcome\nedited\n");
		unlinkSync(join(world.vault, "Welcome.md"));
		expect(await repo.fileInWorktree("Welcome.md")).toBeNull();
		const fresh = join(world.dir, "fresh");
		mkdirSync(fresh);
		const init = await GitRepository.init(world.config(fresh), vcsFs, []);
		expect(init.ok && (await init.value.fileAtHead("Welcome.md"))).toEqual({ ok: true, value: null });
	});
});

describe("changing the index and the work tree", () => {
	it("does nothing, and runs no git, for an empty list of paths", async () => {
		const repo = await world.open();
		writeFileSync(join(world.vault, ".git", "index.lock"), ""); // any git write would now fail
		expect(await repo.stage([])).toEqual(done);
		expect(await repo.unstage([])).toEqual(done);
		expect(await repo.discard([], false)).toEqual(done);
		expect(await repo.stage(["Welcome.md"])).toMatchObject({ ok: false, failure: { code: "index_locked" } });
	});

	it("discards a tracked file's unstaged edit back to the index, and removes an untracked file but no ignored one", async () => {
		write(world.vault, ".git/info/exclude", "*.tmp\n");
		write(world.vault, "Welcome.md", "# Welcome\nstaged\n");
		git(world.vault, "add", "Welcome.md");
		write(world.vault, "Welcome.md", "# Welcome\nstaged\nunstaged\n");
		write(world.vault, "Draft.md", "draft\n");
		write(world.vault, "scratch.tmp", "ignored\n");
		const repo = await world.open();
		expect(await repo.discard(["Welcome.md"], false)).toEqual(done);
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nstaged\n");
		expect(await repo.stagedPaths()).toEqual({ ok: true, value: ["Welcome.md"] });
		expect(await repo.discard(["Draft.md", "scratch.tmp"], true)).toEqual(done);
		expect(existsSync(join(world.vault, "Draft.md"))).toBe(false);
		expect(read(world.vault, "scratch.tmp")).toBe("ignored\n");
	});

	it("unstages a staged edit and keeps it in the work tree", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nmine\n");
		const repo = await world.open();
		await repo.stage(["Welcome.md"]);
		expect(await repo.unstage(["Welcome.md"])).toEqual(done);
		expect(await repo.stagedPaths()).toEqual({ ok: true, value: [] });
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nmine\n");
	});
});

describe("commits only when nothing blocks them", () => {
	it("refuses during a merge, naming how to finish it, and commits nothing", async () => {
		conflictedMerge(world.vault);
		const head = git(world.vault, "rev-parse", "HEAD");
		const repo = await world.open();
		expect(await repo.commit("Merge")).toMatchObject({ ok: false, failure: { code: "merge_in_progress", detail: "finish it (commit) or abort it (git merge --abort) in git" } });
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
	});

	it("refuses during a rebase", async () => {
		const repo = await world.open();
		mkdirSync(join(repo.gitDir, "rebase-merge"));
		expect(await repo.blockedBy()).toMatchObject({ code: "rebase_in_progress" });
	});

	it("refuses while files are unmerged with no merge in progress (as a conflicted stash pop leaves them), listing them", async () => {
		conflictedMerge(world.vault);
		unlinkSync(join(world.vault, ".git", "MERGE_HEAD"));
		expect(await (await world.open()).blockedBy()).toMatchObject({ code: "conflicts", detail: "Welcome.md" });
	});

	it("returns the new commit's hash", async () => {
		write(world.vault, "Note.md", "n\n");
		const repo = await world.open();
		await repo.stageAll();
		const r = await repo.commit("Note");
		expect(r).toEqual({ ok: true, value: git(world.vault, "rev-parse", "HEAD").trim() });
		expect(await repo.blockedBy()).toBeNull();
	});
});

describe("branches", () => {
	it("switches to a remote branch through its local twin when there is one", async () => {
		addRemote();
		git(world.vault, "switch", "--quiet", "-c", "ideas");
		git(world.vault, "push", "--quiet", "-u", "origin", "ideas");
		write(world.vault, "Local only.md", "l\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Ahead of origin/ideas");
		const local = git(world.vault, "rev-parse", "ideas");
		git(world.vault, "switch", "--quiet", "main");
		const repo = await world.open();
		expect(await repo.switchTo({ name: "origin/ideas", remote: true, current: false, upstream: null })).toEqual(done);
		expect(git(world.vault, "branch", "--show-current").trim()).toBe("ideas");
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(local);
	});

	it("creates a branch at HEAD with the work tree as it was, refusing bad or taken names", async () => {
		write(world.vault, "Draft.md", "kept\n");
		const repo = await world.open();
		expect(await repo.createBranch("drafts/new")).toEqual(done);
		expect(git(world.vault, "branch", "--show-current").trim()).toBe("drafts/new");
		expect(read(world.vault, "Draft.md")).toBe("kept\n");
		expect(await repo.createBranch("main")).toMatchObject({ ok: false, failure: { code: "branch_exists", detail: "main" } });
		for (const bad of ["two words", "ends.lock", "-f", "a..b"]) expect(await repo.createBranch(bad)).toMatchObject({ ok: false, failure: { code: "invalid_branch_name", detail: bad } });
	});

	it("publishes the branch to a remote as its upstream, and says when the remote is missing", async () => {
		const remote = addRemote();
		git(world.vault, "switch", "--quiet", "-c", "topic");
		const repo = await world.open();
		expect(await repo.publish("nowhere")).toMatchObject({ ok: false, failure: { code: "no_remote" } });
		expect(await repo.publish("origin")).toEqual(done);
		expect(git(world.vault, "rev-parse", "--abbrev-ref", "topic@{upstream}").trim()).toBe("origin/topic");
		expect(git(remote, "rev-parse", "topic")).toBe(git(world.vault, "rev-parse", "HEAD"));
	});
});

describe("a stale index.lock", () => {
	const lockOf = (repo: GitRepository) => join(repo.gitDir, "index.lock");

	it("is neither held nor removed when there is none", async () => {
		const repo = await world.open();
		expect(await repo.lockHeld(() => Promise.resolve("unknown"))).toBe(false);
		expect(await repo.removeStaleLock(() => Promise.resolve("unknown"))).toEqual(done);
	});

	it("is removed when no git process works in the repository (one in a sibling folder does not count)", async () => {
		const repo = await world.open();
		writeFileSync(lockOf(repo), "");
		const probe = () => Promise.resolve([`${world.vault}-archive`, join(world.dir, "other")]);
		expect(await repo.lockHeld(probe)).toBe(false);
		expect(await repo.removeStaleLock(probe)).toEqual(done);
		expect(existsSync(lockOf(repo))).toBe(false);
	});

	it("stays while a git process works in its work tree, naming where", async () => {
		const repo = await world.open();
		writeFileSync(lockOf(repo), "");
		const probe = () => Promise.resolve([join(world.dir, "other"), join(world.vault, "notes")]);
		expect(await repo.lockHeld(probe)).toBe(true);
		expect(await repo.removeStaleLock(probe)).toMatchObject({ ok: false, failure: { code: "lock_in_use", detail: join(world.vault, "notes") } });
		expect(existsSync(lockOf(repo))).toBe(true);
	});

	it("stays while a git process works in its git dir, even one kept apart from the work tree", async () => {
		const apart = join(world.dir, "apart");
		git(world.dir, "init", "--quiet", `--separate-git-dir=${join(world.dir, "apart.git")}`, apart);
		const repo = await world.open(apart);
		expect(repo.gitDir).toBe(join(world.dir, "apart.git"));
		writeFileSync(lockOf(repo), "");
		const probe = () => Promise.resolve([join(world.dir, "apart.git")]);
		expect(await repo.lockHeld(probe)).toBe(true);
		expect(await repo.removeStaleLock(probe)).toMatchObject({ ok: false, failure: { code: "lock_in_use", detail: join(world.dir, "apart.git") } });
		expect(existsSync(lockOf(repo))).toBe(true);
	});

	it("stays when the system cannot tell which git processes run", async () => {
		const repo = await world.open();
		writeFileSync(lockOf(repo), "");
		expect(await repo.lockHeld(() => Promise.resolve("unknown"))).toBe("unknown");
		expect(await repo.removeStaleLock(() => Promise.resolve("unknown"))).toMatchObject({ ok: false, failure: { code: "lock_in_use" } });
		expect(existsSync(lockOf(repo))).toBe(true);
	});

	it("stays while the repository's own git is running", async () => {
		const repo = await world.open();
		writeFileSync(lockOf(repo), "");
		const ac = new AbortController();
		const running = repo.run(["cat-file", "--batch"], { signal: ac.signal }); // reads its stdin until stopped
		try {
			expect(await repo.removeStaleLock(() => Promise.resolve([]))).toMatchObject({ ok: false, failure: { code: "lock_in_use", detail: "the panel is running git" } });
			expect(existsSync(lockOf(repo))).toBe(true);
		} finally {
			ac.abort();
			await running;
		}
		expect(await repo.removeStaleLock(() => Promise.resolve([]))).toEqual(done);
	});
});
