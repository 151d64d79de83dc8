import { startTestServer, type TestServer } from "../support/servers";
import { launchDesktopHost, panelOf, run, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/**
 * Pinned responses in the desktop host (production main.js, node transport; issue 28): Pin
 * response writes the response under its block, and a block with the `pin` token rewrites its
 * one pin on each run.
 */
let host: DesktopHost;
let server: TestServer;
let doc: Document;
const PATH = "api/pins.md";
const note = () => (host.page as unknown as { files: Map<string, string> }).files.get(PATH) ?? "";

beforeAll(async () => {
	server = await startTestServer();
	host = await launchDesktopHost();
	doc = host.document;
	await host.loadPlugin();
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

/** Clicks an item of the block's panel menu (⚙). */
function menu(alias: string, item: string): void {
	panelOf(doc, alias).querySelector<HTMLElement>(".rb-gear")?.click();
	[...doc.querySelectorAll<HTMLElement>(".menu-item")].find((el) => el.textContent?.includes(item))?.click();
}

it("Pin response writes the response under its block through the vault", async () => {
	const text = `# Pins\n\n\`\`\`http alias=json\nGET ${server.url}/json\n\`\`\`\n\nend\n`;
	host.page.renderReading(text, PATH);
	expect(await run(doc, "json")).toBe("done");
	menu("json", "Pin response");
	await waitFor("the pin", () => note().includes("http-response"));
	expect(note()).toBe(`# Pins\n\n\`\`\`http alias=json\nGET ${server.url}/json\n\`\`\`\n\`\`\`http-response alias=json\nHTTP/1.1 200 OK\ncontent-type: application/json\n\n{\n  "ok": true,\n  "items": [\n    {\n      "id": 1,\n      "name": "one"\n    },\n    {\n      "id": 2,\n      "name": "two"\n    }\n  ],\n  "token": "tok-123"\n}\n\`\`\`\n\nend\n`);
});

it("a block with the pin token rewrites its one pin on each run", async () => {
	const text = `\`\`\`http alias=items pin\nGET ${server.url}/no-store\n\`\`\`\n\nend\n`;
	host.page.renderReading(text, PATH);
	expect(await run(doc, "items")).toBe("done");
	await waitFor("the first pin", () => note().includes("http-response"));
	const first = note();
	expect(await run(doc, "items")).toBe("done");
	await waitFor("the pin rewritten", () => note() !== first);
	expect(note().match(/http-response/g)).toHaveLength(1);
	expect(note().replace(/```http-response[\s\S]*?\n```\n/, "")).toBe(text);
	expect(/"n": (\d+)/.exec(note())?.[1]).not.toBe(/"n": (\d+)/.exec(first)?.[1]);
});
