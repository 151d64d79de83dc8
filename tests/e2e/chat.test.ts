import { startOpenAiServer, type OpenAiServer } from "../support/openai-server";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * The chat panel in Chromium with the production main.js. The page is not Obsidian desktop
 * (no Node), so answers come through requestUrl, whole — as on mobile, and the panel says so;
 * streaming over the node transport is covered by tests/desktop/chat.test.ts.
 */
type HostApi = { loadPlugin(): Promise<string[]>; openEditor(m: string, path?: string): void; writeFile(p: string, t: string): Promise<void>; runCommand(id: string): boolean; editorText(): string; files: Map<string, string> };
let host: Host;
let server: OpenAiServer;
const api = async <T>(fn: (h: HostApi, arg: string) => T, arg = ""): Promise<Awaited<T>> => {
	const handle = await host.page.evaluateHandle(() => (window as unknown as { __host: HostApi }).__host);
	return handle.evaluate<Awaited<T>, string>(fn as (h: HostApi, arg: string) => Awaited<T>, arg);
};
const panel = () => host.page.locator("#sidebar .rb-chat");

beforeAll(async () => {
	server = await startOpenAiServer();
	host = await launchHost();
	await api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), `[chat]\nbase_url = "${server.baseUrl}"\nmodel = "fence"\n`);
	await api((h) => h.loadPlugin());
	await api((h) => h.openEditor("# API\n\n```http alias=ok\nGET http://127.0.0.1:9/unused\n```\n\ntail", "api/chat.md"));
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("the chat panel in Chromium", () => {
	it("toggles open with its command and says answers are not streamed here", async () => {
		await expect(panel().count()).resolves.toBe(0);
		await api((h) => h.runCommand("toggle-chat"));
		await panel().waitFor();
		await expect(panel().locator(".rb-chat-note").textContent()).resolves.toBe("On mobile the answer arrives whole, not streamed.");
		await panel().locator(".rb-chat-model option", { hasText: "slow" }).waitFor({ state: "attached" });
	});

	it("sends with Enter (Shift+Enter is a new line) and renders the answer with its fence actions", async () => {
		const input = panel().locator(".rb-chat-input");
		await input.click();
		await host.page.keyboard.type("Write a request");
		await host.page.keyboard.press("Shift+Enter");
		await host.page.keyboard.type("for /ok");
		await expect(input.inputValue()).resolves.toBe("Write a request\nfor /ok");
		await host.page.keyboard.press("Enter");
		await panel().locator(".rb-chat-assistant .rb-chat-fence-actions").waitFor();
		await expect(panel().locator(".rb-chat-user .rb-chat-body").textContent()).resolves.toBe("Write a request\nfor /ok");
		await expect(panel().locator(".rb-chat-assistant pre code").textContent()).resolves.toBe(`GET ${server.origin}/ok`);
		const sent = JSON.parse(server.requests[server.requests.length - 1].body) as { stream: boolean };
		expect(sent.stream).toBe(false);
	});

	it("inserts the http fence below the cursor as a runnable block with a fresh alias, which runs against the server", async () => {
		await host.page.locator(".cm-line", { hasText: "# API" }).click();
		await panel().locator(".rb-chat-fence-actions button", { hasText: "Insert below cursor" }).click();
		await expect(api((h) => h.editorText())).resolves.toContain(`\`\`\`http alias=ok-2\nGET ${server.origin}/ok\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: `${server.origin}/ok` }).click();
		await host.page.keyboard.press("Control+Enter");
		const done = host.page.locator('.rb-editor-panel .rb-panel[data-state="done"]');
		await done.waitFor();
		await expect(done.textContent()).resolves.toContain("openai-server");
		expect(server.requests[server.requests.length - 1].path).toBe("/ok");
	});

	it("toggles closed", async () => {
		await api((h) => h.runCommand("toggle-chat"));
		await expect(panel().count()).resolves.toBe(0);
	});
});
