import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(120_000);

let host: Host;
/** A raw .http file of the vault, its file variable above its one named request. */
const AUTH = (url: string) => `@path = /api/json\n\n###\n# @name login\nGET ${url}{{path}}?from=import\n`;
const ORDERS = (url: string) => `\`\`\`http alias=orders\n# @import ./auth.http\nGET ${url}/api/counter?title={{login.response.body.$.title}}\n\`\`\`\n`;

beforeAll(async () => {
	host = await launchPluginHost();
	await host.api((h, a) => h.writeFile(a[0], a[1]), ["APIs/auth.http", AUTH(host.url)]);
	await host.api((h, a) => h.writeFile(a[0], a[1]), ["APIs/Orders.md", ORDERS(host.url)]);
});

afterAll(async () => {
	await host?.close();
});

const panel = () => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: "alias orders" }) }).locator(".rb-panel");

describe("# @import of a .http file, in Chromium", () => {
	it("runs the imported file's block first, once (its own file variables), and sends what it read", async () => {
		await host.api((h, md) => h.renderReading(md, "APIs/Orders.md"), ORDERS(host.url));
		const before = host.hits.length;
		await panel().locator(".rb-run").click();
		await host.page.waitForFunction(() => ["done", "cached", "failed", "cancelled"].includes(document.querySelector(".rb-panel")?.getAttribute("data-state") ?? ""));
		expect(await panel().getAttribute("data-state")).toBe("done");
		expect(host.hits.slice(before)).toEqual(["/api/json", "/api/counter"]);
		await panel().locator(".rb-tab", { hasText: "Raw" }).click();
		await expect(panel().textContent()).resolves.toContain("title=Dune");
	});
});
