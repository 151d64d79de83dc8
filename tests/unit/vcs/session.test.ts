import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Outcome } from "../../../src/vcs/ports";
import { createProcessProbe } from "../../../src/vcs/process-probe";
import { GitRepository } from "../../../src/vcs/repository";
import { VcsSession, type VcsSessionDeps, type VcsState } from "../../../src/vcs/session";
import { createLocalVault, git, nodeExecFile, vcsFs, write, type LocalVault } from "../../support/git";

jest.setTimeout(30_000);

let world: LocalVault;
beforeEach(() => (world = createLocalVault()));
afterEach(() => world.cleanup());

const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });

/** A session on `cwd` with a fixed clock, and every state it published. */
function sessionAt(cwd: string, deps: Partial<VcsSessionDeps> = {}) {
	const session = new VcsSession({
		open: () => GitRepository.open(world.config(cwd), vcsFs),
		init: () => GitRepository.init(world.config(cwd), vcsFs, []),
		probe,
		template: () => "Notes {date}: {notes}",
		now: () => new Date(2026, 10, 25, 10, 0),
		...deps,
	});
	const states: VcsState[] = [];
	session.subscribe((s) => states.push(s));
	return { session, states };
}

const ready = (s: VcsState) => {
	if (s.kind !== "ready") throw new Error(`not ready: ${JSON.stringify(s)}`);
	return s;
};
const busyOf = (states: VcsState[]) => states.map((s) => (s.kind === "ready" ? s.busy : s.kind));

describe("VcsSession", () => {
	it("is loading until the first refresh, then ready with status, commits and safety points", async () => {
		write(world.vault, "New.md", "n\n");
		const { session } = sessionAt(world.vault);
		expect(session.state).toEqual({ kind: "loading" });
		expect(session.repository).toBeNull();
		await session.refresh();
		expect(ready(session.state)).toMatchObject({ busy: null, problem: null, moreCommits: false, safetyPoints: [], conflicts: [], lastSync: null });
		expect(ready(session.state).snapshot.status.files.map((f) => f.path)).toEqual(["New.md"]);
		expect(ready(session.state).commits.map((c) => c.subject)).toEqual(["First note"]);
		expect(session.repository?.root).toBe(world.vault);
	});

	it("runs refreshes asked for together once", async () => {
		const { session, states } = sessionAt(world.vault);
		await Promise.all([session.refresh(), session.refresh(), session.refresh()]);
		expect(busyOf(states)).toEqual([null]);
	});

	it("says what it is doing during an action, then shows the result", async () => {
		write(world.vault, "New.md", "n\n");
		const { session, states } = sessionAt(world.vault);
		await session.refresh();
		states.length = 0;
		await session.stage(["New.md"]);
		expect(busyOf(states)).toEqual(["stage", "refresh", null]);
		expect(ready(session.state).snapshot.status.files).toEqual([{ path: "New.md", origPath: null, index: "A", worktree: "." }]);
	});

	it("shows why an action stopped until the next one", async () => {
		const { session } = sessionAt(world.vault);
		await session.stage(["Never existed.md"]);
		expect(ready(session.state).problem).toMatchObject({ code: "git_failed" });
		await session.refresh();
		expect(ready(session.state).problem).toMatchObject({ code: "git_failed" });
		await session.unstage(["Welcome.md"]);
		expect(ready(session.state).problem).toBeNull();
	});

	it("proposes a message for the staged files when some are, else for every change", async () => {
		write(world.vault, "Staged.md", "s\n");
		write(world.vault, "Other.md", "o\n");
		const { session } = sessionAt(world.vault);
		await session.refresh();
		expect(session.defaultMessage()).toBe("Notes 2026-11-25 10:00: Other, Staged");
		await session.stage(["Staged.md"]);
		expect(session.defaultMessage()).toBe("Notes 2026-11-25 10:00: Staged");
	});

	it("takes a safety point before a commit and records where it ended", async () => {
		write(world.vault, "Alpha.md", "a\n");
		const { session } = sessionAt(world.vault);
		await session.commit("  Alpha  ", true);
		expect(ready(session.state).commits[0].subject).toBe("Alpha");
		const [point] = ready(session.state).safetyPoints;
		expect(point).toMatchObject({ action: "commit", time: new Date(2026, 10, 25, 10, 0).getTime() });
		expect(point.after?.headOid).toBe(git(world.vault, "rev-parse", "HEAD").trim());
	});

	it("says there is nothing to undo, or no such point", async () => {
		const { session } = sessionAt(world.vault);
		const confirm = jest.fn(async () => true);
		await session.undo(confirm);
		expect(ready(session.state).problem).toMatchObject({ code: "no_safety_point", detail: "" });
		await session.undo(confirm, "1764255320000-0000");
		expect(ready(session.state).problem).toMatchObject({ code: "no_safety_point", detail: "1764255320000-0000" });
		expect(confirm).not.toHaveBeenCalled();
	});

	it("drops a sync that is told to hold when its turn comes, before any safety point or commit", async () => {
		write(world.vault, "Typing.md", "still typing\n");
		const { session } = sessionAt(world.vault);
		await session.refresh();
		const head = git(world.vault, "rev-parse", "HEAD");
		await session.sync({ holdIf: () => true });
		expect(ready(session.state)).toMatchObject({ busy: null, problem: null, safetyPoints: [] });
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
	});

	it("starts over when the repository goes away, and shows it again once it is back", async () => {
		const { session } = sessionAt(world.vault);
		await session.refresh();
		rmSync(join(world.vault, ".git"), { recursive: true, force: true });
		await session.refresh();
		expect(session.state).toMatchObject({ kind: "unavailable", failure: { code: "not_repository" } });
		await session.initialise();
		expect(ready(session.state).snapshot.status.files.map((f) => f.path)).toEqual(["Welcome.md"]);
	});

	it("shows a failure to initialise and stays unavailable", async () => {
		const refused: Outcome<GitRepository> = { ok: false, failure: { code: "git_missing", message: "Git is not installed or not on the PATH", detail: "spawn git ENOENT" } };
		const { session } = sessionAt(world.vault, { init: () => Promise.resolve(refused) });
		await session.initialise();
		expect(session.state).toEqual({ kind: "unavailable", failure: refused.failure });
		expect(session.repository).toBeNull();
	});

	it("turns a bug of its own into a shown failure and keeps working", async () => {
		let opens = 0;
		const { session } = sessionAt(world.vault, {
			open: () => (++opens === 1 ? Promise.reject(new Error("boom")) : GitRepository.open(world.config(world.vault), vcsFs)),
		});
		await session.refresh();
		expect(session.state).toMatchObject({ kind: "unavailable", failure: { code: "git_failed", detail: "boom" } });
		await session.refresh();
		expect(session.state.kind).toBe("ready");
	});

	it("says why it cannot list branches where there is no repository", async () => {
		const plain = join(world.dir, "plain");
		mkdirSync(plain);
		const { session } = sessionAt(plain);
		expect(await session.branches()).toMatchObject({ ok: false, failure: { code: "not_repository" } });
	});
});
