/** @jest-environment jsdom */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installDomHelpers, type ItemView, type WorkspaceLeaf } from "../../../e2e/host/obsidian-shim";
import { VcsView, type VcsViewHost } from "../../../../src/ui/vcs/vcs-view";
import { VCS_VIEW_TYPE } from "../../../../src/ui/vcs/vcs-view-type";
import type { Chord } from "../../../../src/settings/keymap";
import type { VcsSession } from "../../../../src/vcs";
import { createGitWorld, git, read, write, type GitWorld } from "../../../support/git";
import { sessionOver, until, workspaceApp } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(60_000);

installDomHelpers();

let world: GitWorld;
beforeEach(() => (world = createGitWorld()));
afterEach(() => {
	document.body.empty();
	world.cleanup();
});

const MOD_G: Chord = { modifiers: ["Mod"], key: "G" };
const MOD_B: Chord = { modifiers: ["Mod"], key: "B" };

/** The panel open in a leaf of the right sidebar over the session (the vault's by default), drawn after its first refresh. */
async function openPanel(session: VcsSession | null, chords: ReturnType<VcsViewHost["chords"]> = { commit: MOD_G, branch: MOD_B, commitWhileOpen: false }) {
	const views = new Map<string, (leaf: WorkspaceLeaf) => ItemView>();
	const ws = workspaceApp(world.vault, views);
	const opened: string[] = [];
	const host: VcsViewHost = { session, chords: () => chords, onKeymapChange: () => () => undefined, openFile: (p) => opened.push(p), copy: () => undefined };
	views.set(VCS_VIEW_TYPE, (leaf) => new VcsView(leaf as never, host) as unknown as ItemView);
	const leaf = ws.app.workspace.getRightLeaf(false) as unknown as WorkspaceLeaf;
	await leaf.setViewState({ type: VCS_VIEW_TYPE });
	return { ws, leaf, view: leaf.view as unknown as VcsView, opened };
}

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector);
const rows = () => [...document.querySelectorAll<HTMLElement>(".rb-vcs-row")].map((r) => (r.hasClass("rb-vcs-group-head") ? `# ${r.textContent}` : `${r.dataset.group} ${r.querySelector(".rb-vcs-letter")?.textContent} ${r.dataset.path}`));
const tool = (path: string, action: string) => $(`.rb-vcs-file[data-path="${path}"] button[data-action="${action}"]`)!;
const key = (k: string) => window.dispatchEvent(new KeyboardEvent("keydown", { key: k, ctrlKey: true, bubbles: true, cancelable: true }));
const lastSubject = () => git(world.vault, "log", "-1", "--format=%s").trim();

