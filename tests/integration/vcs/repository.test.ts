import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { commitMessage, createGitRunner, createProcessProbe, defaultIgnoreLines, GitRepository, groupChanges, parseStatus } from "../../../src/vcs";
import { createGitWorld, git, GIT_ENV, nodeExecFile, read, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const probe = createProcessProbe({
	platform: process.platform,
	readdir: (p) => fsp.readdir(p),
	readlink: (p) => fsp.readlink(p),
	readFile: (p) => fsp.readFile(p, "utf8"),
	execFile: nodeExecFile,
});

describe("status, stage, commit", () => {
	it("groups changes: staged, unstaged (a file can be both), untracked", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nstaged\n");
		git(world.vault, "add", "Welcome.md");
		write(world.vault, "Welcome.md", "# Welcome\nstaged\nthen edited\n");
		write(world.vault, "New.md", "new\n");
		const st = await (await world.open()).status();
		if (!st.ok) throw new Error(st.failure.detail);
		expect(st.value.branch).toMatchObject({ head: "main", upstream: "origin/main", ahead: 0, behind: 0 });
		const groups = groupChanges(st.value.files);
		expect(groups.staged.map((f) => f.path)).toEqual(["Welcome.md"]);
		expect(groups.unstaged.map((f) => f.path)).toEqual(["Welcome.md"]);
		expect(groups.untracked.map((f) => f.path)).toEqual(["New.md"]);
	});

	it("commits everything with the default message naming the changed notes", async () => {
		write(world.vault, "Alpha.md", "a\n");
		write(world.vault, "folder/Beta.md", "b\n");
		git(world.vault, "rm", "--quiet", "Welcome.md");
		const repo = await world.open();
		const st = await repo.status();
		if (!st.ok) throw new Error(st.failure.detail);
		const paths = st.value.files.map((f) => f.path);
		expect(await repo.stageAll()).toEqual({ ok: true, value: undefined });
		const c = await repo.commit(commitMessage("Vault update {date}: {notes}", paths, new Date(2026, 0, 2, 3, 4)));
		expect(c.ok && c.value).toBe(git(world.vault, "rev-parse", "HEAD").trim());
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Vault update 2026-01-02 03:04: Welcome, Alpha, Beta");
		const after = await repo.status();
		expect(after.ok && after.value.files).toEqual([]);
		expect(after.ok && after.value.branch.ahead).toBe(1);
		expect(await repo.commit("again")).toMatchObject({ ok: false, failure: { code: "nothing_to_commit" } });
	});

	it("says who is missing when git has no identity", async () => {
		write(world.vault, "A.md", "a\n");
		const noIdentity = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_") && k !== "EMAIL"));
		const r = await GitRepository.open(
			{ execFile: nodeExecFile, cwd: world.vault, baseEnv: { ...noIdentity, HOME: world.dir }, env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", EMAIL: "" } },
			vcsFs,
		);
		if (!r.ok) throw new Error(r.failure.detail);
		git(world.vault, "config", "user.useConfigOnly", "true");
		await r.value.stageAll();
		expect(await r.value.commit("x")).toMatchObject({ ok: false, failure: { code: "identity_missing" } });
	});

	it("handles names with spaces, unicode, newlines, tabs, quotes and glob characters", async () => {
		const names = ["with space.md", "ünïcödé 日本語.md", "new\nline.md", "tab\there.md", 'quote"d.md', "star*.md", "dir with space/inner note.md"];
		for (const n of names) write(world.vault, n, `${n}\n`);
		git(world.vault, "mv", "Welcome.md", "Welcome renamed ✓.md");
		const repo = await world.open();
		const st = await repo.status();
		if (!st.ok) throw new Error(st.failure.detail);
		const groups = groupChanges(st.value.files);
		expect(groups.untracked.map((f) => f.path).sort()).toEqual([...names].sort());
		expect(groups.staged).toEqual([{ path: "Welcome renamed ✓.md", origPath: "Welcome.md", index: "R", worktree: "." }]);
		// Staging one name stages exactly that file: "star*.md" is not a glob.
		write(world.vault, "starry.md", "other\n");
		expect(await repo.stage(["new\nline.md", "star*.md"])).toEqual({ ok: true, value: undefined });
		// What the next commit records, read from git: a rename by its new name, every name verbatim.
		const staged = await repo.stagedPaths();
		expect(staged.ok && staged.value.sort()).toEqual(["Welcome renamed ✓.md", "new\nline.md", "star*.md"].sort());
		expect(await repo.unstage(["new\nline.md"])).toEqual({ ok: true, value: undefined });
		const after = await repo.stagedPaths();
		expect(after.ok && after.value).not.toContain("new\nline.md");
		await repo.stageAll();
		const c = await repo.commit("Odd names");
		expect(c.ok).toBe(true);
		const head = await repo.fileAtHead("ünïcödé 日本語.md");
		expect(head).toEqual({ ok: true, value: "ünïcödé 日本語.md\n" });
		expect(await repo.fileAtHead("never existed.md")).toEqual({ ok: true, value: null });
		expect(await repo.fileInWorktree("new\nline.md")).toBe("new\nline.md\n");
	});

	it("unstages before the first commit (no HEAD yet)", async () => {
		const dir = join(world.dir, "fresh");
		mkdirSync(dir);
		const init = await GitRepository.init(world.config(dir), vcsFs, []);
		if (!init.ok) throw new Error(init.failure.detail);
		write(dir, "A.md", "a\n");
		await init.value.stageAll();
		expect(await init.value.stagedPaths()).toEqual({ ok: true, value: ["A.md"] });
		expect(await init.value.unstage(["A.md"])).toEqual({ ok: true, value: undefined });
		expect(await init.value.stagedPaths()).toEqual({ ok: true, value: [] });
		const st = await init.value.status();
		expect(st.ok && st.value.files.map((f) => f.index)).toEqual(["?"]);
		expect(st.ok && st.value.branch.oid).toBeNull();
		expect(await init.value.log()).toEqual({ ok: true, value: [] });
	});
});

describe("log", () => {
	it("pages through commits, newest first, with subjects kept verbatim", async () => {
		for (let i = 1; i <= 60; i++) git(world.vault, "commit", "--quiet", "--allow-empty", "-m", `Commit ${i}: with "quotes" and\ttab`);
		const repo = await world.open();
		const first = await repo.log();
		const second = await repo.log(50);
		if (!first.ok || !second.ok) throw new Error("log failed");
		expect(first.value).toHaveLength(50);
		expect(first.value[0]).toMatchObject({ subject: 'Commit 60: with "quotes" and\ttab', author: "Vault Tester" });
		expect(second.value.map((c) => c.subject)).toEqual([...Array.from({ length: 10 }, (_, i) => `Commit ${10 - i}: with "quotes" and\ttab`), "First note"]);
		expect(first.value[0].hash).toBe(git(world.vault, "rev-parse", "HEAD").trim());
	});
});

describe("branches", () => {
	it("lists local and remote branches, creates from HEAD, switches to a remote one by tracking it", async () => {
		git(world.other, "switch", "--quiet", "-c", "ideas");
		git(world.other, "push", "--quiet", "-u", "origin", "ideas");
		const repo = await world.open();
		await repo.run(["fetch", "--quiet"]);
		const list = await repo.branches();
		expect(list.ok && list.value).toEqual([
			{ name: "main", remote: false, current: true, upstream: "origin/main" },
			{ name: "origin/ideas", remote: true, current: false, upstream: null },
			{ name: "origin/main", remote: true, current: false, upstream: null },
		]);
		expect(await repo.switchTo({ name: "origin/ideas", remote: true, current: false, upstream: null })).toEqual({ ok: true, value: undefined });
		expect(git(world.vault, "rev-parse", "--abbrev-ref", "@{upstream}").trim()).toBe("origin/ideas");
		expect(await repo.createBranch("drafts/one")).toEqual({ ok: true, value: undefined });
		expect(git(world.vault, "branch", "--show-current").trim()).toBe("drafts/one");
		expect(await repo.createBranch("drafts/one")).toMatchObject({ ok: false, failure: { code: "branch_exists" } });
		expect(await repo.createBranch("bad..name")).toMatchObject({ ok: false, failure: { code: "invalid_branch_name" } });
		expect(await repo.createBranch("-x")).toMatchObject({ ok: false, failure: { code: "invalid_branch_name" } });
	});

	it("refuses to switch when local changes would be overwritten, and keeps them", async () => {
		git(world.vault, "switch", "--quiet", "-c", "other");
		write(world.vault, "Welcome.md", "# Welcome\non other\n");
		git(world.vault, "commit", "--quiet", "-am", "On other");
		git(world.vault, "switch", "--quiet", "main");
		write(world.vault, "Welcome.md", "# Welcome\nunsaved work\n");
		const r = await (await world.open()).switchTo({ name: "other", remote: false, current: false, upstream: null });
		expect(r).toMatchObject({ ok: false, failure: { code: "local_changes_block" } });
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nunsaved work\n");
	});
});

describe("repository states", () => {
	it("tells a folder that is not a repository, and initialises one with a .gitignore", async () => {
		const dir = mkdtempSync(join(tmpdir(), "rb-vcs-plain-"));
		try {
			expect(await GitRepository.open(world.config(dir), vcsFs)).toMatchObject({ ok: false, failure: { code: "not_repository" } });
			writeFileSync(join(dir, ".gitignore"), "node_modules/");
			const lines = defaultIgnoreLines(".obsidian", ".obsidian/plugins/runnable-blocks/history.sqlite");
			const r = await GitRepository.init(world.config(dir), vcsFs, lines);
			expect(r.ok).toBe(true);
			await GitRepository.init(world.config(dir), vcsFs, lines); // twice: nothing added twice
			expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(`node_modules/\n${lines.join("\n")}\n`);
			write(dir, ".obsidian/workspace.json", "{}");
			write(dir, ".obsidian/plugins/runnable-blocks/history.sqlite", "db");
			write(dir, ".obsidian/app.json", "{}");
			expect(git(dir, "status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).sort()).toEqual(["?? .gitignore", "?? .obsidian/app.json"]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("says git is missing when the program cannot be found", async () => {
		const r = await GitRepository.open({ ...world.config(), gitPath: join(world.dir, "no-such-git") }, vcsFs);
		expect(r).toMatchObject({ ok: false, failure: { code: "git_missing" } });
	});

	it("reports a stale index.lock, removes it only when no git process works in the repository", async () => {
		const repo = await world.open();
		const lock = join(world.vault, ".git", "index.lock");
		writeFileSync(lock, "");
		write(world.vault, "A.md", "a\n");
		expect(await repo.stageAll()).toMatchObject({ ok: false, failure: { code: "index_locked", lockPath: lock } });
		const snap = await repo.snapshot();
		expect(snap.ok && snap.value.lockPath).toBe(lock);

		// A git process at work in the vault (waiting on its stdin) holds the lock: it stays.
		const busy = spawn("git", ["cat-file", "--batch"], { cwd: world.vault, env: { ...process.env, ...GIT_ENV } });
		try {
			await waitFor(async () => {
				const dirs = await probe();
				return dirs !== "unknown" && dirs.includes(world.vault);
			});
			expect(await repo.removeStaleLock(probe)).toMatchObject({ ok: false, failure: { code: "lock_in_use" } });
			expect(readdirSync(join(world.vault, ".git"))).toContain("index.lock");
		} finally {
			busy.kill();
			await new Promise((r) => busy.once("exit", r));
		}
		expect(await repo.removeStaleLock(probe)).toEqual({ ok: true, value: undefined });
		expect(readdirSync(join(world.vault, ".git"))).not.toContain("index.lock");
		expect(await repo.stageAll()).toEqual({ ok: true, value: undefined });
	});

	(process.platform === "linux" ? it : it.skip)("finds the git processes of this machine by their working directory (/proc)", async () => {
		const busy = spawn("git", ["cat-file", "--batch"], { cwd: world.other, env: { ...process.env, ...GIT_ENV } });
		try {
			await waitFor(async () => {
				const dirs = await probe();
				return dirs !== "unknown" && dirs.some((d) => d === readlinkSync(`/proc/${busy.pid}/cwd`));
			});
		} finally {
			busy.kill();
		}
	});

	it("cancels a running git and stops one that takes too long", async () => {
		const runner = createGitRunner({ execFile: nodeExecFile, cwd: world.vault, baseEnv: process.env, env: GIT_ENV });
		const ac = new AbortController();
		const pending = runner.run(["cat-file", "--batch"], { signal: ac.signal }); // waits on stdin forever
		setTimeout(() => ac.abort(), 200);
		expect(await pending).toMatchObject({ ok: false, failure: { code: "cancelled" } });
		expect(await runner.run(["cat-file", "--batch"], { timeoutMs: 300 })).toMatchObject({ ok: false, failure: { code: "timeout" } });
		expect(runner.inFlight()).toBe(0);
	});
});

describe("a 10,000-file vault", () => {
	it("lists every file; status time is reported", async () => {
		for (let d = 0; d < 100; d++) {
			mkdirSync(join(world.vault, `folder ${d}`));
			for (let f = 0; f < 100; f++) writeFileSync(join(world.vault, `folder ${d}`, `note ${f}.md`), `note ${d}/${f}\n`);
		}
		const repo = await world.open();
		const t0 = performance.now();
		const raw = await repo.run(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"]);
		const t1 = performance.now();
		if (!raw.ok) throw new Error(raw.failure.detail);
		const parsed = parseStatus(raw.stdout);
		const t2 = performance.now();
		expect(groupChanges(parsed.files).untracked).toHaveLength(10_000);
		console.log(`10,000 untracked files: git status ${(t1 - t0).toFixed(0)} ms, parse ${(t2 - t1).toFixed(1)} ms (${raw.stdout.length} bytes)`);
	});
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
	for (let i = 0; i < 100; i++) {
		if (await check()) return;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error("condition never held");
}
