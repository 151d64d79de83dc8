import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchPluginHost, USER_TOML, type PluginHost } from "./support/host";

jest.setTimeout(60_000);

const BROKEN = '# mine\n[general]\ntimeout = 5000\n[keymap\n"block.run" = "Alt+R"\n';
let host: PluginHost;

beforeAll(async () => {
	host = await launchPluginHost({ userToml: BROKEN });
});

afterAll(async () => {
	await host?.close();
});

describe("a broken user.toml at load", () => {
	it("the plugin loads and says where the file is broken", async () => {
		expect(host.processors).toContain("http");
		await host.until((h) => h.notices.length > 0);
		const notices = await host.api((h) => h.notices.join("\n"));
		expect(notices).toMatch(new RegExp(`${USER_TOML.replace(/\./g, "\\.")}:4:\\d+: .+\\nThe last good settings stay in force\\.`));
	});

	it("runs with the last good settings (the defaults here): Mod+Enter, not the broken file's Alt+R", async () => {
		await host.api((h, md) => h.openEditor(md), `\`\`\`http\nGET ${host.url}/api/json\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: "GET" }).click();
		await host.page.keyboard.press("Alt+R");
		await expect(host.page.locator(".rb-editor-panel .rb-panel").getAttribute("data-state")).resolves.toBe("idle");
		await host.page.keyboard.press("Control+Enter");
		await host.page.locator(".rb-editor-panel .rb-status").waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-status").textContent()).resolves.toMatch(/^200/);
	});

	it("never rewrites the file, not even on reload or a settings change", async () => {
		await host.api((h) => h.runCommand("reload-settings"));
		await host.api((h) => h.runCommand("switch-environment")); // no environments: a notice, nothing written
		expect(readFileSync(join(host.vaultDir, USER_TOML), "utf8")).toBe(BROKEN);
	});
});
