import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
const SHOTS = join(__dirname, "screenshots");

beforeAll(async () => {
	host = await launchHost();
	mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
	await host?.close();
});

const note = (base: string) =>
	[
		"# API notes",
		"",
		"```http alias=book",
		`GET ${base}/api/json`,
		"Accept: application/json",
		"```",
		"",
		"```http alias=page",
		`GET ${base}/api/html`,
		"```",
	].join("\n");

describe("production main.js in Chromium", () => {
	it("loads like Obsidian loads it and registers the http processor", async () => {
		const processors = await host.page.evaluate(() => (window as unknown as { __host: { loadPlugin(): Promise<string[]> } }).__host.loadPlugin());
		expect(processors).toEqual(["http"]);
	});

	it("renders each block with its method, URL and an idle panel", async () => {
		const count = await host.page.evaluate((md) => (window as unknown as { __host: { renderReading(m: string): number } }).__host.renderReading(md), note(host.url));
		expect(count).toBe(2);
		await expect(host.page.locator(".rb-block .rb-method").allTextContents()).resolves.toEqual(["GET", "GET"]);
		await expect(host.page.locator(".rb-block .rb-url").first().textContent()).resolves.toBe(`${host.url}/api/json`);
		await expect(host.page.locator(".rb-panel").first().getAttribute("data-state")).resolves.toBe("idle");
	});

	it("runs a block from the Run button and shows status, headers and the pretty-printed body", async () => {
		const panel = host.page.locator(".rb-panel").first();
		await panel.locator(".rb-run").click();
		await panel.locator('.rb-panel[data-state="done"], .rb-status').first().waitFor();
		await expect(panel.locator(".rb-status").textContent()).resolves.toMatch(/^200/);
		await expect(panel.locator(".rb-transport").textContent()).resolves.toBe("obsidian");
		await panel.locator(".rb-vtext-line").first().waitFor();
		const body = (await panel.locator(".rb-vtext-line").allTextContents()).join("\n");
		expect(body).toContain('"title": "Dune"');
		await panel.locator('.rb-tab[data-tab="headers"]').click();
		await expect(panel.locator(".rb-headers").textContent()).resolves.toContain("x-demo");
		await panel.locator('.rb-tab[data-tab="body"]').click();
	});

	it("shows response HTML as text: no script runs, no element is created from it", async () => {
		const panel = host.page.locator(".rb-panel").nth(1);
		await panel.locator(".rb-run").click();
		await panel.locator(".rb-vtext-line").first().waitFor();
		const text = (await panel.locator(".rb-vtext-line").allTextContents()).join("\n");
		expect(text).toContain("<script>window.__pwned=2</script>");
		await expect(host.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
		await expect(panel.locator("img, script, h1").count()).resolves.toBe(0);
	});

	it.each([["light"], ["dark"]])("looks native in the %s theme (screenshot)", async (theme) => {
		await host.page.evaluate((t) => (window as unknown as { __host: { setTheme(t: string): void } }).__host.setTheme(t), theme);
		const path = join(SHOTS, `panel-${theme}.png`);
		await host.page.locator(".rb-block").first().screenshot({ path });
		const bg = await host.page.evaluate(() => getComputedStyle(document.querySelector(".rb-block") as Element).backgroundColor);
		expect(bg).toBe(theme === "light" ? "rgb(250, 250, 250)" : "rgb(36, 36, 36)");
	});
});
