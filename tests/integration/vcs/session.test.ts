import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProcessProbe, defaultIgnoreLines, GitRepository, LOCK_POLL_MS, LOCK_WAIT_MS, VcsSession, type VcsState } from "../../../src/vcs";
import { createGitWorld, git, nodeExecFile, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(60_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });
function sessionAt(cwd: string): { session: VcsSession; states: VcsState[] } {
	const session = new VcsSession({
		open: () => GitRepository.open(world.config(cwd), vcsFs),
		init: () => GitRepository.init(world.config(cwd), vcsFs, defaultIgnoreLines(".obsidian", ".obsidian/plugins/runnable-blocks/history.sqlite")),
		probe,
		template: () => "Notes {date}: {notes}",
		now: () => new Date(2026, 10, 25, 10, 0),
	});
	const states: VcsState[] = [];
	session.subscribe((s) => states.push(s));
	return { session, states };
}
const ready = (s: VcsState) => {
	if (s.kind !== "ready") throw new Error(`not ready: ${JSON.stringify(s)}`);
	return s;
};

describe("VcsSession", () => {
	it("offers to initialise a folder that is not a repository, then shows it", async () => {
		const dir = join(world.dir, "plain");
		mkdirSync(dir);
		const { session } = sessionAt(dir);
		await session.refresh();
		expect(session.state).toMatchObject({ kind: "unavailable", failure: { code: "not_repository" } });
		await session.initialise();
		expect(ready(session.state).snapshot.status.files.map((f) => f.path)).toEqual([".gitignore"]);
	});

	it("once closed (plugin unload), a refresh already under way reaches no view", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const { session, states } = sessionAt(world.vault);
		const pending = session.refresh();
		session.close();
		await pending;
		expect(states).toEqual([]);
		expect(ready(session.state).snapshot.status.files.map((f) => f.path)).toEqual(["Alpha.md"]);
	});

	it("commits all with the template when the message is empty, and shows the commit first", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const { session, states } = sessionAt(world.vault);
		await session.refresh();
		expect(session.defaultMessage()).toBe("Notes 2026-11-25 10:00: Alpha");
		await session.commit("", true);
		const s = ready(session.state);
		expect(s.problem).toBeNull();
		expect(s.commits[0].subject).toBe("Notes 2026-11-25 10:00: Alpha");
		expect(s.snapshot.status.files).toEqual([]);
		expect(states.some((x) => x.kind === "ready" && x.busy === "commit")).toBe(true);
	});

	it("names in the default message what git staged, even when an edit came after the panel's last status", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const { session } = sessionAt(world.vault);
		await session.refresh();
		write(world.vault, "Late.md", "written after the refresh\n");
		await session.commit("", true);
		expect(ready(session.state).commits[0].subject).toBe("Notes 2026-11-25 10:00: Alpha, Late");
		// Never refreshed at all (a palette command before the panel opened): the same.
		write(world.vault, "Unseen.md", "u\n");
		const fresh = sessionAt(world.vault).session;
		await fresh.commit("", true);
		expect(ready(fresh.state).commits[0].subject).toBe("Notes 2026-11-25 10:00: Unseen");
	});

	it("commits only what is staged with the Commit button, named from git's index", async () => {
		write(world.vault, "Staged.md", "s\n");
		write(world.vault, "Left.md", "l\n");
		const { session } = sessionAt(world.vault);
		await session.refresh();
		git(world.vault, "add", "Staged.md"); // from a terminal: the panel's status does not know yet
		await session.commit("", false);
		expect(ready(session.state).commits[0].subject).toBe("Notes 2026-11-25 10:00: Staged");
		expect(ready(session.state).snapshot.status.files.map((f) => f.path)).toEqual(["Left.md"]);
	});

	it("lists branches for the picker, opening the repository first; says why when there is none", async () => {
		const { session } = sessionAt(world.vault);
		const list = await session.branches();
		expect(list.ok && list.value.map((b) => b.name)).toEqual(["main", "origin/main"]);
		const dir = join(world.dir, "plain");
		mkdirSync(dir);
		const none = sessionAt(dir).session;
		expect(await none.branches()).toMatchObject({ ok: false, failure: { code: "not_repository" } });
		expect(none.state).toMatchObject({ kind: "unavailable", failure: { code: "not_repository" } });
	});

	it("keeps a failure as the problem and a sync's progress as busy steps", async () => {
		world.otherCommits("Remote.md", "r\n");
		write(world.vault, "Local.md", "l\n");
		const { session, states } = sessionAt(world.vault);
		await session.refresh();
		await session.sync();
		expect(ready(session.state).problem).toMatchObject({ code: "diverged", ahead: 1, behind: 1 });
		expect(ready(session.state).lastSync?.committed).toBe(git(world.vault, "rev-parse", "HEAD").trim());
		expect(states.flatMap((x) => (x.kind === "ready" && x.busy?.startsWith("sync:") ? [x.busy] : []))).toEqual(["sync:check", "sync:commit", "sync:fetch"]);
		await session.stage(["nothing-here.md"]);
		expect(ready(session.state).problem).toMatchObject({ code: "git_failed" });
	});

	it("stages and unstages single files and pages the log", async () => {
		for (let i = 0; i < 55; i++) git(world.vault, "commit", "--quiet", "--allow-empty", "-m", `c${i}`);
		write(world.vault, "One.md", "1\n");
		const { session } = sessionAt(world.vault);
		await session.refresh();
		await session.stage(["One.md"]);
		expect(ready(session.state).snapshot.status.files).toEqual([{ path: "One.md", origPath: null, index: "A", worktree: "." }]);
		await session.unstage(["One.md"]);
		expect(ready(session.state).snapshot.status.files[0].index).toBe("?");
		expect(ready(session.state)).toMatchObject({ moreCommits: true });
		expect(ready(session.state).commits).toHaveLength(50);
		await session.moreCommits();
		expect(ready(session.state).commits).toHaveLength(56);
		expect(ready(session.state).moreCommits).toBe(false);
	});
});

