import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(120_000);

let host: Host;
let note = "";

beforeAll(async () => {
	host = await launchPluginHost();
	const blocks = [
		["xml", "GET /api/xml"],
		["image", "GET /api/image.png"],
		["binary", "GET /api/binary"],
		["cached", "GET /api/json?c=1"],
		["slow", "GET /api/slow"],
		["posted", "POST /api/json\n\nx"],
		["hidden", "GET /api/json?h=1"],
	]
		.map(([alias, req]) => `\`\`\`http alias=${alias}${alias === "cached" ? " display=output" : alias === "hidden" ? " display=input" : ""}\n${req.replace(" /", ` ${host.url}/`)}\n\`\`\``)
		.join("\n\n");
	note = blocks;
	await host.api((h, md) => h.renderReading(md), blocks);
});

afterAll(async () => {
	await host?.close();
});

const blockOf = (alias: string) => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) });
const panel = (alias: string) => blockOf(alias).locator(".rb-panel");

/** Clicks Run and waits for that run (a new start time) to end. */
async function run(alias: string): Promise<void> {
	const before = (await panel(alias).getAttribute("data-started-at")) ?? "";
	await panel(alias).locator(".rb-run").click();
	await host.page.waitForFunction(
		([a, previous]) => {
			const el = [...document.querySelectorAll(".rb-block")].find((b) => b.querySelector(".rb-alias")?.textContent === `alias ${a}`);
			const p = el?.querySelector(".rb-panel");
			const state = p?.getAttribute("data-state");
			return p?.getAttribute("data-started-at") !== previous && (state === "done" || state === "cached" || state === "failed" || state === "cancelled");
		},
		[alias, before],
	);
}

describe("response panel tabs in Chromium", () => {
	it("pretty-prints XML as text", async () => {
		await run("xml");
		const lines = await panel("xml").locator(".rb-vtext-line").allTextContents();
		expect(lines).toEqual(['<?xml version="1.0"?>', "<books>", '  <book id="1">', "    <title>", "      Dune", "    </title>", "  </book>", "</books>"]);
	});

	it("shows a PNG inline through a blob: URL", async () => {
		await run("image");
		const src = await panel("image").locator(".rb-image img").getAttribute("src");
		expect(src).toMatch(/^blob:/);
		await expect(panel("image").locator(".rb-image img").evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).resolves.toBe(16);
	});

	it("shows a binary body as base64 with its size", async () => {
		await run("binary");
		await expect(panel("binary").locator(".rb-body").textContent()).resolves.toContain("Binary body, 8 B");
		await expect(panel("binary").locator(".rb-vtext-line").first().textContent()).resolves.toBe(Buffer.from([0, 1, 2, 3, 254, 255, 0, 7]).toString("base64"));
	});

	it("serves a second identical GET from the cache with the (cached) badge; POST is never cached", async () => {
		await run("cached");
		const hits = host.hits.filter((h) => h === "/api/json").length;
		await run("cached");
		// Issue 12: the badge says the cached response's age.
		await expect(panel("cached").locator(".rb-cached").textContent()).resolves.toMatch(/^\(cached, \d+ s ago\)$/);
		expect(host.hits.filter((h) => h === "/api/json").length).toBe(hits);
		await run("posted");
		await run("posted");
		expect(host.hits.filter((h) => h === "/api/json").length).toBe(hits + 2);
		await expect(panel("posted").locator(".rb-cached").count()).resolves.toBe(0);
	});

	it("hides the block text with display=output and shows it with split", async () => {
		await expect(blockOf("cached").locator(".rb-source").isVisible()).resolves.toBe(false);
		await expect(blockOf("cached").locator(".rb-panel").isVisible()).resolves.toBe(true);
		await expect(blockOf("xml").locator(".rb-source").isVisible()).resolves.toBe(true);
		await expect(blockOf("hidden").locator(".rb-source").isVisible()).resolves.toBe(true);
		await expect(blockOf("hidden").locator(".rb-panel").isVisible()).resolves.toBe(false);
	});

	it("keeps a result across views: the editor's widget shows the run made in Reading view", async () => {
		await host.api((h, md) => h.openEditor(md), note);
		const widgets = host.page.locator(".rb-editor-panel .rb-panel");
		await expect(widgets.first().getAttribute("data-state")).resolves.toBe("done");
		await expect(widgets.first().locator(".rb-vtext-line").first().textContent()).resolves.toBe('<?xml version="1.0"?>');
	});

	it("Stop cancels a running request: [cancelled], nothing kept", async () => {
		const p = panel("slow");
		await p.locator(".rb-run").click();
		await expect(p.locator(".rb-run").textContent()).resolves.toBe("Stop");
		await p.locator(".rb-run").click();
		await host.page.waitForFunction(() => [...document.querySelectorAll(".rb-panel")].some((x) => x.getAttribute("data-state") === "cancelled"));
		await expect(p.locator(".rb-error").textContent()).resolves.toBe("[cancelled]");
		await expect(p.locator(".rb-body").count()).resolves.toBe(0);
	});

	it("lists the last 10 runs in the History popover after 12 runs", async () => {
		for (let i = 0; i < 12; i++) await run("posted");
		await expect(panel("posted").getAttribute("data-state")).resolves.toBe("done");
		// History writes are debounced; the popover reads the live store.
		await panel("posted").locator(".rb-history-button").click();
		await panel("posted").locator(".rb-history-row").first().waitFor();
		await expect(panel("posted").locator(".rb-history-row").count()).resolves.toBe(10);
	});
});
