import { sync, type SyncStep } from "../../../src/vcs/sync";
import { createGitWorld, git, write, type GitWorld } from "../../support/git";

jest.setTimeout(30_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const message = (paths: string[]) => `Sync: ${paths.join(", ")}`;
const head = (cwd: string, rev = "HEAD") => git(cwd, "rev-parse", rev).trim();

/** Runs sync on the vault, recording its steps. */
async function syncVault(opts: Partial<Parameters<typeof sync>[1]> = {}) {
	const steps: SyncStep[] = [];
	const outcome = await sync(await world.open(), { message, ...opts, onProgress: (s) => (steps.push(s), opts.onProgress?.(s)) });
	return { outcome, steps };
}

describe("sync", () => {
	it("names the commit after what git staged, repository-relative", async () => {
		write(world.vault, "notes/Plan.md", "plan\n");
		git(world.vault, "mv", "Welcome.md", "notes/Welcome.md");
		const { outcome, steps } = await syncVault();
		expect(outcome).toMatchObject({ ok: true, report: { pushed: 1, pulled: 0 } });
		expect(git(world.remote, "log", "-1", "--format=%s", "main").trim()).toBe("Sync: notes/Plan.md, notes/Welcome.md");
		expect(steps).toEqual(["check", "commit", "fetch", "push"]);
	});

	it("pushes to the branch the upstream names, whatever the local branch is called", async () => {
		git(world.vault, "switch", "--quiet", "-c", "laptop", "--track", "origin/main");
		write(world.vault, "Laptop.md", "l\n");
		const { outcome } = await syncVault();
		expect(outcome).toMatchObject({ ok: true, report: { pushed: 1 } });
		expect(head(world.remote, "main")).toBe(head(world.vault));
		expect(git(world.remote, "branch", "--list", "laptop")).toBe("");
	});

	it("goes on when the changes it saw are gone by the time it stages them", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nbriefly\n");
		world.otherCommits("Remote.md", "r\n");
		// The user undoes the edit between the status and the staging.
		const { outcome, steps } = await syncVault({ onProgress: (s) => s === "commit" && write(world.vault, "Welcome.md", "# Welcome\n") });
		expect(outcome).toEqual({ ok: true, report: { committed: null, pulled: 1, pushed: 0 } });
		expect(steps).toEqual(["check", "commit", "fetch", "pull"]);
	});
});

describe("pull only", () => {
	it("fast-forwards and leaves local changes as they are: not committed, not pushed", async () => {
		world.otherCommits("From phone.md", "phone\n");
		write(world.vault, "Draft.md", "draft\n");
		const before = head(world.vault);
		const { outcome, steps } = await syncVault({ pullOnly: true });
		expect(outcome).toEqual({ ok: true, report: { committed: null, pulled: 1, pushed: 0 } });
		expect(steps).toEqual(["check", "fetch", "pull"]);
		expect(head(world.vault)).toBe(head(world.remote, "main"));
		expect(head(world.vault)).not.toBe(before);
		expect(git(world.vault, "status", "--porcelain")).toBe("?? Draft.md\n");
	});

	it("pushes nothing when the vault is ahead", async () => {
		write(world.vault, "Mine.md", "mine\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Mine");
		const remoteTip = head(world.remote, "main");
		const { outcome, steps } = await syncVault({ pullOnly: true });
		expect(outcome).toEqual({ ok: true, report: { committed: null, pulled: 0, pushed: 0 } });
		expect(steps).toEqual(["check", "fetch"]);
		expect(head(world.remote, "main")).toBe(remoteTip);
	});
});

describe("where sync stops, keeping what it did", () => {
	it("at the fetch when the remote cannot be reached", async () => {
		git(world.vault, "remote", "set-url", "origin", `${world.dir}/moved-away.git`);
		write(world.vault, "Offline.md", "o\n");
		const { outcome } = await syncVault();
		expect(outcome).toMatchObject({ ok: false, step: "fetch", failure: { code: "no_remote" } });
		expect(outcome.report.committed).toBe(head(world.vault));
	});

	it("after the fetch, as no upstream, when the branch it tracks is not on the remote", async () => {
		git(world.vault, "config", "branch.main.merge", "refs/heads/gone");
		const { outcome } = await syncVault();
		expect(outcome).toMatchObject({ ok: false, step: "fetch", failure: { code: "no_upstream" }, report: { committed: null, pulled: 0, pushed: 0 } });
	});

	it("before anything is committed or fetched when cancelled at the commit step", async () => {
		world.otherCommits("Remote.md", "r\n");
		const [before, known] = [head(world.vault), head(world.vault, "origin/main")];
		write(world.vault, "Ideas.md", "x\n");
		const ac = new AbortController();
		const { outcome } = await syncVault({ signal: ac.signal, onProgress: (s) => s === "commit" && ac.abort() });
		expect(outcome).toEqual({ ok: false, step: "commit", failure: expect.objectContaining({ code: "cancelled" }) as unknown, report: { committed: null, pulled: 0, pushed: 0 } });
		expect([head(world.vault), head(world.vault, "origin/main")]).toEqual([before, known]);
		expect(git(world.vault, "status", "--porcelain")).toBe("?? Ideas.md\n");
	});
});
