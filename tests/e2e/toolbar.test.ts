import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

let host: Host;
const note = (url: string) => ["```http alias=book", `GET ${url}/api/json`, "```", "", "```http", `DELETE ${url}/api/json`, "```", ""].join("\n");

beforeAll(async () => {
	host = await launchPluginHost();
	await host.api((h, [md, path]) => h.openEditor(md, path), [note(host.url), "notes/api/Books.md"]);
});

afterAll(async () => {
	await host?.close();
});

describe("toolbar in the editor", () => {
	it("colours the method word by verb with a mark decoration (theme colours, not hard-coded)", async () => {
		const get = host.page.locator(".cm-line .rb-method-get");
		const del = host.page.locator(".cm-line .rb-method-delete");
		await expect(get.textContent()).resolves.toBe("GET");
		await expect(del.textContent()).resolves.toBe("DELETE");
		const colour = (sel: string) => host.page.locator(sel).evaluate((el) => getComputedStyle(el).color);
		const [g, d] = [await colour(".cm-line .rb-method-get"), await colour(".cm-line .rb-method-delete")];
		expect(g).not.toBe(d);
		// The colours follow the theme: switching to dark changes them.
		await host.page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		expect(await colour(".cm-line .rb-method-get")).not.toBe(g);
		await host.page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	});

	it("the method picker rewrites the method word in the note", async () => {
		const picker = host.page.locator(".rb-editor-panel .rb-method-picker").first();
		await picker.selectOption("PUT");
		await host.until((h) => h.editorText().includes("PUT http"));
		await host.page.locator(".cm-line .rb-method-put").waitFor();
		await host.page.locator(".rb-editor-panel .rb-method-picker").first().selectOption("GET");
		await host.until((h) => !h.editorText().includes("PUT http"));
	});

	it("the raw/form toggle writes mode=form into the fence and takes it out again", async () => {
		await host.page.locator(".rb-editor-panel .rb-mode-toggle").first().click();
		await host.until((h) => h.editorText().startsWith("```http alias=book mode=form\n"));
		await host.page.locator(".rb-editor-panel .rb-mode-toggle").first().click();
		await host.until((h) => h.editorText().startsWith("```http alias=book\n"));
		expect(await host.api((h) => h.editorText())).toBe(note(host.url));
	});

	it("Save body to file writes the exact bytes next to the note", async () => {
		await host.page.locator(".rb-editor-panel .rb-run").first().click();
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="done"]').first().waitFor();
		await host.page.locator(".rb-editor-panel .rb-gear").first().click();
		await host.page.locator(".menu-item", { hasText: "Save body to file" }).click();
		await host.until((h) => h.notices.some((n) => n.includes("Saved the body to")));
		const dir = join(host.vaultDir, "notes", "api");
		const saved = readdirSync(dir).filter((f) => /^book-.*\.json$/.test(f));
		expect(saved).toHaveLength(1);
		const served = await (await fetch(`${host.url}/api/json`)).text();
		expect(readFileSync(join(dir, saved[0]), "utf8")).toBe(served);
	});
});