describe("a held index.lock", () => {
	/**
	 * A session whose probe reports a git process in the vault while `holder.running`, and whose
	 * sleep advances a fake clock (never waiting) and lets the test end the other process.
	 */
	function lockedSession(holder: { running: boolean; afterSleeps?: number }) {
		const clock = { now: Date.UTC(2026, 10, 25, 10), sleeps: 0 };
		const lock = join(world.vault, ".git", "index.lock");
		writeFileSync(lock, "");
		const session = new VcsSession({
			open: () => GitRepository.open(world.config(world.vault), vcsFs),
			init: () => GitRepository.init(world.config(world.vault), vcsFs, []),
			probe: () => Promise.resolve(holder.running ? [world.vault] : []),
			template: () => "Notes {date}: {notes}",
			now: () => new Date(clock.now),
			sleep: (ms) => {
				clock.now += ms;
				clock.sleeps++;
				// The other git finishes: its lock goes with it.
				if (holder.afterSleeps !== undefined && clock.sleeps >= holder.afterSleeps) {
					holder.running = false;
					rmSync(lock, { force: true });
				}
				return Promise.resolve();
			},
		});
		const busy: Array<string | null> = [];
		session.subscribe((s) => s.kind === "ready" && busy.push(s.busy));
		return { session, clock, busy, lock };
	}

	it("waits, saying so, until the other git process lets go; then the commit goes ahead", async () => {
		write(world.vault, "Note.md", "typed\n");
		const { session, clock, busy } = lockedSession({ running: true, afterSleeps: 3 });
		await session.refresh();
		await session.commit("After the lock", true);
		expect(clock.sleeps).toBe(3);
		expect(busy).toContain("wait");
		expect(busy.indexOf("wait")).toBeLessThan(busy.indexOf("commit"));
		expect(ready(session.state).problem).toBeNull();
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("After the lock");
	});

	it("gives up after LOCK_WAIT_MS by the injected clock with the reason, changing nothing and throwing nothing", async () => {
		write(world.vault, "Note.md", "typed\n");
		const head = git(world.vault, "rev-parse", "HEAD");
		const { session, clock, lock } = lockedSession({ running: true });
		await expect(session.commit("Never", true)).resolves.toBeUndefined();
		expect(clock.sleeps).toBe(LOCK_WAIT_MS / LOCK_POLL_MS);
		expect(ready(session.state).problem).toMatchObject({ code: "index_locked", lockPath: lock, detail: "another git process held index.lock for 30 s; try again once it has finished" });
		expect(ready(session.state).busy).toBeNull();
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
		expect(ready(session.state).safetyPoints).toEqual([]);
	});

	it("does not wait for a stale lock: git's refusal shows, and the lock's removal is offered", async () => {
		write(world.vault, "Note.md", "typed\n");
		const { session, clock } = lockedSession({ running: false });
		await session.commit("Blocked", true);
		expect(clock.sleeps).toBe(0);
		expect(ready(session.state).problem).toMatchObject({ code: "index_locked" });
		await session.removeStaleLock();
		await session.commit("Unblocked", true);
		expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Unblocked");
	});
});
