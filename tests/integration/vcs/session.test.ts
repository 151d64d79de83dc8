import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createProcessProbe, defaultIgnoreLines, GitRepository, VcsSession, type VcsState } from "../../../src/vcs";
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
