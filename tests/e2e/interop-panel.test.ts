/** Issue 14 in the panel, in real Chromium: the Tests tab (`??` assertions pass/fail per line), the "scripts are not run" notice, the Import .http file command. */
import { launchHost, type Host } from "./support/host";

jest.setTimeout(90_000);

let host: Host;

beforeAll(async () => {
	host = await launchHost();
	await host.api((h) => h.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

it("shows each assertion passed or failed, with its line, the actual value and why it failed", async () => {
	const note = [
		"```http",
		`GET ${host.url}/api/book`,
		"?? status == 200",
		"?? header content-type includes json",
		"?? body $.title == Dune",
		"?? body $.price > 10",
		"?? body $.nope exists",
		"?? status teapot 418",
		"```",
	].join("\n");
	await host.api((h, md) => h.renderReading(md), note);
	const panel = host.page.locator(".rb-panel");
	await panel.locator(".rb-run").click();
	await panel.locator(".rb-tab[data-tab='tests']").click();
	const rows = panel.locator(".rb-tests tbody tr");
	await rows.first().waitFor();
	await expect(rows.count()).resolves.toBe(6);
	const classes = await rows.evaluateAll((trs): string[] => trs.map((tr) => tr.getAttribute("class") ?? ""));
	expect(classes).toEqual(["rb-test-pass", "rb-test-pass", "rb-test-pass", "rb-test-fail", "rb-test-fail", "rb-test-fail"]);
	// Note lines: the fence opens on line 1, the request is line 2.
	await expect(rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-line")))).resolves.toEqual(["3", "4", "5", "6", "7", "8"]);
	await expect(panel.locator(".rb-tests-summary").textContent()).resolves.toBe("3 of 6 assertions passed");
	await expect(rows.nth(3).locator(".rb-test-actual").textContent()).resolves.toBe("9.99");
	// An assertion that cannot be read fails with a message instead of breaking the tab.
	await expect(rows.nth(5).locator(".rb-test-message").textContent()).resolves.toMatch(/teapot/);
	await expect(rows.nth(0).locator(".rb-test-label").textContent()).resolves.toBe("Passed");
});

it("a block without assertions says how to add one", async () => {
	await host.api((h, md) => h.renderReading(md), `\`\`\`http\nGET ${host.url}/api/json\n\`\`\``);
	const panel = host.page.locator(".rb-panel");
	await panel.locator(".rb-run").click();
	await panel.locator(".rb-tab[data-tab='tests']").click();
	await expect(panel.locator(".rb-tab-content .rb-muted").first().textContent()).resolves.toContain("?? status == 200");
	await expect(panel.locator(".rb-tests").count()).resolves.toBe(0);
});

it("a block with a handler script says, on that line, that scripts are not run", async () => {
	await host.api((h, md) => h.renderReading(md), `\`\`\`http\nGET ${host.url}/api/json\n\n> {% client.global.set("t", response.body.title) %}\n\`\`\``);
	await expect(host.page.locator(".rb-problems .rb-problem-warning").allTextContents()).resolves.toEqual(["Line 4: Scripts are not run: this line stays in the note and is never sent."]);
});

it("asks a block's # @prompt values in a dialog before sending: a hidden one masked in the request shown, Cancel sends nothing", async () => {
	const note = ["```http alias=search", "# @prompt q What to search", "# @prompt api_token", `GET ${host.url}/api/json?q={{q}}`, "X-Token: {{api_token}}", "```"].join("\n");
	await host.api((h, md) => h.renderReading(md), note);
	const panel = host.page.locator(".rb-panel");
	const dialog = host.page.locator(".modal-container .runnable-prompt");
	await panel.locator(".rb-run").click();
	await dialog.waitFor();
	await expect(host.page.locator(".modal-container .modal-title").textContent()).resolves.toBe("Values for search");
	await expect(dialog.locator("label").allTextContents()).resolves.toEqual(["What to search", "api_token"]);
	await expect(dialog.locator("input").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).type))).resolves.toEqual(["text", "password"]);
	await dialog.locator("input").nth(0).fill("dune");
	await dialog.locator("input").nth(1).fill("t0k3n");
	await dialog.locator("input").nth(1).press("Enter");
	await expect(dialog.count()).resolves.toBe(0);
	await host.page.waitForFunction(() => document.querySelector(".rb-panel")?.getAttribute("data-state") === "done");
	await panel.locator(".rb-tab[data-tab='raw']").click();
	const raw = panel.locator(".rb-raw");
	await raw.waitFor();
	await host.page.waitForFunction(() => (document.querySelector(".rb-raw")?.textContent ?? "").includes("X-Token"));
	const text = (await raw.textContent()) ?? "";
	expect(text).toContain("/api/json?q=dune HTTP/1.1");
	expect(text).toContain("X-Token: •••");
	expect(text).not.toContain("t0k3n");
	// Again: the visible answer is offered, the hidden one is not; Cancel ends the run with nothing sent.
	await panel.locator(".rb-run").click();
	await dialog.waitFor();
	await expect(dialog.locator("input").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).resolves.toEqual(["dune", ""]);
	await host.page.locator(".modal-container button", { hasText: "Cancel" }).click();
	await expect(dialog.count()).resolves.toBe(0);
	await host.page.waitForFunction(() => document.querySelector(".rb-panel")?.getAttribute("data-state") === "cancelled");
});

it("Import .http file: the picked file becomes a new note of http fences, opened", async () => {
	const chooser = host.page.waitForEvent("filechooser");
	await host.api((h) => h.runCommand("import-http-file"));
	await (await chooser).setFiles({ name: "books.http", mimeType: "text/plain", buffer: Buffer.from(`@base = ${host.url}\n\n### Book\nGET {{base}}/api/book\n?? status == 200\n`) });
	await host.until((h) => h.files.has("books.md"));
	await expect(host.api((h) => h.files.get("books.md"))).resolves.toBe(`# books\n\n\`\`\`http\n@base = ${host.url}\n\`\`\`\n\n## Book\n\n\`\`\`http\nGET {{base}}/api/book\n?? status == 200\n\`\`\`\n`);
	await expect(host.api((h) => h.editorText())).resolves.toContain("GET {{base}}/api/book");
});
