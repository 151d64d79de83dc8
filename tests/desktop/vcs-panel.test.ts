/**
 * The version-control panel in the desktop host: the production main.js with Node's real
 * child_process, so the panel drives the system git over a real vault folder (docs/vcs.md).
 * Keys go through the host's keymap as Obsidian's would: a focused view's scope first, then the
 * app scope, then Obsidian's own hotkeys (obsidianFired) for what the plugin leaves. By default
 * Mod+G and Mod+B act only in the focused panel; the Notebook preset widens Mod+G to "panel open".
 * Absence is never waited for with a sleep: the panel does one thing at a time, in order, so once
 * a later refresh has drawn, a commit the key had started would have ended before it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../support/git";
import type { HostApi } from "../e2e/support/host-api";
import { giveRangesEmptyBoxes, launchDesktopHost, lendHostWindow, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(60_000);

let host: DesktopHost;
let page: HostApi;
const VIEW = "runnable-blocks-vcs";

beforeAll(async () => {
	host = await launchDesktopHost();
	page = host.page;
	const vault = host.vaultDir;
	// The plugin's git runs with the process's environment, which has no identity here: the repo carries one.
	git(host.vaultDir, "init", "--quiet", "--initial-branch=main");
	git(vault, "config", "user.name", "Panel Tester");
	git(vault, "config", "user.email", "panel@example.test");
	git(vault, "commit", "--quiet", "--allow-empty", "-m", "Empty vault");
	// user.toml (the preset test writes it) is no note to commit.
	writeFileSync(join(vault, ".git", "info", "exclude"), ".obsidian/\n");
	page.useVaultFolder(vault);
	await host.loadPlugin();
});

afterAll(async () => {
	await host?.close();
});

const doc = () => host.document;
const press = (key: string, target: EventTarget = host.window) =>
	target.dispatchEvent(new host.window.KeyboardEvent("keydown", { key, ctrlKey: true, bubbles: true, cancelable: true }));
const commitCount = () => Number(git(host.vaultDir, "rev-list", "--count", "HEAD").trim());
const lastSubject = () => git(host.vaultDir, "log", "-1", "--format=%s").trim();
const currentBranch = () => git(host.vaultDir, "branch", "--show-current").trim();
const panelFiles = () => [...doc().querySelectorAll<HTMLElement>(".rb-vcs-file")].map((el) => el.dataset.path);
const branchLabel = () => doc().querySelector(".rb-vcs-branch")?.textContent ?? "";
const fired = (command: string) => page.obsidianFired.filter((c) => c === command).length;
/** A notice the plugin showed (notify() names the plugin first). */
const noticed = (text: string) => page.notices.includes(`Runnable Blocks: ${text}`);
/** Focus leaves the panel (its scope comes off the keymap, as when the user clicks a note). */
const unfocus = () => (doc().activeElement as HTMLElement | null)?.blur();

async function openPanel(): Promise<HTMLElement> {
	page.runCommand("open-version-control");
	return waitFor("the panel", () => doc().querySelector<HTMLElement>(".rb-vcs .rb-vcs-header .rb-vcs-branch")?.closest<HTMLElement>(".workspace-leaf-content") ?? undefined);
}

/** Types into the open picker and chooses the suggestion that starts with `choice`. */
async function choose(query: string, choice: string): Promise<void> {
	const input = await waitFor("the picker", () => doc().querySelector<HTMLInputElement>(".prompt .prompt-input") ?? undefined);
	input.value = query;
	input.dispatchEvent(new host.window.Event("input"));
	const item = await waitFor(`“${choice}” in the picker`, () => [...doc().querySelectorAll<HTMLElement>(".prompt .suggestion-item")].find((el) => el.textContent?.startsWith(choice)));
	item.click();
}

