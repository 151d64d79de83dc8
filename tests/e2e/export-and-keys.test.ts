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
	// An environment for the export tests below: its variables are what Run reads, and so must export.
	host = await launchPluginHost({ userToml: '[general]\nenvironment = "dev"\n\n[environments.dev]\nregion = "eu"\nwho = "env"\nkey = { secret = "e2e-key" }\n' });
	await host.api((h) => void h.secrets.set("e2e-key", "s3cr3t-value"));
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
		await expect(host.page.locator("#notices").textContent()).resolves.toContain("a body with “< ./cover.png” is exported as a snippet on desktop only");
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

/** The notice the next action shows, without the plugin's name (notices accumulate: it is the first one after `before`). */
async function noticeAfter(before: number): Promise<string> {
	await host.until((h, n) => h.notices.length > n, before);
	return (await host.api((h, n) => h.notices[n], before)).replace(/^Runnable Blocks: /, "");
}
const noticeCount = () => host.api((h) => h.notices.length);

/**
 * Issue 23, point 4: a variables fence defines the host; `order` reads it, a file variable of its
 * own, the environment's `region` and `book`'s last result. Run sends it; export must send the same.
 */
const chainNote = (base: string) =>
	[
		"```http",
		`@host = ${new URL(base).host}`,
		"@who = file",
		"```",
		"",
		"```http alias=book",
		"GET http://{{host}}/api/book",
		"```",
		"",
		"```http alias=order",
		"@page = 2",
		"GET http://{{host}}/api/json?id={{book.response.body.$.id}}&who={{who}}&page={{page}}&region={{region}}",
		"```",
		"",
		"after",
	].join("\n");
const orderCurl = (base: string) => `curl '${base}/api/json?id=42&who=file&page=2&region=eu' --location`;
const blockOf = (alias: string) => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) });

describe("export prepares a block as Run does: file variables, environment, chained values", () => {
	it("Copy as curl before the alias it reads has run says to run it first, and copies nothing; after Run, the values", async () => {
		await host.page.evaluate(() => navigator.clipboard.writeText("untouched"));
		await host.api((h, md) => void h.renderReading(md, "chain.md"), chainNote(host.url));
		let before = await noticeCount();
		await blockOf("order").locator(".rb-gear").click();
		await host.page.locator(".menu-item", { hasText: "Copy as curl" }).click();
		await expect(noticeAfter(before)).resolves.toBe('Cannot export: Unresolved reference: block "book" has not run yet. Run book first: an export uses the last results and sends nothing.');
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe("untouched");

		await blockOf("book").locator(".rb-run").click();
		await blockOf("book").locator('.rb-panel[data-state="done"]').waitFor();
		before = await noticeCount();
		await blockOf("order").locator(".rb-gear").click();
		await host.page.locator(".menu-item", { hasText: "Copy as curl" }).click();
		await expect(noticeAfter(before)).resolves.toBe("Copied as curl");
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(orderCurl(host.url));
	});

	it("Mod+Shift+C in the editor copies the same request", async () => {
		await host.page.evaluate(() => navigator.clipboard.writeText("untouched"));
		await host.api((h, md) => h.openEditor(md, "chain.md"), chainNote(host.url));
		const before = await noticeCount();
		await host.page.locator(".cm-line", { hasText: "@page = 2" }).click();
		await host.page.keyboard.press("Control+Shift+C");
		await expect(noticeAfter(before)).resolves.toBe("Copied as curl");
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(orderCurl(host.url));
	});

	it("the gear under a block in the editor exports the block as it is now, edits included", async () => {
		await host.page.locator(".cm-line", { hasText: "@page = 2" }).click();
		await host.page.keyboard.press("End");
		await host.page.keyboard.type("0");
		const before = await noticeCount();
		// The order block is the note's last fence: its panel is the last one.
		await host.page.locator(".rb-editor-panel .rb-gear").last().click();
		await host.page.locator(".menu-item", { hasText: "Copy as curl" }).click();
		await expect(noticeAfter(before)).resolves.toBe("Copied as curl");
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(orderCurl(host.url).replace("page=2", "page=20"));
		await host.api((h, md) => h.openEditor(md, "chain.md"), chainNote(host.url));
	});

	it("Export note as .http writes a request per runnable block, with the values; the variables fence writes none", async () => {
		const before = await noticeCount();
		await expect(host.api((h) => h.runCommand("export-note-as-http"))).resolves.toBe(true);
		await expect(noticeAfter(before)).resolves.toBe("Exported 2 requests to chain.http");
		await expect(host.api((h) => h.files.get("chain.http"))).resolves.toBe(
			`### book\n# @name book\nGET ${host.url}/api/book\n\n### order\n# @name order\nGET ${host.url}/api/json?id=42&who=file&page=2&region=eu\n`,
		);
	});

	it("Export note as .http of a note whose alias has not run stops at the block that reads it, saying to run it first", async () => {
		await host.api((h, md) => h.openEditor(md, "fresh.md"), chainNote(host.url));
		const before = await noticeCount();
		await host.api((h) => h.runCommand("export-note-as-http"));
		await expect(noticeAfter(before)).resolves.toBe('Cannot export line 10: Unresolved reference: block "book" has not run yet. Run book first: an export uses the last results and sends nothing.');
		await expect(host.api((h) => h.files.has("fresh.http"))).resolves.toBe(false);
	});
});

describe("Export note as .http with stream blocks", () => {
	it("writes WebSocket and SSE blocks in the peers' syntax, each secret as its reference in URL, headers and messages", async () => {
		const note = [
			"```http alias=plain",
			"GET http://127.0.0.1:9/api?k={{key}}",
			"```",
			"",
			"```http alias=chat",
			"WEBSOCKET ws://127.0.0.1:9/chat?k={{key}}",
			"Authorization: Bearer {{key}}",
			"",
			'{"hello": "{{region}}", "key": "{{key}}"}',
			"=== wait-for-server",
			"bye",
			"```",
			"",
			"```http alias=ticks",
			"SSE http://127.0.0.1:9/ticks",
			"X-Key: {{key}}",
			"```",
		].join("\n");
		await host.api((h, md) => h.openEditor(md, "streams.md"), note);
		const before = await noticeCount();
		await host.api((h) => h.runCommand("export-note-as-http"));
		await expect(noticeAfter(before)).resolves.toBe("Exported 3 requests to streams.http");
		const file = await host.api((h) => h.files.get("streams.http"));
		expect(file).toBe(
			[
				"### plain",
				"# @name plain",
				"GET http://127.0.0.1:9/api?k={{key}}",
				"",
				"### chat",
				"# @name chat",
				"WEBSOCKET ws://127.0.0.1:9/chat?k={{key}}",
				"Authorization: Bearer {{key}}",
				"",
				'{"hello": "eu", "key": "{{key}}"}',
				"=== wait-for-server",
				"bye",
				"",
				"### ticks",
				"# @name ticks",
				"SSE http://127.0.0.1:9/ticks",
				"X-Key: {{key}}",
				"Accept: text/event-stream",
				"",
			].join("\n"),
		);
		expect(file).not.toContain("s3cr3t");
	});
});
