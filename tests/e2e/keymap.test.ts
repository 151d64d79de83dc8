import { launchHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
type HostApi = { loadPlugin(): Promise<string[]>; openEditor(m: string): void; fellThrough: string[]; notices: string[]; files: Map<string, string> };
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

beforeAll(async () => {
	host = await launchHost();
	await host.page.evaluate(
		([path, toml]) => {
			(window as unknown as { __host: HostApi }).__host.files.set(path, toml);
		},
		[USER_TOML, '# my keys\n[keymap]\n"block.run" = "Alt+R"   # rebound\n"block.cancel" = "Mod+"\n'],
	);
	await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

describe("keymap from user.toml", () => {
	it("reports an invalid binding with file:line:column and keeps going", async () => {
		const notices = await host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.notices.join("\n"));
		expect(notices).toContain(`${USER_TOML}:4:18: keymap."block.cancel": "Mod+" has no key after the last "+" (ignored)`);
	});

	it("runs the block with the rebound chord; the old chord falls through", async () => {
		await host.page.evaluate((md) => (window as unknown as { __host: HostApi }).__host.openEditor(md), `\`\`\`http alias=k\nGET ${host.url}/api/json?k=1\n\`\`\`\nafter`);
		await host.page.locator(".cm-line", { hasText: "GET" }).click();
		await host.page.keyboard.press("Control+Enter");
		await expect(host.page.evaluate(() => (window as unknown as { __host: HostApi }).__host.fellThrough.join(","))).resolves.toBe("Mod-Enter");
		await expect(host.page.locator(".rb-editor-panel .rb-panel").getAttribute("data-state")).resolves.toBe("idle");
		await host.page.keyboard.press("Alt+R");
		await host.page.locator(".rb-editor-panel .rb-status").waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-status").textContent()).resolves.toMatch(/^200/);
	});
});