describe("version-control panel (real git)", () => {
	it("lists a change after an edit in the vault", async () => {
		await openPanel();
		expect(branchLabel()).toBe("main");
		await page.writeFile("Ideas.md", "an idea\n");
		await waitFor("Ideas.md in the panel", () => panelFiles().includes("Ideas.md"));
		expect(doc().querySelector('.rb-vcs-file[data-group="untracked"]')?.getAttribute("data-path")).toBe("Ideas.md");
	});

	it("leaves Mod+G to Obsidian's graph view while the panel is open but not focused", async () => {
		const before = commitCount();
		const graph = fired("graph:open");
		press("g");
		expect(fired("graph:open")).toBe(graph + 1);
		await page.writeFile("After.md", "after\n");
		await waitFor("After.md in the panel", () => panelFiles().includes("After.md"));
		expect(commitCount()).toBe(before);
	});

	it("commits everything on Mod+G in the focused panel, naming what git staged though the panel has not seen it", async () => {
		const leaf = await openPanel();
		const before = commitCount();
		const graph = fired("graph:open");
		leaf.focus();
		// Written behind the panel's back, just before the key: its list still lacks Quick.md.
		writeFileSync(join(host.vaultDir, "Quick.md"), "quick\n");
		press("g", leaf);
		await waitFor("the commit", () => commitCount() === before + 1);
		expect(lastSubject()).toMatch(/^Vault update \d{4}-\d\d-\d\d \d\d:\d\d: After, Ideas, Quick$/);
		await waitFor("an empty change list", () => panelFiles().length === 0);
		expect(fired("graph:open")).toBe(graph);
		unfocus();
	});

	it("leaves Mod+G to Obsidian once the panel is closed", async () => {
		await page.closeViews(VIEW);
		await page.writeFile("Later.md", "later\n");
		const before = commitCount();
		const graph = fired("graph:open");
		press("g");
		expect(fired("graph:open")).toBe(graph + 1);
		// Reopening refreshes after anything the key could have started: Later.md is still to commit.
		await openPanel();
		await waitFor("Later.md in the panel", () => panelFiles().includes("Later.md"));
		expect(commitCount()).toBe(before);
	});

	it("opens the branch picker on Mod+B in the focused panel; creating and switching branches updates the panel", async () => {
		const leaf = await openPanel();
		await waitFor("Later.md listed", () => panelFiles().includes("Later.md"));
		const bold = fired("editor:toggle-bold");
		leaf.focus();
		press("b", leaf);
		await waitFor("the picker", () => doc().querySelector(".prompt .prompt-input") ?? undefined);
		expect(fired("editor:toggle-bold")).toBe(bold);
		await choose("drafts", "Create branch “drafts”");
		await waitFor("the panel on drafts", () => branchLabel() === "drafts");
		expect(currentBranch()).toBe("drafts");

		leaf.focus();
		press("b", leaf);
		await choose("", "main");
		await waitFor("the panel on main", () => branchLabel() === "main");
		// The uncommitted note came along: switching never drops work.
		expect(panelFiles()).toContain("Later.md");
		expect(git(host.vaultDir, "status", "--porcelain").trim()).toBe("?? Later.md");
		unfocus();
	});

	it("offers each panel action in the palette, acting with the panel closed and saying how it went", async () => {
		expect(["commit-all-changes", "switch-branch", "create-branch"].map((id) => page.commandName(id))).toEqual(["Commit all changes", "Switch branch…", "Create branch…"]);
		await page.closeViews(VIEW);
		page.notices.splice(0);

		expect(page.runCommand("create-branch")).toBe(true);
		await waitFor("the new-branch prompt", () => doc().querySelector(".prompt .prompt-input[placeholder='Name of the new branch…']") ?? undefined);
		await choose("notes/palette", "Create branch “notes/palette”");
		await waitFor("the notice", () => noticed("On branch notes/palette"));
		expect(currentBranch()).toBe("notes/palette");

		expect(page.runCommand("switch-branch")).toBe(true);
		await choose("main", "main");
		await waitFor("the notice", () => noticed("On branch main"));
		expect(currentBranch()).toBe("main");

		const before = commitCount();
		expect(page.runCommand("commit-all-changes")).toBe(true);
		await waitFor("the commit", () => commitCount() === before + 1);
		expect(lastSubject()).toMatch(/: Later$/);
		const hash = git(host.vaultDir, "rev-parse", "--short=7", "HEAD").trim();
		await waitFor("the notice", () => noticed(`Committed ${hash}`));
		expect(doc().querySelector(".rb-vcs")).toBeNull();
	});
});

describe("with the Notebook keymap preset", () => {
	it("lists the graph view Mod+G would shadow, then commits on Mod+G while the panel is open, focus elsewhere", async () => {
		page.openSettings();
		const select = doc().querySelector<HTMLSelectElement>(".rb-keymap-preset select")!;
		select.value = "notebook";
		select.dispatchEvent(new host.window.Event("change"));
		const shadows = await waitFor("the preset's list", () => {
			const items = [...doc().querySelectorAll(".modal .rb-preset-shadow")].map((el) => el.textContent);
			return items.length ? items : undefined;
		});
		expect(shadows).toContain("Ctrl+G: Commit all changes in the version-control panel, whenever its panel is open, in place of Obsidian's “Open graph view”");
		[...doc().querySelectorAll<HTMLElement>(".modal button")].find((b) => b.textContent === "Apply")!.click();
		await waitFor("the Keymap page to show the wider reach", () => doc().querySelector('.rb-keymap-row[data-action="vcs.commit"] .rb-keymap-while-open') ?? undefined);

		await openPanel();
		await page.writeFile("Wide.md", "wide\n");
		await waitFor("Wide.md in the panel", () => panelFiles().includes("Wide.md"));
		unfocus();
		const before = commitCount();
		const graph = fired("graph:open");
		press("g");
		await waitFor("the commit", () => commitCount() === before + 1);
		expect(lastSubject()).toMatch(/: Wide$/);
		expect(fired("graph:open")).toBe(graph);
	});
});

describe("Discard changes from the palette", () => {
	const kept = () => readFileSync(join(host.vaultDir, "Kept.md"), "utf8");
	// The note opens in the host's editor: CodeMirror, which reads the DOM from globals and measures text through ranges.
	beforeAll(() => {
		lendHostWindow(host);
		giveRangesEmptyBoxes(host);
	});

	it("puts the open note back as the index holds it, after a safety point: Undo last discard brings the edit back", async () => {
		writeFileSync(join(host.vaultDir, "Kept.md"), "kept\n");
		git(host.vaultDir, "add", "Kept.md");
		git(host.vaultDir, "commit", "--quiet", "-m", "Kept");
		writeFileSync(join(host.vaultDir, "Kept.md"), "kept\nand a change\n");
		page.openEditor("kept\nand a change\n", "Kept.md");
		expect(page.commandName("discard-note-changes")).toBe("Discard changes to this note");
		expect(page.runCommand("discard-note-changes")).toBe(true);
		await waitFor("the notice", () => noticed("Discarded the changes to Kept.md. Undo last discard brings them back."), 30_000);
		expect(kept()).toBe("kept\n");
		page.runCommand("undo-last-vcs-change");
		await waitFor("the undo's notice", () => noticed("Undone: back to before the discard"), 30_000);
		expect(kept()).toBe("kept\nand a change\n");
	});

	it("says why when the open note has nothing to discard", async () => {
		git(host.vaultDir, "add", "Kept.md");
		page.runCommand("discard-note-changes");
		await waitFor("the reason", () => noticed("The changes to Kept.md are staged: unstage them first to discard them."), 30_000);
		expect(kept()).toBe("kept\nand a change\n");
	});
});
