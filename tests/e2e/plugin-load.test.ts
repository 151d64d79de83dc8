import { eventually } from "./support/eventually";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;

beforeAll(async () => {
	host = await launchHost();
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
	it("loads like Obsidian loads it and registers the http, db and textdiff processors", async () => {
		const processors = await host.api((h) => h.loadPlugin());
		expect(processors).toEqual(["http", "db", "textdiff", "http-response"]);
	});

	it("renders each block as written, its method coloured, with an idle panel", async () => {
		const count = await host.api((h, md) => h.renderReading(md), note(host.url));
		expect(count).toBe(2);
		await expect(host.page.locator(".rb-block .rb-source .rb-method").allTextContents()).resolves.toEqual(["GET", "GET"]);
		await expect(host.page.locator(".rb-block .rb-source").first().textContent()).resolves.toBe(`GET ${host.url}/api/json\nAccept: application/json`);
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

	it("takes every vault and workspace handler it registered off again when disabled, and registers them anew when enabled", async () => {
		const registered = await host.api((h) => h.eventHandlerCount());
		expect(registered).toBeGreaterThan(0);
		await host.api((h) => h.unloadPlugin());
		await expect(host.api((h) => h.eventHandlerCount())).resolves.toBe(0);
		await host.api((h) => h.loadPlugin());
		// The core registers its handlers in a task of its own after the layout is ready.
		await eventually(async () => expect(await host.api((h) => h.eventHandlerCount())).toBe(registered));
	});

	// The README's screenshots come from `npm run screenshots` (deterministic); tests keep theirs in memory.
	it.each([["light"], ["dark"]] as const)("looks native in the %s theme (screenshot)", async (theme) => {
		await host.api((h, t) => h.setTheme(t), theme);
		const png = await host.page.locator(".rb-block").first().screenshot();
		expect(png.byteLength).toBeGreaterThan(1000);
		const bg = await host.page.evaluate(() => getComputedStyle(document.querySelector(".rb-block") as Element).backgroundColor);
		expect(bg).toBe(theme === "light" ? "rgb(250, 250, 250)" : "rgb(36, 36, 36)");
	});
});
