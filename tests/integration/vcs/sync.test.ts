import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { commitMessage, sync, type SyncStep } from "../../../src/vcs";
import { createGitWorld, git, gitStatus, read, treeContents, write, type GitWorld } from "../../support/git";

jest.setTimeout(60_000);

const message = (paths: string[]) => commitMessage("Vault update {date}: {notes}", paths, new Date(2026, 10, 25, 9, 30));
let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const head = (cwd: string, rev = "HEAD") => git(cwd, "rev-parse", rev).trim();
const fsckClean = (cwd: string) => gitStatus(cwd, "fsck", "--strict", "--no-progress").code;

describe("sync", () => {
	it("commits local changes and pushes them when only the vault moved (ahead)", async () => {
		write(world.vault, "Ideas.md", "an idea\n");
		const steps: SyncStep[] = [];
		const r = await sync(await world.open(), { message, onProgress: (s) => steps.push(s) });
		expect(r).toMatchObject({ ok: true, report: { pushed: 1, pulled: 0 } });
		expect(r.report.committed).toBe(head(world.vault));
		expect(git(world.remote, "rev-parse", "main").trim()).toBe(head(world.vault));
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Vault update 2026-11-25 09:30: Ideas");
		expect(steps).toEqual(["check", "commit", "fetch", "push"]);
	});

	it("fast-forwards when only the remote moved (behind)", async () => {
		world.otherCommits("From phone.md", "typed on the phone\n");
		const r = await sync(await world.open(), { message });
		expect(r).toEqual({ ok: true, report: { committed: null, pulled: 1, pushed: 0 } });
		expect(read(world.vault, "From phone.md")).toBe("typed on the phone\n");
		expect(head(world.vault)).toBe(head(world.other));
	});

	it("does nothing when both sides are equal", async () => {
		const before = head(world.vault);
		const r = await sync(await world.open(), { message });
		expect(r).toEqual({ ok: true, report: { committed: null, pulled: 0, pushed: 0 } });
		expect(head(world.vault)).toBe(before);
	});

	it("stops when the sides diverged: both commits intact, work tree untouched, fsck clean", async () => {
		world.otherCommits("Welcome.md", "# Welcome\nremote line\n");
		write(world.vault, "Welcome.md", "# Welcome\nlocal line\n");
		write(world.vault, "Draft.md", "draft\n");
		const remoteTip = head(world.remote, "main");
		const r = await sync(await world.open(), { message });
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.failure).toMatchObject({ code: "diverged", ahead: 1, behind: 1, detail: "diverged: 1 local, 1 remote commits" });
		expect(r.step).toBe("fetch");
		// The local commit exists and is HEAD; the remote's commit is untouched and known locally.
		expect(r.report.committed).toBe(head(world.vault));
		expect(head(world.remote, "main")).toBe(remoteTip);
		expect(head(world.vault, "origin/main")).toBe(remoteTip);
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nlocal line\n");
		expect(read(world.vault, "Draft.md")).toBe("draft\n");
		expect(existsSync(join(world.vault, ".git/MERGE_HEAD"))).toBe(false);
		expect(git(world.vault, "status", "--porcelain")).toBe("");
		expect(fsckClean(world.vault)).toBe(0);
		expect(fsckClean(world.remote)).toBe(0);
	});

	it("leaves the work tree byte for byte as it was when it stops at divergence with nothing to commit", async () => {
		write(world.vault, "Local.md", "local\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Local commit");
		world.otherCommits("Remote.md", "remote\n");
		const before = treeContents(world.vault);
		const r = await sync(await world.open(), { message });
		expect(r).toMatchObject({ ok: false, failure: { code: "diverged", ahead: 1, behind: 1 }, report: { committed: null } });
		expect(treeContents(world.vault)).toEqual(before);
	});

	it("reports a rejected push when another device pushes between fetch and push", async () => {
		write(world.vault, "Mine.md", "mine\n");
		const repo = await world.open();
		const r = await sync(repo, {
			message,
			// The second device wins the race: it pushes right after our fetch decided we were only ahead.
			onProgress: (step) => step === "push" && world.otherCommits("Theirs.md", "theirs\n"),
		});
		expect(r).toMatchObject({ ok: false, step: "push", failure: { code: "push_rejected" } });
		expect(r.report.committed).toBe(head(world.vault));
		expect(read(world.vault, "Mine.md")).toBe("mine\n");
		// The next sync sees the divergence instead of losing either side.
		const again = await sync(repo, { message });
		expect(again).toMatchObject({ ok: false, failure: { code: "diverged", ahead: 1, behind: 1 } });
	});

	it("reports a push the remote refuses (a hook) and keeps the local commit", async () => {
		write(world.remote, "hooks/pre-receive", "#!/bin/sh\necho 'read-only mirror' >&2\nexit 1\n");
		chmodSync(join(world.remote, "hooks/pre-receive"), 0o755);
		write(world.vault, "Mine.md", "mine\n");
		const r = await sync(await world.open(), { message });
		expect(r).toMatchObject({ ok: false, step: "push", failure: { code: "push_rejected" } });
		expect(r.ok || r.failure.detail).toContain("read-only mirror");
		expect(r.report.committed).toBe(head(world.vault));
	});

	it("stops before committing when HEAD is detached", async () => {
		git(world.vault, "checkout", "--quiet", "--detach");
		write(world.vault, "Loose.md", "loose\n");
		const before = head(world.vault);
		const repo = await world.open();
		const st = await repo.status();
		expect(st.ok && st.value.branch.head).toBeNull();
		const r = await sync(repo, { message });
		expect(r).toMatchObject({ ok: false, step: "check", failure: { code: "detached_head" }, report: { committed: null } });
		expect(head(world.vault)).toBe(before);
	});

	it("commits and then says there is no upstream for a new local branch; publishing fixes it", async () => {
		git(world.vault, "switch", "--quiet", "-c", "topic");
		write(world.vault, "Topic.md", "topic\n");
		const repo = await world.open();
		const r = await sync(repo, { message });
		expect(r).toMatchObject({ ok: false, failure: { code: "no_upstream" } });
		expect(r.report.committed).toBe(head(world.vault));
		expect(await repo.publish("origin")).toEqual({ ok: true, value: undefined });
		expect(git(world.remote, "rev-parse", "topic").trim()).toBe(head(world.vault));
		expect(await sync(repo, { message })).toMatchObject({ ok: true });
	});

	it("says there is no remote in a repository without one, after committing", async () => {
		git(world.vault, "remote", "remove", "origin");
		write(world.vault, "Solo.md", "solo\n");
		const r = await sync(await world.open(), { message });
		expect(r).toMatchObject({ ok: false, failure: { code: "no_remote" } });
		expect(r.report.committed).toBe(head(world.vault));
	});

	it("refuses while a conflicted merge is in progress, touching nothing", async () => {
		world.otherCommits("Welcome.md", "# Welcome\nremote\n");
		write(world.vault, "Welcome.md", "# Welcome\nlocal\n");
		git(world.vault, "commit", "--quiet", "-am", "Local");
		git(world.vault, "fetch", "--quiet");
		expect(gitStatus(world.vault, "merge", "origin/main").code).not.toBe(0);
		const before = treeContents(world.vault);
		const repo = await world.open();
		const snap = await repo.snapshot();
		expect(snap.ok && snap.value.operation).toBe("merge");
		expect(snap.ok && snap.value.status.files.map((f) => [f.path, f.index + f.worktree])).toEqual([["Welcome.md", "UU"]]);
		expect(await sync(repo, { message })).toMatchObject({ ok: false, step: "check", failure: { code: "merge_in_progress" } });
		expect(await repo.commit("try")).toMatchObject({ ok: false, failure: { code: "merge_in_progress" } });
		expect(treeContents(world.vault)).toEqual(before);
	});

	it("can be cancelled between steps, keeping what was done", async () => {
		write(world.vault, "Ideas.md", "x\n");
		const remoteTip = head(world.remote, "main");
		const ac = new AbortController();
		const r = await sync(await world.open(), { message, signal: ac.signal, onProgress: (s) => s === "fetch" && ac.abort() });
		expect(r).toMatchObject({ ok: false, step: "fetch", failure: { code: "cancelled" } });
		expect(r.report.committed).toBe(head(world.vault));
		expect(head(world.remote, "main")).toBe(remoteTip);
	});
});
