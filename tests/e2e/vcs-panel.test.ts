/**
 * The version-control panel in Chromium, where the host is not the desktop app (no Node): the
 * panel opens and says it needs the desktop app, its chords stay Obsidian's and its palette
 * commands are disabled. The panel with
 * real git is specified in tests/desktop/vcs-panel.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./support/eventually";
import { launchHost, USER_TOML, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
type Api = { loadPlugin(): Promise<string[]>; runCommand(id: string): boolean; commandName(id: string): string | null; obsidianFired: string[] };
const api = <T>(f: (h: Api) => T | Promise<T>): Promise<T> => host.page.evaluate<T>(`(${f.toString()})(window.__host)`);

beforeAll(async () => {
	host = await launchHost();
	await api((h) => h.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

describe("version-control panel without the desktop app", () => {
	it("opens in the right sidebar and says it needs the desktop app", async () => {
		await api((h) => h.runCommand("open-version-control"));
		await host.page.locator(".rb-vcs .rb-vcs-empty").waitFor();
		await expect(host.page.locator(".rb-vcs .rb-vcs-empty").textContent()).resolves.toBe("Version control needs the desktop app: it runs the git installed on your computer.");
		await expect(host.page.locator("#sidebar .rb-vcs").count()).resolves.toBe(1);
	});

	it("registers no Mod+G there: the key reaches Obsidian's graph view", async () => {
		await host.page.keyboard.press("Control+g");
		await expect(api((h) => h.obsidianFired)).resolves.toContain("graph:open");
	});

	it("offers the panel's actions in the palette, and disables them: there is no repository to act on", async () => {
		const palette = await api((h) => ["commit-all-changes", "switch-branch", "create-branch"].map((id) => ({ name: h.commandName(id), ran: h.runCommand(id) })));
		expect(palette).toEqual([
			{ name: "Commit all changes", ran: false },
			{ name: "Switch branch…", ran: false },
			{ name: "Create branch…", ran: false },
		]);
	});

	it("takes the commit template on the settings page, refusing an unknown placeholder", async () => {
		const userToml = () => readFileSync(join(host.vaultDir, USER_TOML), "utf8");
		await host.api((h) => h.openSettings());
		const field = host.page.locator(".rb-setting-commit-template");
		await field.fill("Notes {dat}");
		await field.dispatchEvent("change");
		await eventually(async () => expect(await host.api((h) => h.notices.join("\n"))).toContain("Commit message template: unknown placeholder {dat} (known: {date}, {notes}, {count})"));
		await expect(field.inputValue()).resolves.toBe("");
		await field.fill("Notes {date}: {notes}");
		await field.dispatchEvent("change");
		await eventually(() => expect(userToml()).toMatch(/\[vcs\]\s*commit_template = "Notes \{date\}: \{notes\}"/));
	});
});
