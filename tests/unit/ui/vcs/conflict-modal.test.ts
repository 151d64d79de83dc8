/** @jest-environment jsdom */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EditorView } from "@codemirror/view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { ConflictModal } from "../../../../src/ui/vcs/conflict-modal";
import type { VcsSession } from "../../../../src/vcs";
import { createGitWorld, git, read, write, type GitWorld } from "../../../support/git";
import { modalApp, sessionOver, until } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(60_000);

installDomHelpers();
const app = modalApp();

let world: GitWorld;
afterEach(() => world.cleanup());

/** Each note's text here and on the remote, both committed (the vault's commit after the remote's), and the remote fetched. */
function diverged(notes: Record<string, [local: string, remote: string]>): GitWorld {
	world = createGitWorld();
	for (const [path, [, remote]] of Object.entries(notes)) write(world.other, path, remote);
	git(world.other, "add", "--all");
	git(world.other, "commit", "--quiet", "-m", "Remote edits");
	git(world.other, "push", "--quiet");
	for (const [path, [local]] of Object.entries(notes)) write(world.vault, path, local);
	git(world.vault, "add", "--all");
	git(world.vault, "commit", "--quiet", "-m", "Local edits");
	git(world.vault, "fetch", "--quiet");
	return world;
}

/** A session stopped at the conflicts of `how` over the notes. */
async function stopped(notes: Record<string, [string, string]>, how: "merge" | "rebase" = "merge"): Promise<VcsSession> {
	const session = sessionOver(diverged(notes));
	await session.refresh();
	await session.integrate(how);
	return session;
}

function open(session: VcsSession, path: string | null = null) {
	document.body.empty();
	const modal = new ConflictModal(app, session, path);
	modal.open();
	return modal;
}

const title = () => document.querySelector(".modal-title")?.textContent;
const buttons = (selector: string) => [...document.querySelectorAll<HTMLElement>(`.modal ${selector} button`)].map((b) => b.textContent);
const click = (attr: string) => document.querySelector<HTMLElement>(`.modal button[${attr}]`)!.click();
const editors = () => [...document.querySelectorAll<HTMLElement>(".rb-vcs-conflict-panes .cm-editor")];
const pane = (i: 0 | 1) => editors()[i] && EditorView.findFromDOM(editors()[i])!.state.doc.toString();
const labels = () => [...document.querySelectorAll(".modal .rb-vcs-diff-labels span")].map((s) => s.textContent);
/** The conflict view is drawn: its title and both panes. */
const drawn = (expected: string) => until(() => expect([title(), editors().length]).toEqual([expected, 2]));

describe("ConflictModal", () => {
	it("shows the first conflict: the remote's side on the left, the file with git's markers on the right, editable", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"], "B.md": ["b mine\n", "b theirs\n"] });
		open(session);
		await drawn("A.md: conflict 1 of 2");
		expect(labels()).toEqual(["Remote", "In the vault (editable)"]);
		expect(pane(0)).toBe("theirs\n");
		expect(pane(1)).toMatch(/^<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> /);
		expect(editors()[1].querySelector(".cm-content")?.getAttribute("contenteditable")).toBe("true");
		expect(buttons(".rb-vcs-conflict-compare")).toEqual(["Yours", "Remote"]);
		expect(buttons(".rb-vcs-conflict-take")).toEqual(["Take Yours", "Take Remote", "Take both"]);
		expect(buttons(".rb-vcs-conflict-actions")).toEqual(["Mark resolved", "Continue", "Abort"]);
	});

	it("writes the side taken into the file and shows it on the right; compares with the other side on request", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"] });
		open(session);
		await drawn("A.md: conflict 1 of 1");
		click('data-resolve="ours"');
		await until(() => expect(pane(1)).toBe("mine\n"));
		expect(read(world.vault, "A.md")).toBe("mine\n");
		click('data-resolve="both"');
		await until(() => expect(pane(1)).toBe("mine\ntheirs\n"));
		expect(read(world.vault, "A.md")).toBe("mine\ntheirs\n");
		click('data-compare="ours"');
		await until(() => expect([labels()[0], pane(0)]).toEqual(["Yours", "mine\n"]));
		expect(document.querySelector('.modal button[data-compare="ours"]')?.hasClass("mod-cta")).toBe(true);
	});

	it("marks a file resolved with the text typed on the right, then opens the next conflict", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"], "B.md": ["b mine\n", "b theirs\n"] });
		open(session, "A.md");
		await drawn("A.md: conflict 1 of 2");
		const right = EditorView.findFromDOM(editors()[1])!;
		right.dispatch({ changes: { from: 0, to: right.state.doc.length, insert: "merged by hand\n" }, userEvent: "input" });
		click('data-action="mark-resolved"');
		await drawn("B.md: conflict 1 of 1");
		expect(read(world.vault, "A.md")).toBe("merged by hand\n");
		expect(git(world.vault, "diff", "--name-only", "--diff-filter=U").trim()).toBe("B.md");
	});

	it("once every file is resolved, Continue commits the merge and closes", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"] });
		open(session);
		await drawn("A.md: conflict 1 of 1");
		click('data-resolve="theirs"');
		await until(() => expect(pane(1)).toBe("theirs\n"));
		click('data-action="mark-resolved"');
		await until(() => expect(title()).toBe("All conflicts are resolved"));
		expect(editors()).toEqual([]);
		expect(buttons(".rb-vcs-conflict-actions")).toEqual(["Continue", "Abort"]);
		click('data-action="continue"');
		await until(() => expect(document.querySelector(".modal")).toBeNull());
		expect(git(world.vault, "log", "-1", "--format=%p").trim().split(" ")).toHaveLength(2);
		expect(read(world.vault, "A.md")).toBe("theirs\n");
	});

	it("Abort undoes the merge and closes", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"] });
		open(session);
		await drawn("A.md: conflict 1 of 1");
		click('data-action="abort"');
		await until(() => expect(document.querySelector(".modal")).toBeNull());
		expect(existsSync(join(world.vault, ".git", "MERGE_HEAD"))).toBe(false);
		expect(read(world.vault, "A.md")).toBe("mine\n");
	});

	it("in a rebase names git's ours the remote and theirs yours", async () => {
		const session = await stopped({ "A.md": ["mine\n", "theirs\n"] }, "rebase");
		open(session);
		await drawn("A.md: conflict 1 of 1");
		expect(labels()[0]).toBe("Yours");
		expect(pane(0)).toBe("mine\n");
		expect(buttons(".rb-vcs-conflict-take")).toEqual(["Take Remote", "Take Yours", "Take both"]);
	});

	it("says there are no conflicts when nothing is being merged, offering no action", async () => {
		const session = sessionOver((world = createGitWorld()));
		await session.refresh();
		open(session);
		await until(() => expect(title()).toBe("No conflicts."));
		expect(document.querySelectorAll(".modal button")).toHaveLength(0);
	});
});