describe("VcsView", () => {
	it("says version control needs the desktop app where there is no session", async () => {
		await openPanel(null);
		expect($(".rb-vcs .rb-vcs-empty")?.textContent).toBe("Version control needs the desktop app: it runs the git installed on your computer.");
		expect($(".rb-vcs-commit-box")).toBeNull();
	});

	it("shows the branch, its upstream, the changes by group and the recent commits", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nedited\n");
		write(world.vault, "New.md", "new\n");
		await openPanel(sessionOver(world));
		expect($(".rb-vcs-branch")?.textContent).toBe("main");
		expect($(".rb-vcs-upstream")?.textContent).toBe("origin/main ↑0 ↓0");
		expect(rows()).toEqual(["# Changes (1)", "unstaged M Welcome.md", "# Untracked (1)", "untracked U New.md"]);
		expect([...document.querySelectorAll(".rb-vcs-commit-row")].map((r) => r.textContent)).toEqual([`${git(world.vault, "rev-parse", "--short", "HEAD").trim()}First note`]);
		await until(() => expect($<HTMLTextAreaElement>(".rb-vcs-message")?.placeholder).toBe("Commit message (empty: Notes 2026-11-25 10:00: Welcome, New)"));
	});

	it("stages and unstages a file, and opens it by its name", async () => {
		write(world.vault, "New.md", "new\n");
		const { opened } = await openPanel(sessionOver(world));
		tool("New.md", "plus").click();
		await until(() => expect(rows()).toEqual(["# Staged (1)", "staged A New.md"]));
		tool("New.md", "minus").click();
		await until(() => expect(rows()).toEqual(["# Untracked (1)", "untracked U New.md"]));
		$('.rb-vcs-file[data-path="New.md"] .rb-vcs-name')!.click();
		expect(opened).toEqual(["New.md"]);
	});

	it("commits everything with the box's message and empties the box", async () => {
		write(world.vault, "New.md", "new\n");
		await openPanel(sessionOver(world));
		$<HTMLTextAreaElement>(".rb-vcs-message")!.value = "A new note";
		$(".rb-vcs-commit-all")!.click();
		await until(() => expect($(".rb-vcs-changes .rb-vcs-empty")?.textContent).toBe("No changes."));
		expect(lastSubject()).toBe("A new note");
		expect($<HTMLTextAreaElement>(".rb-vcs-message")!.value).toBe("");
		expect($(".rb-vcs-commit-row span")?.textContent).toBe("A new note");
	});

	it("discards a file's changes after a safety point, and undoes that from the list", async () => {
		write(world.vault, "Welcome.md", "# Welcome\nedited\n");
		await openPanel(sessionOver(world));
		tool("Welcome.md", "undo-2").click();
		await until(() => expect($(".rb-vcs-points summary")?.textContent).toBe("Safety points (1)"));
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\n");
		expect(rows()).toEqual([]);
		$(".rb-vcs-point-row button")!.click();
		await until(() => expect(rows()).toEqual(["# Changes (1)", "unstaged M Welcome.md"]));
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nedited\n");
	});

	it("refreshes after a vault event, once the edits settle", async () => {
		const { ws } = await openPanel(sessionOver(world));
		expect(rows()).toEqual([]);
		write(world.vault, "Later.md", "later\n");
		ws.fire("create", { path: "Later.md" });
		await until(() => expect(rows()).toEqual(["# Untracked (1)", "untracked U Later.md"]));
	});

	it("takes its chords only while focused, or Mod+G while merely open with the notebook preset", async () => {
		write(world.vault, "New.md", "new\n");
		const focused = await openPanel(sessionOver(world));
		key("g");
		key("b");
		expect($(".prompt-input")).toBeNull();
		focused.ws.app.keymap.pushScope(focused.view.scope!);
		key("b");
		await until(() => expect($(".prompt-input")).not.toBeNull());
		focused.leaf.detach();
		document.body.empty();
		const open = await openPanel(sessionOver(world), { commit: MOD_G, branch: MOD_B, commitWhileOpen: true });
		key("g");
		await until(() => expect(lastSubject()).toBe("Notes 2026-11-25 10:00: New"));
		open.leaf.detach();
	});

	it("offers to merge a diverged remote, opens the conflict on a clash, and aborts the merge from its banner", async () => {
		world.otherCommits("Welcome.md", "# Welcome\nremote\n");
		write(world.vault, "Welcome.md", "# Welcome\nlocal\n");
		git(world.vault, "commit", "--quiet", "-am", "Local edit");
		await openPanel(sessionOver(world));
		$('.rb-vcs-tools button[data-action="refresh-ccw-dot"]')!.click();
		await until(() => expect($('.rb-vcs-problem[data-code="diverged"]')).not.toBeNull());
		const offered = [...document.querySelectorAll<HTMLElement>(".rb-vcs-problem button")];
		expect(offered.map((b) => b.textContent)).toEqual(["Rebase my commits onto the remote", "Merge the remote"]);
		offered[1].click();
		await until(() => expect($(".modal-title")?.textContent).toBe("Welcome.md: conflict 1 of 1"));
		expect($('.rb-vcs-state[data-operation="merge"] p')?.textContent).toBe("A merge is in progress: resolve the conflicts and continue, or abort it.");
		expect(rows()).toEqual(["# Conflicts (1)", "conflicted U Welcome.md"]);
		$('.rb-vcs-state button[data-action="abort"]')!.click();
		await until(() => expect($(".rb-vcs-state")).toBeNull());
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\nlocal\n");
	});

	it("offers to initialise a folder that is no repository, and then shows it", async () => {
		const session = sessionOver(world, world.dir);
		await openPanel(session);
		expect($('.rb-vcs-problem[data-code="not_repository"]')).not.toBeNull();
		[...document.querySelectorAll<HTMLElement>(".rb-vcs-problem button")].find((b) => b.textContent === "Initialise repository")!.click();
		await until(() => expect($(".rb-vcs-problem")).toBeNull());
		expect(existsSync(join(world.dir, ".gitignore"))).toBe(true);
		expect(rows()).toContain("untracked U .gitignore");
	});
});
