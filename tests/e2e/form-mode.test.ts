import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;
const hostApi = () => host.api((h) => Object.keys(h));
const editorText = () => host.api((h) => h.editorText());

const NOTE = ["# Form", "", "```http mode=form alias=create", "POST {{base_url}}/books?draft=1", "Content-Type: application/x-www-form-urlencoded", "", "title=Dune&year=1965", "```", "", "end"].join("\n");

beforeAll(async () => {
	host = await launchPluginHost();
	expect(await hostApi()).toContain("undoEditor");
	// The note is open in an editor (Live Preview with the cursor elsewhere renders the block through the processor).
	await host.api((h, md) => {
		h.openEditor(md);
		h.renderReading(md);
	}, NOTE);
});

afterAll(async () => {
	await host?.close();
});

describe("form mode", () => {
	it("shows the request as rows instead of text", async () => {
		await expect(host.page.locator(".rb-form-url").inputValue()).resolves.toBe("{{base_url}}/books");
		await expect(host.page.locator(".rb-form-query input").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).resolves.toEqual(["draft", "1"]);
		await expect(host.page.locator(".rb-form-body-rows input").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).resolves.toEqual(["title", "Dune", "year", "1965"]);
		await expect(host.page.locator(".rb-block .rb-source").count()).resolves.toBe(0);
	});

	it("writes an edit back as canonical text in one editor transaction, which one undo reverts", async () => {
		const value = host.page.locator(".rb-form-body-rows input").nth(1);
		await value.fill("Dune Messiah");
		await value.press("Tab");
		await host.until((h) => h.editorText().includes("Dune Messiah"));
		expect(await editorText()).toBe(NOTE.replace("title=Dune&", "title=Dune Messiah&"));
		await host.api((h) => h.undoEditor());
		expect(await editorText()).toBe(NOTE);
		// Obsidian re-renders a code block whose text changed: so does the host.
		await host.api((h) => {
			h.renderReading(h.editorText());
		});
		await expect(host.page.locator(".rb-form-body-rows input").nth(1).inputValue()).resolves.toBe("Dune");
	});

	it("adds a header row", async () => {
		await host.page.locator(".rb-form-headers + .rb-form-add").click();
		const header = host.page.locator(".rb-form-headers tr").last().locator("input");
		await header.nth(0).fill("X-Trace");
		await header.nth(0).press("Tab");
		await header.nth(1).fill("on");
		await header.nth(1).press("Tab");
		await host.until((h) => h.editorText().includes("X-Trace: on"));
		expect(await editorText()).toBe(NOTE.replace("urlencoded\n", "urlencoded\nX-Trace: on\n"));
	});
});
