import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
/** Calls a method of the page's test host with one string argument. */
const call = (name: "renderReading" | "openEditor", arg: string) =>
	host.api((h, [n, a]) => {
		h[n](a);
	}, [name, arg] as const);
const fellThrough = () => host.api((h) => h.fellThrough.join(","));

beforeAll(async () => {
	host = await launchPluginHost();
});

afterAll(async () => {
	await host?.close();
});

const block = (base: string) => ["Intro", "", "```http alias=book", `POST ${base}/api/json?q=it's`, "Content-Type: application/json", "", '{"title": "Dune"}', "```", "", "after"].join("\n");
const expectedCurl = (base: string) => `curl ${`'${base}/api/json?q=it%27s'`} -H 'Content-Type: application/json' --data-raw '{"title": "Dune"}' --location`;

describe("export to the clipboard in Chromium", () => {
	it("Copy as curl in the gear menu writes the snippet to the clipboard", async () => {
		await call("renderReading", block(host.url));
		await host.page.locator(".rb-gear").first().click();
		await host.page.locator(".menu-item", { hasText: "Copy as curl" }).click();
		await host.page.waitForFunction(() => document.querySelector("#notices")?.textContent?.includes("Copied as curl"));
		const clip = await host.page.evaluate(() => navigator.clipboard.readText());
		expect(clip).toBe(expectedCurl(host.url));
	});

	it("a < file body is not exported as a snippet off desktop: the notice says why (no snippet could read the file)", async () => {
		await host.page.evaluate(() => navigator.clipboard.writeText("untouched"));
		await call("renderReading", ["```http alias=upload", `POST ${host.url}/api/json`, "", "< ./cover.png", "```"].join("\n"));
		await host.page.locator(".rb-gear").first().click();
		await host.page.locator(".menu-item", { hasText: "Copy as curl" }).click();
		await host.page.waitForFunction(() => document.querySelector("#notices")?.textContent?.includes("desktop only"));
		await expect(host.page.locator("#notices").textContent()).resolves.toContain('a body with "< ./cover.png" is exported as a snippet on desktop only');
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe("untouched");
	});

	it("Mod+Shift+C in the editor does the same, and only inside a block", async () => {
		await host.page.evaluate(() => navigator.clipboard.writeText("untouched"));
		await call("openEditor", block(host.url));
		await host.page.locator(".cm-line", { hasText: "after" }).click();
		await host.page.keyboard.press("Control+Shift+C");
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe("untouched");
		await expect(fellThrough()).resolves.toBe("Mod-Shift-c");
		await host.page.locator(".cm-line", { hasText: "Content-Type" }).click();
		await host.page.keyboard.press("Control+Shift+C");
		await host.page.waitForFunction(() => navigator.clipboard.readText().then((t) => t.startsWith("curl ")));
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(expectedCurl(host.url));
	});

	it("Mod+Enter inside the block runs it into the panel under the fence; outside it falls through", async () => {
		await host.page.locator(".cm-line", { hasText: "after" }).click();
		await host.page.keyboard.press("Control+Enter");
		await expect(fellThrough()).resolves.toBe("Mod-Shift-c,Mod-Enter");
		await host.page.locator(".cm-line", { hasText: "title" }).click();
		await host.page.keyboard.press("Control+Enter");
		await expect(fellThrough()).resolves.toBe("Mod-Shift-c,Mod-Enter");
		const panel = host.page.locator(".rb-editor-panel .rb-panel");
		await panel.locator(".rb-status").waitFor();
		await expect(panel.locator(".rb-status").textContent()).resolves.toMatch(/^200/);
	});
});
