import { existsSync } from "node:fs";
import { join } from "node:path";
import { createProcessProbe, defaultIgnoreLines, GitRepository, VcsSession, type VcsState } from "../../../src/vcs";
import { createGitWorld, fileHashes, git, gitStatus, nodeExecFile, read, vcsFs, write, type GitWorld } from "../../support/git";

jest.setTimeout(120_000);

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => world.cleanup());

const probe = createProcessProbe({ platform: "unknown", readdir: async () => [], readlink: async () => "", readFile: async () => "", execFile: nodeExecFile });
const session = () =>
	new VcsSession({
		open: () => GitRepository.open(world.config(), vcsFs),
		init: () => GitRepository.init(world.config(), vcsFs, defaultIgnoreLines(".obsidian", "h.sqlite")),
		probe,
		template: () => "Notes {date}: {notes}",
		now: () => new Date(Date.UTC(2026, 10, 25, 10)),
	});
const ready = (s: VcsState) => {
	if (s.kind !== "ready") throw new Error(`not ready: ${JSON.stringify(s)}`);
	return s;
};
const fsckClean = (cwd: string) => gitStatus(cwd, "fsck", "--strict", "--no-progress").code;

const fingerprint = (root: string) => ({ head: git(root, "rev-parse", "HEAD"), ref: git(root, "symbolic-ref", "HEAD"), index: git(root, "ls-files", "-s", "-z"), files: fileHashes(root) });

/** Both sides change the same line of A.md and B.md: the vault one commit ahead, the remote one. */
function conflictingSides(): void {
	write(world.vault, "A.md", "a1\na2\na3\n");
	write(world.vault, "B.md", "b1\nb2\nb3\n");
	git(world.vault, "add", "--all");
	git(world.vault, "commit", "--quiet", "-m", "A and B");
	git(world.vault, "push", "--quiet");
	world.otherCommits("A.md", "a1\nremote a2\na3\n", "Remote A");
	write(world.other, "B.md", "b1\nremote b2\nb3\n");
	git(world.other, "commit", "--quiet", "-am", "Remote B");
	git(world.other, "push", "--quiet");
	write(world.vault, "A.md", "a1\nlocal a2\na3\n");
	write(world.vault, "B.md", "b1\nlocal b2\nb3\n");
	git(world.vault, "commit", "--quiet", "-am", "Local A and B");
	git(world.vault, "fetch", "--quiet");
}

