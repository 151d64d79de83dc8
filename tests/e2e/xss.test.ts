import { launchHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
const blocked: string[] = [];

beforeAll(async () => {
	host = await launchHost();
	// Request interception: anything the responses could make the page fetch is recorded and refused.
	await host.page.route(/\/evil\//, (route) => {
		blocked.push(route.request().url());
		return route.abort();
	});
	await host.api((h) => h.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

describe("untrusted responses stay text", () => {
	it.each([["html"], ["svg"], ["xml"], ["json"]])("an XSS corpus served as %s runs nothing, fetches nothing, navigates nowhere", async (kind) => {
		const url = host.page.url();
		await host.api((h, md) => h.renderReading(md), `\`\`\`http\nGET ${host.url}/api/xss.${kind}\n\`\`\``);
		const panel = host.page.locator(".rb-panel");
		await panel.locator(".rb-run").click();
		await panel.locator(".rb-vtext-line").first().waitFor();
		for (const tab of ["headers", "cookies", "timing", "raw", "body"]) await panel.locator(`.rb-tab[data-tab="${tab}"]`).click();
		const text = (await panel.locator(".rb-vtext-line").allTextContents()).join("\n");
		expect(text).toContain("onerror");
		await host.page.waitForTimeout(300);
		await expect(host.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).resolves.toBeUndefined();
		await expect(panel.locator("script, iframe, object, a[href], meta, style, [onerror], [onload]").count()).resolves.toBe(0);
		// The only svg elements are the toolbar's own icons (setIcon); none comes from the response.
		await expect(panel.locator(".rb-tab-content svg").count()).resolves.toBe(0);
		await expect(panel.locator("svg:not(.svg-icon)").count()).resolves.toBe(0);
		await expect(panel.locator("img").count()).resolves.toBe(0);
		expect(blocked).toEqual([]);
		expect(host.page.url()).toBe(url);
	});
});
