import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createProcessProbe, defaultIgnoreLines, GitRepository, noteHistory, versionText, VcsSession, type VcsState } from "../../../src/vcs";
import { createGitWorld, git, gitStatus, nodeExecFile, read, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });
const ready = (s: VcsState) => {
	if (s.kind !== "ready") throw new Error(`not ready: ${JSON.stringify(s)}`);
	return s;
};
const commit = (message: string) => {
	git(world.vault, "add", "--all");
	git(world.vault, "commit", "--quiet", "-m", message);
};

describe("a note's history", () => {
	it("follows a rename, reads any version, and restores one as a new change that can be undone", async () => {
		write(world.vault, "Drafts/Plan.md", "v1\n");
		commit("Plan v1");
		write(world.vault, "Drafts/Plan.md", "v1\nv2\n");
		commit("Plan v2");
		mkdirSync(join(world.vault, "Projects"));
		git(world.vault, "mv", "Drafts/Plan.md", "Projects/Plan 2027.md");
		commit("Move the plan");
		write(world.vault, "Projects/Plan 2027.md", "v1\nv2\nv3\n");
		commit("Plan v3");
		write(world.vault, "Other.md", "unrelated\n");
		commit("Other note");

		const repo = await world.open();
		const history = await noteHistory(repo, "Projects/Plan 2027.md");
		if (!history.ok) throw new Error(history.failure.detail);
		expect(history.value.map((v) => [v.commit.subject, v.path, v.renamedFrom])).toEqual([
			["Plan v3", "Projects/Plan 2027.md", null],
			["Move the plan", "Projects/Plan 2027.md", "Drafts/Plan.md"],
			["Plan v2", "Drafts/Plan.md", null],
			["Plan v1", "Drafts/Plan.md", null],
		]);
		expect(await versionText(repo, history.value[3])).toEqual({ ok: true, value: "v1\n" });

		const head = git(world.vault, "rev-parse", "HEAD");
		const session = new VcsSession({
			open: () => GitRepository.open(world.config(), vcsFs),
			init: () => GitRepository.init(world.config(), vcsFs, defaultIgnoreLines(".obsidian", "h.sqlite")),
			probe,
			template: () => "{notes}",
			now: () => new Date(Date.UTC(2026, 10, 25)),
		});
		await session.restoreVersion(history.value[3], "Projects/Plan 2027.md");
		expect(ready(session.state).problem).toBeNull();
		expect(read(world.vault, "Projects/Plan 2027.md")).toBe("v1\n");
		// A new change: HEAD did not move, the note shows as modified.
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
		expect(git(world.vault, "status", "--porcelain")).toBe(" M \"Projects/Plan 2027.md\"\n");
		expect(ready(session.state).safetyPoints[0].action).toBe("restore");
		await session.undo(async () => false);
		expect(read(world.vault, "Projects/Plan 2027.md")).toBe("v1\nv2\nv3\n");
		expect(gitStatus(world.vault, "fsck", "--strict", "--no-progress").code).toBe(0);
	});
});
