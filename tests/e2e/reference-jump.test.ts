import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

let host: Host;
const NOTE = ["```http alias=login", "POST http://127.0.0.1:1/login", "```", "", "Some text.", "", "```http", "GET http://127.0.0.1:1/me", "Authorization: Bearer {{login.response.body.$.token}}", "X-Plain: {{base_url}}", "```"].join("\n");
const cursorLine = () => host.api((h) => h.editorCursorLine());

beforeAll(async () => {
	host = await launchPluginHost();
	await host.api((h, md) => h.openEditor(md), NOTE);
});

afterAll(async () => {
	await host?.close();
});

describe("Mod+Click on a reference", () => {
	it("moves the cursor to the alias's fence line", async () => {
		const line = host.page.locator(".cm-line", { hasText: "Authorization" });
		await line.click({ position: { x: 5, y: 5 } });
		expect(await cursorLine()).toBe(8);
		const ref = await line.evaluate((el) => {
			const range = document.createRange();
			const text = el.firstChild as Text;
			const start = (text.textContent ?? "").indexOf("login");
			range.setStart(text, start + 2);
			range.setEnd(text, start + 3);
			const r = range.getBoundingClientRect();
			return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
		});
		await host.page.keyboard.down("Control");
		await host.page.mouse.click(ref.x, ref.y);
		await host.page.keyboard.up("Control");
		expect(await cursorLine()).toBe(0);
	});

	it("leaves a plain click and a click on a variable alone", async () => {
		const line = host.page.locator(".cm-line", { hasText: "X-Plain" });
		await line.click({ position: { x: 5, y: 5 }, modifiers: ["Control"] });
		expect(await cursorLine()).toBe(9);
	});
});
