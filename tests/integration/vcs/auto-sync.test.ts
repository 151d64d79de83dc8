import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AUTO_SYNC_IDLE_MS, AutoSync, createProcessProbe, GitRepository, VcsSession, type AutoSyncState } from "../../../src/vcs";
import { createGitWorld, git, nodeExecFile, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const MINUTE = 60_000;
const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });

/** Auto-sync over a real session, on a clock the test moves; timers fire only when the test says. */
function autoSync() {
	const clock = { now: Date.UTC(2026, 10, 25, 10) };
	const session = new VcsSession({
		open: () => GitRepository.open(world.config(world.vault), vcsFs),
		init: () => GitRepository.init(world.config(world.vault), vcsFs, []),
		probe,
		template: () => "Auto {date}: {notes}",
		now: () => new Date(clock.now),
	});
	const timers: Array<{ at: number; cancelled: boolean }> = [];
	const auto = new AutoSync({
		session,
		intervalMs: 10 * MINUTE,
		now: () => clock.now,
		timer: (_f, ms) => {
			const t = { at: clock.now + ms, cancelled: false };
			timers.push(t);
			return () => (t.cancelled = true);
		},
	});
	const states: AutoSyncState[] = [];
	auto.subscribe((s) => states.push(s));
	/** Moves the clock to the next live timer and runs what it started. */
	const fireNext = async () => {
		const next = timers.filter((t) => !t.cancelled).sort((a, b) => a.at - b.at)[0];
		next.cancelled = true;
		clock.now = next.at;
		// The timer's own work (it calls due()), awaited so the test reads its end.
		await auto.due();
	};
	return { clock, session, auto, states, fireNext };
}

const remoteLog = () => git(world.remote, "log", "--format=%s", "main");

it("never commits a note while it is being typed in: the sync waits for a 5 s pause, then carries the whole edit", async () => {
	const { clock, auto, states, fireNext, session } = autoSync();
	await session.refresh();
	auto.start();
	// Due in 10 minutes; the user starts typing just before.
	clock.now += 10 * MINUTE - 1000;
	write(world.vault, "Draft.md", "half-ty");
	auto.edited();
	await fireNext();
	expect(auto.state).toMatchObject({ kind: "held", why: "typing" });
	expect(git(world.vault, "status", "--porcelain")).toContain("Draft.md");
	// More keystrokes while held: the pause starts again from the last one.
	clock.now += 3000;
	write(world.vault, "Draft.md", "half-typed, then finished\n");
	auto.edited();
	await fireNext();
	expect(auto.state).toMatchObject({ kind: "held", why: "typing" });
	await fireNext();
	expect(states.map((s) => s.kind)).toContain("syncing");
	expect(auto.state.kind).toBe("waiting");
	expect(git(world.vault, "show", "HEAD:Draft.md")).toBe("half-typed, then finished\n");
	expect(git(world.vault, "log", "--format=%s").split("\n").filter((l) => l.includes("Draft"))).toHaveLength(1);
	expect(remoteLog()).toContain("Auto 2026-11-25");
	expect(readFileSync(join(world.vault, "Draft.md"), "utf8")).toBe("half-typed, then finished\n");
	expect(session.state.kind === "ready" && session.state.safetyPoints[0].action).toBe("auto-sync");
	expect(AUTO_SYNC_IDLE_MS).toBe(5000);
});

it("stops on the first failure and says why; nothing runs after it", async () => {
	const { auto, fireNext, session } = autoSync();
	await session.refresh();
	git(world.vault, "remote", "set-url", "origin", join(world.dir, "gone.git"));
	write(world.vault, "Note.md", "text\n");
	auto.start();
	await fireNext();
	expect(auto.state).toMatchObject({ kind: "stopped" });
	expect(auto.state.kind === "stopped" && auto.state.reason.length).toBeGreaterThan(0);
});
