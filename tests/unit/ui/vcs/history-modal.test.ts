/** @jest-environment jsdom */
import { renameSync } from "node:fs";
import { join } from "node:path";
import { installDomHelpers, notices } from "../../../e2e/host/obsidian-shim";
import { HistoryModal } from "../../../../src/ui/vcs/history-modal";
import type { VcsSession } from "../../../../src/vcs";
import { createGitWorld, git, read, write, type GitWorld } from "../../../support/git";
import { modalApp, sessionOver, until } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(60_000);

installDomHelpers();
const app = modalApp();

let world: GitWorld;
let session: VcsSession;
/** Short hashes of the note's commits, oldest first: written as Draft.md, edited, renamed to Plan.md with an edit. */
let hashes: string[];

function commit(message: string) {
	git(world.vault, "add", "--all");
	git(world.vault, "commit", "--quiet", "-m", message);
	return git(world.vault, "rev-parse", "--short", "HEAD").trim();
}

beforeAll(async () => {
	world = createGitWorld();
	write(world.vault, "Draft.md", "first\n");
	const first = commit("Start the plan");
	write(world.vault, "Draft.md", "first\nsecond\n");
	const second = commit("Add a step");
	git(world.vault, "mv", "Draft.md", "Plan.md");
	write(world.vault, "Plan.md", "first\nsecond\nthird\n");
	const third = commit("Rename the plan");
	hashes = [first, second, third];
	session = sessionOver(world);
	await session.refresh();
});
afterAll(() => world.cleanup());

const rows = () => [...document.querySelectorAll<HTMLElement>(".rb-vcs-history-row")];
const title = () => document.querySelector(".modal-title")?.textContent;
const paneLines = (i: number) => [...document.querySelectorAll(".rb-vcs-conflict-panes .cm-content")[i].querySelectorAll(".cm-line")].map((l) => l.textContent);
const button = (text: string) => [...document.querySelectorAll<HTMLElement>(".modal button")].find((b) => b.textContent === text)!;

function open(path: string) {
	document.body.empty();
	const modal = new HistoryModal(app, session, path);
	modal.open();
	return modal;
}

describe("HistoryModal", () => {
	it("lists the note's commits newest first, following its rename", async () => {
		open("Plan.md");
		expect(title()).toBe("History of Plan.md");
		await until(() => expect(rows()).toHaveLength(3));
		expect(rows().map((r) => r.querySelector("code")?.textContent)).toEqual([...hashes].reverse());
		expect(rows().map((r) => r.textContent)).toEqual([
			expect.stringMatching(/· Rename the plan \(was Draft\.md\)$/),
			expect.stringMatching(/· Add a step$/),
			expect.stringMatching(/· Start the plan$/),
		]);
	});

	it("says so when no commit touches the note", async () => {
		write(world.vault, "Loose.md", "never committed\n");
		open("Loose.md");
		await until(() => expect(document.querySelector(".rb-vcs-empty")?.textContent).toBe("No commit touches this note."));
		expect(rows()).toEqual([]);
	});

	it("opens a version against the note as it is now, and goes back to the list", async () => {
		open("Plan.md");
		await until(() => expect(rows()).toHaveLength(3));
		rows()[2].click();
		await until(() => expect(title()).toBe(`Plan.md: ${hashes[0]} ↔ now`));
		await until(() => expect(paneLines(0)).toEqual(["first", ""]));
		expect(paneLines(1)).toEqual(["first", "second", "third", ""]);
		button("←").click();
		await until(() => expect(rows()).toHaveLength(3));
		expect(title()).toBe("History of Plan.md");
	});

	it("restores a version as a new change to the note, HEAD untouched, and says so", async () => {
		const head = git(world.vault, "rev-parse", "HEAD");
		open("Plan.md");
		await until(() => expect(rows()).toHaveLength(3));
		rows()[1].click();
		await until(() => expect(button("Restore this version")).toBeDefined());
		button("Restore this version").click();
		await until(() => expect(document.querySelector(".modal")).toBeNull());
		expect(read(world.vault, "Plan.md")).toBe("first\nsecond\n");
		expect(git(world.vault, "rev-parse", "HEAD")).toBe(head);
		expect(notices.at(-1)).toBe(`Runnable Blocks: Restored Plan.md as of ${hashes[1]}: a new change, not yet committed.`);
	});

	it("shows git's failure when the history cannot be read", async () => {
		const away = join(world.dir, "git-away");
		renameSync(join(world.vault, ".git"), away);
		try {
			open("Plan.md");
			await until(() => expect(document.querySelector(".rb-vcs-problem")?.textContent).toMatch(/^This vault is not a git repository: .*not a git repository/i));
			expect(rows()).toEqual([]);
		} finally {
			renameSync(away, join(world.vault, ".git"));
		}
	});
});
