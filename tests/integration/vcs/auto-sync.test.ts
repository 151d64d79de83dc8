import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AutoSyncWiring } from "../../../src/ui/vcs/auto-sync-wiring";
import { AUTO_SYNC_IDLE_MS, AutoSync, GitRepository, VcsSession, type AutoSyncState } from "../../../src/vcs";
import { createGitWorld, git, gitStatus, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const MINUTE = 60_000;

/**
 * Auto-sync as the plugin wires it (src/ui/vcs/auto-sync-wiring.ts: `apply` starts it, `edited` is
 * the editor-change port), over a real session, on a clock the test moves; timers fire only when the
 * test says. `otherGit.running` makes the probe report another git process in the vault (its
 * index.lock held); the session's lock wait sleeps on the test's clock and calls `whileWaiting`.
 */
function autoSync() {
	const clock = { now: Date.UTC(2026, 10, 25, 10) };
	const otherGit: { running: boolean; whileWaiting?: () => void } = { running: false };
	const session = new VcsSession({
		open: () => GitRepository.open(world.config(world.vault), vcsFs),
		init: () => GitRepository.init(world.config(world.vault), vcsFs, []),
		probe: () => Promise.resolve(otherGit.running ? [world.vault] : []),
		template: () => "Auto {date}: {notes}",
		now: () => new Date(clock.now),
		sleep: (ms) => {
			clock.now += ms;
			otherGit.whileWaiting?.();
			return Promise.resolve();
		},
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
	const wiring = new AutoSyncWiring({ minutes: () => 10, make: () => auto, show: () => undefined });
	const states: AutoSyncState[] = [];
	/** When each sync started, by the test's clock. */
	const syncedAt: number[] = [];
	auto.subscribe((s) => {
		states.push(s);
		if (s.kind === "syncing") syncedAt.push(clock.now);
	});
	const nextTimer = () => timers.filter((t) => !t.cancelled).sort((a, b) => a.at - b.at)[0];
	/** Moves the clock to the next live timer (if it is not already past it) and runs what it started. */
	const fireNext = async () => {
		const next = nextTimer();
		next.cancelled = true;
		clock.now = Math.max(clock.now, next.at);
		// The timer's own work (it calls due()), awaited so the test reads its end.
		await auto.due();
	};
	/**
	 * Types `text` into a note one character every `gapMs` (`pauses`: a longer gap before the
	 * character at that index), as the editor does: each keystroke is reported through the wiring
	 * and the file on disk holds what is typed so far, mid-word. Timers that fall due between two
	 * keystrokes fire at their time; `onFired` looks at each.
	 */
	const type = async (path: string, text: string, gapMs: number, pauses: Record<number, number>, onFired: () => void) => {
		for (let i = 1; i <= text.length; i++) {
			const at = clock.now + (pauses[i - 1] ?? gapMs);
			while (nextTimer() && nextTimer().at <= at) {
				await fireNext();
				onFired();
			}
			clock.now = at;
			write(world.vault, path, text.slice(0, i));
			wiring.edited();
		}
	};
	return { clock, session, auto, wiring, states, syncedAt, otherGit, fireNext, type };
}

const remoteLog = () => git(world.remote, "log", "--format=%s", "main");

it("never commits a note while it is being typed in: the sync waits for a 5 s pause, then carries the whole edit", async () => {
	const { clock, wiring, auto, states, fireNext, session } = autoSync();
	await session.refresh();
	wiring.apply();
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
	const { wiring, auto, fireNext, session } = autoSync();
	await session.refresh();
	git(world.vault, "remote", "set-url", "origin", join(world.dir, "gone.git"));
	write(world.vault, "Note.md", "text\n");
	wiring.apply();
	await fireNext();
	expect(auto.state).toMatchObject({ kind: "stopped" });
	expect(auto.state.kind === "stopped" && auto.state.reason.length).toBeGreaterThan(0);
});

describe("auto-sync racing an edit (real git, a bare remote and a second clone)", () => {
	const DRAFT = "Budget: approved by the board on Tuesday\n";
	const fsckClean = (cwd: string) => gitStatus(cwd, "fsck", "--strict", "--no-progress").code;
	const commitCount = () => Number(git(world.vault, "rev-list", "--count", "HEAD").trim());
	/** Every version of Draft.md a commit on a branch (local or remote-tracking) holds: a half-typed one would show here. */
	const committedDrafts = () =>
		git(world.vault, "log", "--branches", "--remotes", "--format=%H", "--", "Draft.md")
			.split("\n")
			.filter(Boolean)
			.map((c) => git(world.vault, "show", `${c}:Draft.md`));

	it("never commits while the 5 s idle window is open; the commit carries the whole note; the second clone's change is merged in and nothing is lost", async () => {
		const { clock, session, auto, wiring, syncedAt, fireNext, type } = autoSync();
		await session.refresh();
		wiring.apply();
		const commitsBefore = commitCount();
		// Typing starts 3 s before the sync is due, one key every 400 ms, with pauses shorter than
		// the idle window mid-word ("appro|ved", "Tues|day"); the second clone pushes meanwhile.
		clock.now += 10 * MINUTE - 3000;
		const heldWhileTyping: AutoSyncState[] = [];
		await type("Draft.md", DRAFT, 400, { 13: 4000, 36: 4900 }, () => {
			heldWhileTyping.push(auto.state);
			expect(commitCount()).toBe(commitsBefore);
			if (heldWhileTyping.length === 1) world.otherCommits("Other.md", "from the other device\n");
		});
		const lastKey = clock.now;
		expect(heldWhileTyping.length).toBeGreaterThanOrEqual(3);
		expect(heldWhileTyping.every((s) => s.kind === "held" && s.why === "typing")).toBe(true);
		expect(commitCount()).toBe(commitsBefore);

		// Typing has stopped: the sync runs at the first look 5 s after the last key.
		while (auto.state.kind === "held") await fireNext();
		expect(syncedAt).toEqual([lastKey + AUTO_SYNC_IDLE_MS]);
		expect(committedDrafts()).toEqual([DRAFT]);
		// The remote got a commit meanwhile: sync stops at the divergence, never merging on its own.
		expect(auto.state).toMatchObject({ kind: "stopped", reason: expect.stringContaining("diverged") as unknown });
		expect(readFileSync(join(world.vault, "Draft.md"), "utf8")).toBe(DRAFT);
		expect(fsckClean(world.vault)).toBe(0);

		// Merge the remote, resume: the next sync pushes both sides.
		await session.integrate("merge");
		expect(session.state.kind === "ready" && session.state.problem).toBeNull();
		expect(wiring.stopped).toBe(true);
		wiring.resume();
		await fireNext();
		expect(auto.state.kind).toBe("waiting");
		git(world.other, "pull", "--quiet", "--ff-only");
		expect(readFileSync(join(world.other, "Draft.md"), "utf8")).toBe(DRAFT);
		expect(readFileSync(join(world.vault, "Other.md"), "utf8")).toBe("from the other device\n");
		expect(readFileSync(join(world.vault, "Draft.md"), "utf8")).toBe(DRAFT);
		expect(committedDrafts().every((d) => d === DRAFT)).toBe(true);
		for (const repo of [world.vault, world.remote, world.other]) expect(fsckClean(repo)).toBe(0);
	});

	it("an edit made while the due sync waits for its turn (another git's index.lock) holds it back: nothing half-typed is committed", async () => {
		const { clock, session, auto, wiring, otherGit, fireNext, type } = autoSync();
		await session.refresh();
		wiring.apply();
		const commitsBefore = commitCount();
		// The user typed "Budget: appro" and paused; the sync falls due after the idle window.
		clock.now += 10 * MINUTE - 20_000;
		await type("Draft.md", DRAFT.slice(0, 13), 400, {}, () => undefined);
		// Another git process holds index.lock when the sync's turn comes; while it waits the user goes on typing.
		const lock = join(world.vault, ".git", "index.lock");
		writeFileSync(lock, "");
		otherGit.running = true;
		let typed = 13;
		otherGit.whileWaiting = () => {
			if (typed < 16) {
				write(world.vault, "Draft.md", DRAFT.slice(0, ++typed));
				wiring.edited();
			} else {
				otherGit.running = false;
				rmSync(lock, { force: true });
			}
		};
		await fireNext();
		otherGit.whileWaiting = undefined;
		expect(commitCount()).toBe(commitsBefore);
		expect(committedDrafts()).toEqual([]);
		expect(auto.state).toMatchObject({ kind: "held", why: "typing" });
		expect(session.state.kind === "ready" && session.state.safetyPoints).toEqual([]);

		// The rest of the note, then a pause: the sync commits all of it.
		const rest = DRAFT.slice(typed);
		for (const ch of rest) {
			clock.now += 300;
			write(world.vault, "Draft.md", readFileSync(join(world.vault, "Draft.md"), "utf8") + ch);
			wiring.edited();
		}
		while (auto.state.kind === "held") await fireNext();
		expect(committedDrafts()).toEqual([DRAFT]);
		expect(auto.state.kind).toBe("waiting");
		for (const repo of [world.vault, world.remote]) expect(fsckClean(repo)).toBe(0);
	});
});
