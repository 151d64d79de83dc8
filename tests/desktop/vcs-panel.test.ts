/**
 * The version-control panel in the desktop host: the production main.js with Node's real
 * child_process, so the panel drives the system git over a real vault folder (docs/vcs.md).
 * Keys go through the host's keymap as Obsidian's would: Mod+G reaches the app scope, Mod+B the
 * focused view's scope, and what the plugin leaves goes to Obsidian's own hotkeys (obsidianFired).
 */
import { git } from "../support/git";
import type { HostApi } from "../e2e/support/host-api";
import { launchDesktopHost, waitFor, type DesktopHost } from "./support/desktop-host";

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
const panelFiles = () => [...doc().querySelectorAll<HTMLElement>(".rb-vcs-file")].map((el) => el.dataset.path);
const branchLabel = () => doc().querySelector(".rb-vcs-branch")?.textContent ?? "";

async function openPanel(): Promise<HTMLElement> {
	page.runCommand("open-version-control");
	return waitFor("the panel", () => doc().querySelector<HTMLElement>(".rb-vcs .rb-vcs-header .rb-vcs-branch")?.closest<HTMLElement>(".workspace-leaf-content") ?? undefined);
}

describe("version-control panel (real git)", () => {
	it("lists a change after an edit in the vault", async () => {
		await openPanel();
		expect(branchLabel()).toBe("main");
		await page.writeFile("Ideas.md", "an idea\n");
		await waitFor("Ideas.md in the panel", () => panelFiles().includes("Ideas.md"));
		expect(doc().querySelector('.rb-vcs-file[data-group="untracked"]')?.getAttribute("data-path")).toBe("Ideas.md");
	});

	it("commits everything on Mod+G while the panel is open", async () => {
		const before = commitCount();
		press("g");
		await waitFor("the commit", () => commitCount() === before + 1);
		expect(git(host.vaultDir, "log", "-1", "--format=%s").trim()).toMatch(/^Vault update \d{4}-\d\d-\d\d \d\d:\d\d: Ideas$/);
		await waitFor("an empty change list", () => panelFiles().length === 0);
		expect(page.obsidianFired).not.toContain("graph:open");
	});

	it("leaves Mod+G to Obsidian once the panel is closed", async () => {
		await page.closeViews(VIEW);
		await page.writeFile("Later.md", "later\n");
		const before = commitCount();
		press("g");
		expect(page.obsidianFired).toContain("graph:open");
		await new Promise((r) => setTimeout(r, 300));
		expect(commitCount()).toBe(before);
	});

	it("opens the branch picker on Mod+B in the focused panel; creating and switching branches updates the panel", async () => {
		const leaf = await openPanel();
		await waitFor("Later.md listed", () => panelFiles().includes("Later.md"));
		const bold = page.obsidianFired.filter((c) => c === "editor:toggle-bold").length;
		leaf.focus();
		press("b", leaf);
		const input = await waitFor("the picker", () => doc().querySelector<HTMLInputElement>(".prompt .prompt-input") ?? undefined);
		expect(page.obsidianFired.filter((c) => c === "editor:toggle-bold")).toHaveLength(bold);
		input.value = "drafts";
		input.dispatchEvent(new host.window.Event("input"));
		const create = await waitFor("the create choice", () => [...doc().querySelectorAll<HTMLElement>(".prompt .suggestion-item")].find((el) => el.textContent?.includes("drafts")));
		create.click();
		await waitFor("the panel on drafts", () => branchLabel() === "drafts");
		expect(git(host.vaultDir, "branch", "--show-current").trim()).toBe("drafts");

		leaf.focus();
		press("b", leaf);
		const main = await waitFor("main in the picker", () => [...doc().querySelectorAll<HTMLElement>(".prompt .suggestion-item")].find((el) => el.textContent?.startsWith("main")));
		main.click();
		await waitFor("the panel on main", () => branchLabel() === "main");
		// The uncommitted note came along: switching never drops work.
		expect(panelFiles()).toContain("Later.md");
		expect(git(host.vaultDir, "status", "--porcelain").trim()).toBe("?? Later.md");
	});
});
