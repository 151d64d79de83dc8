import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * Streaming in the browser: with `transport = "fetch"` (the transport for runtimes without
 * Node) the panel shows the status and headers while the body is still arriving, and Stop
 * hangs up mid-body. The server holds the body until the test releases it: no timing guesses.
 */
let host: Host;
const panel = () => host.page.locator(".rb-editor-panel .rb-panel");

beforeAll(async () => {
	host = await launchPluginHost({ userToml: '[general]\ntransport = "fetch"\n' });
	await host.api((h, md) => h.openEditor(md), `\`\`\`http alias=drip\nGET ${host.url}/api/drip\n\`\`\``);
});

afterAll(async () => {
	await host?.close();
});

describe("a streamed response in the panel", () => {
	it("shows status and headers before the body finishes, then the body", async () => {
		await host.page.locator(".cm-line", { hasText: "api/drip" }).click();
		await host.page.keyboard.press("Control+Enter");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="streaming"] .rb-status').waitFor();
		// The body is still held by the server: the panel is streaming, with the head already shown.
		await expect(panel().getAttribute("data-state")).resolves.toBe("streaming");
		await expect(panel().locator(".rb-status").textContent()).resolves.toMatch(/^200/);
		await expect(panel().locator(".rb-transport").textContent()).resolves.toBe("fetch");
		await host.page.locator('.rb-editor-panel .rb-progress', { hasText: "Receiving" }).waitFor();
		await panel().locator('[data-tab="headers"]').click();
		await expect(panel().locator(".rb-tab-content").textContent()).resolves.toContain("first");
		await panel().locator('[data-tab="body"]').click();

		await fetch(`${host.url}/api/release`);
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="done"]').waitFor();
		await expect(panel().textContent()).resolves.toContain('"part2": 2');
	});

	it("Stop mid-body shows [cancelled] and hangs up on the server", async () => {
		await host.page.locator(".cm-line", { hasText: "api/drip" }).click();
		// Force re-run: a plain run would answer from the cache of the first test.
		await host.page.keyboard.press("Control+Shift+R");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="streaming"] .rb-status').waitFor();
		await host.page.keyboard.press("Control+.");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="cancelled"]').waitFor();
		await expect(panel().locator(".rb-error").textContent()).resolves.toBe("[cancelled]");
		for (let i = 0; i < 50 && host.closedEarly.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
		expect(host.closedEarly).toEqual(["/api/drip"]);
		await fetch(`${host.url}/api/release`);
	});
});
