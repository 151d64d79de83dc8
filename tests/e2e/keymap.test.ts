import { launchPluginHost, USER_TOML, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;

beforeAll(async () => {
	host = await launchPluginHost({ userToml: '# my keys\n[keymap]\n"block.run" = "Alt+R"   # rebound\n"block.cancel" = "Mod+"\n' });
});

afterAll(async () => {
	await host?.close();
});

describe("keymap from user.toml", () => {
	it("reports an invalid binding with file:line:column and keeps going", async () => {
		const notices = await host.api((h) => h.notices.join("\n"));
		expect(notices).toContain(`${USER_TOML}:4:18: keymap."block.cancel": "Mod+" has no key after the last "+" (ignored)`);
	});

	it("runs the block with the rebound chord; the old chord falls through", async () => {
		await host.api((h, md) => h.openEditor(md), `\`\`\`http alias=k\nGET ${host.url}/api/json?k=1\n\`\`\`\nafter`);
		await host.page.locator(".cm-line", { hasText: "GET" }).click();
		await host.page.keyboard.press("Control+Enter");
		await expect(host.api((h) => h.fellThrough.join(","))).resolves.toBe("Mod-Enter");
		await expect(host.page.locator(".rb-editor-panel .rb-panel").getAttribute("data-state")).resolves.toBe("idle");
		await host.page.keyboard.press("Alt+R");
		await host.page.locator(".rb-editor-panel .rb-status").waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-status").textContent()).resolves.toMatch(/^200/);
	});
});