describe("merge the remote", () => {
	it("stops at conflicts in two files, resolved with ours, theirs, both and edit, then continues; undo goes back to before the merge", async () => {
		conflictingSides();
		const before = fingerprint(world.vault);
		const s = session();
		await s.integrate("merge");
		expect(ready(s.state).snapshot.operation).toBe("merge");
		expect(ready(s.state).conflicts).toEqual(["A.md", "B.md"]);

		await s.resolve("A.md", { kind: "ours" });
		expect(read(world.vault, "A.md")).toBe("a1\nlocal a2\na3\n");
		await s.resolve("A.md", { kind: "theirs" });
		expect(read(world.vault, "A.md")).toBe("a1\nremote a2\na3\n");
		await s.resolve("A.md", { kind: "both" });
		expect(read(world.vault, "A.md")).toBe("a1\nlocal a2\nremote a2\na3\n");
		await s.markResolved("A.md");
		expect(ready(s.state).conflicts).toEqual(["B.md"]);

		// Continue refuses while a file is unresolved, and says which.
		await s.continueIntegration();
		expect(ready(s.state).problem).toMatchObject({ code: "conflicts", detail: "B.md" });

		await s.resolve("B.md", { kind: "edit", text: "b1\nboth sides agree\nb3\n" });
		await s.markResolved("B.md");
		await s.continueIntegration();
		const done = ready(s.state);
		expect(done.problem).toBeNull();
		expect(done.snapshot.operation).toBeNull();
		expect(git(world.vault, "rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
		expect(git(world.vault, "show", "HEAD:A.md")).toBe("a1\nlocal a2\nremote a2\na3\n");
		expect(git(world.vault, "show", "HEAD:B.md")).toBe("b1\nboth sides agree\nb3\n");
		expect(git(world.vault, "status", "--porcelain")).toBe("");
		expect(fsckClean(world.vault)).toBe(0);

		// Continue was part of the merge: "Undo last merge" returns to before it, with nothing to ask.
		expect(done.safetyPoints[0].action).toBe("merge");
		await s.undo(async () => {
			throw new Error("nothing changed since the merge ended");
		});
		expect(fingerprint(world.vault)).toEqual(before);
		expect(fsckClean(world.vault)).toBe(0);
	});

	it("abort returns byte for byte to the safety point, an untracked note and an unstaged edit included", async () => {
		conflictingSides();
		write(world.vault, "Untracked.md", "mine\n");
		write(world.vault, "Welcome.md", "# Welcome\nunstaged\n");
		const before = fingerprint(world.vault);
		const s = session();
		await s.integrate("merge");
		expect(ready(s.state).conflicts).toEqual(["A.md", "B.md"]);
		await s.resolve("A.md", { kind: "theirs" });
		await s.markResolved("A.md");
		// A note written while resolving: git's own abort keeps it, the safety point did not have it.
		write(world.vault, "During.md", "written during the merge\n");
		await s.abortIntegration();
		expect(ready(s.state).problem).toBeNull();
		expect(ready(s.state).snapshot.operation).toBeNull();
		expect(fingerprint(world.vault)).toEqual(before);
		// Nothing is lost: the abort's own safety point holds the note.
		const abortPoint = ready(s.state).safetyPoints.find((p) => p.action === "abort");
		expect(git(world.vault, "show", `${abortPoint?.before.worktreeTree}:During.md`)).toBe("written during the merge\n");
		expect(existsSync(join(world.vault, ".git/MERGE_HEAD"))).toBe(false);
		expect(fsckClean(world.vault)).toBe(0);
	});

	it("recognises a merge another tool left in progress and aborts it to where git started", async () => {
		conflictingSides();
		const head = git(world.vault, "rev-parse", "HEAD");
		gitStatus(world.vault, "merge", "--no-edit", "@{upstream}");
		const s = session();
		await s.refresh();
		expect(ready(s.state).snapshot.operation).toBe("merge");
		expect(ready(s.state).conflicts).toEqual(["A.md", "B.md"]);
		await s.abortIntegration();
		expect(ready(s.state).snapshot.operation).toBeNull();
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
		expect(read(world.vault, "A.md")).toBe("a1\nlocal a2\na3\n");
	});
});

describe("rebase my commits onto the remote", () => {
	it("stops at a conflict in the second of three commits, then goes on to the end", async () => {
		world.otherCommits("Shared.md", "one\ntwo\nthree\n", "Remote shared");
		git(world.vault, "pull", "--quiet", "--ff-only");
		world.otherCommits("Shared.md", "one\nremote two\nthree\n", "Remote edits line two");
		write(world.vault, "First.md", "first\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Local 1");
		write(world.vault, "Shared.md", "one\nlocal two\nthree\n");
		git(world.vault, "commit", "--quiet", "-am", "Local 2 conflicts");
		write(world.vault, "Third.md", "third\n");
		git(world.vault, "add", "--all");
		git(world.vault, "commit", "--quiet", "-m", "Local 3");
		git(world.vault, "fetch", "--quiet");
		const s = session();
		await s.integrate("rebase");
		expect(ready(s.state).snapshot.operation).toBe("rebase");
		expect(ready(s.state).conflicts).toEqual(["Shared.md"]);
		// The first commit is already replayed on the remote's; the third is not yet.
		expect(existsSync(join(world.vault, "First.md"))).toBe(true);
		expect(existsSync(join(world.vault, "Third.md"))).toBe(false);
		await s.resolve("Shared.md", { kind: "edit", text: "one\nlocal and remote two\nthree\n" });
		await s.markResolved("Shared.md");
		await s.continueIntegration();
		expect(ready(s.state).problem).toBeNull();
		expect(ready(s.state).snapshot.operation).toBeNull();
		expect(git(world.vault, "log", "--format=%s", "-4").trim().split("\n")).toEqual(["Local 3", "Local 2 conflicts", "Local 1", "Remote edits line two"]);
		expect(read(world.vault, "Shared.md")).toBe("one\nlocal and remote two\nthree\n");
		expect(git(world.vault, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
		expect(fsckClean(world.vault)).toBe(0);
	});

	it("abort after a conflict returns byte for byte to the safety point", async () => {
		conflictingSides();
		write(world.vault, "Untracked.md", "mine\n");
		const before = fingerprint(world.vault);
		const s = session();
		await s.integrate("rebase");
		expect(ready(s.state).snapshot.operation).toBe("rebase");
		await s.resolve("A.md", { kind: "ours" });
		await s.abortIntegration();
		expect(ready(s.state).problem).toBeNull();
		expect(fingerprint(world.vault)).toEqual(before);
		expect(fsckClean(world.vault)).toBe(0);
	});
});
