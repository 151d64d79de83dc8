import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(120_000);

let host: Host;
const AUTH = (url: string) => `# Auth\n\n\`\`\`http\n@path = /api/json\n\`\`\`\n\n\`\`\`http alias=login\nGET ${url}{{path}}?from=auth\n\`\`\`\n`;
const ORDERS = (url: string) => `\`\`\`http alias=orders\nGET ${url}/api/counter?title={{[[Auth]]#login.response.body.$.title}}\n\`\`\`\n`;

beforeAll(async () => {
	host = await launchPluginHost();
	await host.api((h, a) => h.writeFile(a[0], a[1]), ["APIs/Auth.md", AUTH(host.url)]);
	await host.api((h, a) => h.writeFile(a[0], a[1]), ["Orders.md", ORDERS(host.url)]);
});

afterAll(async () => {
	await host?.close();
});

const panel = () => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: "alias orders" }) }).locator(".rb-panel");

/** Clicks Run on the orders block and waits for that run to end; returns its final state. */
async function runOrders(): Promise<string | null> {
	const before = (await panel().getAttribute("data-started-at")) ?? "";
	await panel().locator(".rb-run").click();
	await host.page.waitForFunction((previous) => {
		const p = document.querySelector(".rb-panel");
		return p?.getAttribute("data-started-at") !== previous && ["done", "cached", "failed", "cancelled"].includes(p?.getAttribute("data-state") ?? "");
	}, before);
	return panel().getAttribute("data-state");
}

describe("a reference to another note's block, in Chromium", () => {
	it("runs the other note's block first (its own file variables) and sends what it read", async () => {
		await host.api((h, md) => h.renderReading(md, "Orders.md"), ORDERS(host.url));
		const before = host.hits.length;
		expect(await runOrders()).toBe("done");
		expect(host.hits.slice(before)).toEqual(["/api/json", "/api/counter"]);
		await panel().locator(".rb-tab", { hasText: "Raw" }).click();
		await expect(panel().textContent()).resolves.toContain("title=Dune");
	});

	it("keeps working when the target note is renamed: the reference in the code block follows it", async () => {
		await host.api((h) => h.renameFile("APIs/Auth.md", "APIs/Login flow.md"));
		await host.until((h) => (h.files.get("Orders.md") ?? "").includes("[[Login flow]]"));
		const text = await host.api((h) => h.files.get("Orders.md") ?? "");
		expect(text).toBe(ORDERS(host.url).replace("[[Auth]]", "[[Login flow]]"));
		await host.api((h, md) => h.renderReading(md, "Orders.md"), text);
		expect(await runOrders()).toBe("done");
	});

	it("Mod+Click on the reference opens the target note with the cursor on the block", async () => {
		const text = await host.api((h) => h.files.get("Orders.md") ?? "");
		await host.api((h, md) => h.openEditor(md, "Orders.md"), text);
		const line = host.page.locator(".cm-line", { hasText: "Login flow" });
		const at = await line.evaluate((el) => {
			const range = document.createRange();
			const node = [...el.childNodes].map((n) => (n.nodeType === 3 ? n : n.firstChild)).find((n) => (n?.textContent ?? "").includes("Login")) as Text;
			const start = (node.textContent ?? "").indexOf("Login");
			range.setStart(node, start + 1);
			range.setEnd(node, start + 2);
			const r = range.getBoundingClientRect();
			return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
		});
		await host.page.keyboard.down("Control");
		await host.page.mouse.click(at.x, at.y);
		await host.page.keyboard.up("Control");
		await host.until((h) => h.editorText().includes("@path = /api/json"));
		expect(await host.api((h) => h.editorCursorLine())).toBe(6);
	});
});
