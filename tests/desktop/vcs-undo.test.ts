/**
 * Git you can undo in the desktop host (docs/vcs.md): the production main.js with Node's real
 * child_process over a vault with a bare remote. A sync that finds the sides diverged offers the
 * merge; its conflict opens in the merge view, is resolved there, the merge is continued, and
 * "Undo last merge" puts the vault back as it was before it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, write } from "../support/git";
import type { HostApi } from "../e2e/support/host-api";
import { giveRangesEmptyBoxes, launchDesktopHost, lendHostWindow, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(180_000);
/** Each step runs git several times (a safety point first): on a busy two-core machine that is seconds. */
const GIT_WAIT = 40_000;

let host: DesktopHost;
let page: HostApi;
let elsewhere: string;
let localTip: string;

beforeAll(async () => {
	host = await launchDesktopHost();
	page = host.page;
	const vault = host.vaultDir;
	elsewhere = mkdtempSync(join(tmpdir(), "rb-vcs-undo-"));
	const remote = join(elsewhere, "remote.git");
	const other = join(elsewhere, "other");
	git(elsewhere, "init", "--quiet", "--bare", "--initial-branch=main", remote);
	git(vault, "init", "--quiet", "--initial-branch=main");
	// The plugin's git runs with the process's environment, which has no identity here: the repo carries one.
	git(vault, "config", "user.name", "Panel Tester");
	git(vault, "config", "user.email", "panel@example.test");
	writeFileSync(join(vault, ".git", "info", "exclude"), ".obsidian/\n");
	write(vault, "Plan.md", "# Plan\nfirst line\n");
	git(vault, "add", "--all");
	git(vault, "commit", "--quiet", "-m", "Plan");
	git(vault, "remote", "add", "origin", remote);
	git(vault, "push", "--quiet", "-u", "origin", "main");
	git(elsewhere, "clone", "--quiet", remote, other);
	write(other, "Plan.md", "# Plan\nremote line\n");
	git(other, "commit", "--quiet", "-am", "Remote plan");
	git(other, "push", "--quiet");
	write(vault, "Plan.md", "# Plan\nlocal line\n");
	git(vault, "commit", "--quiet", "-am", "Local plan");
	localTip = git(vault, "rev-parse", "HEAD").trim();
	page.useVaultFolder(vault);
	await host.loadPlugin();
	// The merge view is CodeMirror, which reads the DOM from globals and measures text through ranges.
	lendHostWindow(host);
	giveRangesEmptyBoxes(host);
});

afterAll(async () => {
	await host?.close();
	if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

const doc = () => host.document;
const button = (selector: string, text?: string) => [...doc().querySelectorAll<HTMLElement>(selector)].find((b) => text === undefined || b.textContent === text);
const plan = () => readFileSync(join(host.vaultDir, "Plan.md"), "utf8");
const parents = () => git(host.vaultDir, "rev-list", "--parents", "-1", "HEAD").trim().split(" ").length - 1;

describe("a conflict resolved in the merge view, then the merge undone", () => {
	it("names its palette commands", () => {
		expect(["undo-last-vcs-change", "pull-vault-repository", "merge-remote", "rebase-onto-remote", "resolve-conflicts"].map((id) => page.commandName(id))).toEqual([
			"Undo last version-control change",
			"Pull (fast-forward only)",
			"Merge the remote",
			"Rebase my commits onto the remote",
			"Resolve conflicts",
		]);
	});

	it("sync says diverged and offers the merge; the conflict opens in the merge view; theirs, mark resolved, continue", async () => {
		page.runCommand("open-version-control");
		const sync = await waitFor("the sync button", () => button('.rb-vcs-tools button[data-action="refresh-ccw-dot"]'), GIT_WAIT);
		sync.click();
		await waitFor("the diverged state", () => doc().querySelector('.rb-vcs-problem[data-code="diverged"]') ?? undefined, GIT_WAIT);
		(await waitFor("Merge the remote", () => button(".rb-vcs-problem button", "Merge the remote"), GIT_WAIT)).click();

		const modal = await waitFor("the conflict view", () => doc().querySelector<HTMLElement>(".rb-vcs-conflict-modal .rb-vcs-conflict-panes .cm-mergeView") ?? undefined, GIT_WAIT);
		expect(modal.querySelectorAll(".cm-editor")).toHaveLength(2);
		expect(plan()).toContain("<<<<<<<");
		(await waitFor("Take Remote", () => button('.rb-vcs-conflict-modal [data-resolve="theirs"]'), GIT_WAIT)).click();
		await waitFor("the remote's text in the file", () => plan() === "# Plan\nremote line\n" || undefined, GIT_WAIT);
		button('.rb-vcs-conflict-modal [data-action="mark-resolved"]')!.click();
		await waitFor("nothing left to resolve", () => (doc().querySelector(".rb-vcs-conflict-modal .modal-title")?.textContent === "All conflicts are resolved" ? true : undefined), GIT_WAIT);
		button('.rb-vcs-conflict-modal [data-action="continue"]')!.click();
		await waitFor("the merge commit", () => parents() === 2 || undefined, GIT_WAIT);
		expect(git(host.vaultDir, "status", "--porcelain")).toBe("");
	});

	it("Undo last merge puts HEAD and the note back as before the merge", async () => {
		const undo = await waitFor("Undo last merge", () => doc().querySelector<HTMLElement>('.rb-vcs-tools button[aria-label="Undo last merge"]') ?? undefined, GIT_WAIT);
		undo.click();
		// HEAD moves first, then the files: wait for the undo to end (the panel no longer busy).
		await waitFor("HEAD back on the local commit", () => git(host.vaultDir, "rev-parse", "HEAD").trim() === localTip || undefined, GIT_WAIT);
		await waitFor("the undo to end", () => (doc().querySelector(".rb-vcs-busy") === null && !button('.rb-vcs-tools button[aria-label="Undo last merge"]') ? true : undefined), GIT_WAIT);
		expect(plan()).toBe("# Plan\nlocal line\n");
		expect(git(host.vaultDir, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
		expect(git(host.vaultDir, "status", "--porcelain")).toBe("");
		expect(host.errors).toEqual([]);
	});
});
