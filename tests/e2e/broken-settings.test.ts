import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(60_000);

type HostApi = { loadPlugin(): Promise<string[]>; openEditor(m: string): void; writeFile(p: string, t: string): Promise<void>; runCommand(id: string): boolean; notices: string[] };
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";
const BROKEN = '# mine\n[general]\ntimeout = 5000\n[keymap\n"block.run" = "Alt+R"\n';
let host: Host;
let processors: string[];

beforeAll(async () => {
	host = await launchHost();
	await host.page.evaluate(([p, t]) => (window as unknown as { __host: HostApi }).__host.writeFile(p, t), [USER_TOML, BROKEN]);
	processors = await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

describe("a broken user.toml at load", () => {
	it("the plugin loads and says where the file is broken", async () => {
		expect(processors).toContain("http");
		await host.page.waitForFunction(() => (window as unknown as { __host: HostApi }).__host.notices.length > 0);
		const notices = await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.notices.join("\n"));
		expect(notices).toMatch(new RegExp(`${USER_TOML.replace(/\./g, "\\.")}:4:\\d+: .+\\nThe last good settings stay in force\\.`));
	});

	it("runs with the last good settings (the defaults here): Mod+Enter, not the broken file's Alt+R", async () => {
		await host.page.evaluate((md) => (window as unknown as { __host: HostApi }).__host.openEditor(md), `\`\`\`http\nGET ${host.url}/api/json\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: "GET" }).click();
		await host.page.keyboard.press("Alt+R");
		await expect(host.page.locator(".rb-editor-panel .rb-panel").getAttribute("data-state")).resolves.toBe("idle");
		await host.page.keyboard.press("Control+Enter");
		await host.page.locator(".rb-editor-panel .rb-status").waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-status").textContent()).resolves.toMatch(/^200/);
	});

	it("never rewrites the file, not even on reload or a settings change", async () => {
		await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.runCommand("reload-settings"));
		await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.runCommand("switch-environment")); // no environments: a notice, nothing written
		expect(readFileSync(join(host.vaultDir, USER_TOML), "utf8")).toBe(BROKEN);
	});
});
