/**
 * The version-control panel in Chromium with git: the page's child_process and fs/promises are
 * answered by the test server running the real git over the vault folder (support/git-bridge.ts),
 * as Obsidian desktop's Node would. The vault holds 10,000 untracked notes: the panel's longest
 * main-thread task (PerformanceObserver "longtask", tasks over 50 ms) is printed and must stay
 * under 100 ms, issue 17's acceptance bound for a panel that never freezes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../support/git";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(180_000);

let host: Host;
const api = <T>(f: string): Promise<T> => host.page.evaluate<T>(`(async (h) => ${f})(window.__host)`);

beforeAll(async () => {
	host = await launchHost({ desktopBridge: true });
	git(host.vaultDir, "init", "--quiet", "--initial-branch=main");
	git(host.vaultDir, "config", "user.name", "Panel Tester");
	git(host.vaultDir, "config", "user.email", "panel@example.test");
	// No background gc after the 10,000-file commit: it would still be writing .git when the host removes the folder.
	git(host.vaultDir, "config", "gc.auto", "0");
	git(host.vaultDir, "config", "maintenance.auto", "false");
	git(host.vaultDir, "commit", "--quiet", "--allow-empty", "-m", "Empty vault");
	for (let d = 0; d < 100; d++) {
		mkdirSync(join(host.vaultDir, "bulk", `folder ${d}`), { recursive: true });
		for (let f = 0; f < 100; f++) writeFileSync(join(host.vaultDir, "bulk", `folder ${d}`, `note ${f}.md`), `${d}/${f}\n`);
	}
	await host.page.evaluate(() => {
		const w = window as unknown as { __longest: number };
		w.__longest = 0;
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
		}).observe({ type: "longtask", buffered: false });
	});
	await api(`h.useDesktopBridge(${JSON.stringify(host.vaultDir)})`);
	await api("h.loadPlugin()");
	// Measure the panel, not the plugin's own load.
	await host.page.evaluate(() => ((window as unknown as { __longest: number }).__longest = 0));
});

afterAll(async () => {
	await host?.close();
});

const files = () => host.page.locator(".rb-vcs-file").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));

describe("version-control panel in Chromium (git through the desktop bridge)", () => {
	it("opens over a 10,000-file vault drawing only the rows in view, scrolls to the last; no task reaches 100 ms", async () => {
		await api(`h.runCommand("open-version-control")`);
		const head = host.page.locator('.rb-vcs-group-head[data-group="untracked"]');
		await head.waitFor({ timeout: 60_000 });
		await expect(head.textContent()).resolves.toBe("Untracked (10000)");
		const drawn = await host.page.locator(".rb-vcs-file").count();
		expect(drawn).toBeGreaterThan(5);
		expect(drawn).toBeLessThan(100);
		// Scrolled to the end in steps, as a wheel would: the last file is drawn, the first is gone.
		for (let step = 0; step < 10; step++) {
			await host.page.locator(".rb-vcs-changes").evaluate((el, f) => el.scrollTo(0, el.scrollHeight * f), (step + 1) / 10);
			await host.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
		}
		await host.page.locator('.rb-vcs-file[data-path="bulk/folder 99/note 99.md"]').waitFor();
		await expect(host.page.locator('.rb-vcs-file[data-path="bulk/folder 0/note 0.md"]').count()).resolves.toBe(0);
		const longest = await host.page.evaluate(() => (window as unknown as { __longest: number }).__longest);
		console.log(`Chromium, panel over 10,000 untracked files (open and scroll): longest main-thread task ${longest.toFixed(0)} ms`);
		// The acceptance bound of issue 17 (a long-task count, not a wall-clock time: 0 means none over 50 ms).
		expect(longest).toBeLessThan(100);
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
