/**
 * The version-control panel in Chromium with git: the page's child_process and fs/promises are
 * answered by the test server running the real git over the vault folder (support/git-bridge.ts),
 * as Obsidian desktop's Node would. The vault holds 10,000 untracked notes: what keeps the panel
 * from freezing (issue 17) is checked by what it does, not by the clock: the status is parsed in
 * slices with a turn for the page between them, and only the rows in view are drawn.
 * bench/scroll measures its longest main-thread task.
 */
import { STATUS_SLICE } from "../../src/vcs/status";
import { bulkVault, git } from "../support/git";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(180_000);

let host: Host;
/** The page with its scheduler.yield counted. */
type PageTurns = Window & { scheduler: { yield(): Promise<void> }; __turns: number };
const api = <T>(f: string): Promise<T> => host.page.evaluate<T>(`(async (h) => ${f})(window.__host)`);

beforeAll(async () => {
	host = await launchHost({ desktopBridge: true });
	bulkVault(host.vaultDir);
	// Counts the turns the plugin gives the page (its pause between slices is Chromium's scheduler.yield).
	await host.page.evaluate(() => {
		const w = window as unknown as PageTurns;
		const original = w.scheduler.yield.bind(w.scheduler);
		w.__turns = 0;
		w.scheduler.yield = () => {
			w.__turns++;
			return original();
		};
	});
	await api(`h.useDesktopBridge(${JSON.stringify(host.vaultDir)})`);
	await api("h.loadPlugin()");
});

afterAll(async () => {
	await host?.close();
});

const files = () => host.page.locator(".rb-vcs-file").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));

describe("version-control panel in Chromium (git through the desktop bridge)", () => {
	it("opens over a 10,000-file vault, parsing the status in slices and drawing only the rows in view, and scrolls to the last", async () => {
		await host.page.evaluate(() => ((window as unknown as PageTurns).__turns = 0));
		await api(`h.runCommand("open-version-control")`);
		const head = host.page.locator('.rb-vcs-group-head[data-group="untracked"]');
		await head.waitFor({ timeout: 60_000 });
		await expect(head.textContent()).resolves.toBe("Untracked (10000)");
		// 10,000 entries are parsed in slices of STATUS_SLICE, the page given a turn between two slices.
		const turns = await host.page.evaluate(() => (window as unknown as PageTurns).__turns);
		expect(turns).toBeGreaterThanOrEqual(Math.ceil(10_000 / STATUS_SLICE) - 1);
		const drawn = [await host.page.locator(".rb-vcs-file").count()];
		// Scrolled to the end in steps, as a wheel would: the last file is drawn, the first is gone.
		for (let step = 0; step < 10; step++) {
			await host.page.locator(".rb-vcs-changes").evaluate((el, f) => el.scrollTo(0, el.scrollHeight * f), (step + 1) / 10);
			await host.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
			drawn.push(await host.page.locator(".rb-vcs-file").count());
		}
		await host.page.locator('.rb-vcs-file[data-path="bulk/folder 99/note 99.md"]').waitFor();
		await expect(host.page.locator('.rb-vcs-file[data-path="bulk/folder 0/note 0.md"]').count()).resolves.toBe(0);
		// At every step only a window of the 10,000 rows is in the DOM.
		expect(Math.min(...drawn)).toBeGreaterThan(5);
		expect(Math.max(...drawn)).toBeLessThan(100);
	});

	it("commits everything on Mod+G in the focused panel, then lists a new edit", async () => {
		// The bulk notes go in from the terminal (the loaded CI machine is slow at adding 10,000 files).
		git(host.vaultDir, "add", "--all");
		git(host.vaultDir, "commit", "--quiet", "-m", "Bulk");
		await api(`h.writeFile("Before.md", "before\\n")`);
		await host.page.locator('.rb-vcs-file[data-path="Before.md"]').waitFor();
		// Mod+G acts in the focused panel (a click inside it focuses it, as in Obsidian).
		await host.page.locator(".rb-vcs-header .rb-vcs-upstream").click();
		await host.page.keyboard.press("Control+g");
		await host.page.locator(".rb-vcs-changes .rb-vcs-empty").waitFor();
		expect(git(host.vaultDir, "log", "-1", "--format=%s").trim()).toMatch(/: Before$/);
		await api(`h.writeFile("Ideas.md", "an idea\\n")`);
		await host.page.locator('.rb-vcs-file[data-path="Ideas.md"]').waitFor();
		await expect(files()).resolves.toEqual(["Ideas.md"]);
		await expect(api<string[]>("h.obsidianFired")).resolves.not.toContain("graph:open");
	});

	it("switches branches from the picker on Mod+B in the focused panel", async () => {
		git(host.vaultDir, "branch", "archive");
		await host.page.locator(".rb-vcs-header .rb-vcs-upstream").click();
		await host.page.keyboard.press("Control+b");
		await host.page.locator(".prompt .prompt-input").fill("arch");
		await host.page.locator(".prompt .suggestion-item", { hasText: "archive" }).first().click();
		await host.page.locator(".rb-vcs-branch", { hasText: "archive" }).waitFor();
		expect(git(host.vaultDir, "branch", "--show-current").trim()).toBe("archive");
		await expect(api<string[]>("h.obsidianFired")).resolves.not.toContain("editor:toggle-bold");
	});
});
