import { startOpenAiServer, type OpenAiServer } from "../support/openai-server";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * A chat server that does not allow the app's origin (no CORS headers), in Chromium: the panel's
 * fetch is refused by the browser, requestUrl gets through (Obsidian runs it outside the page;
 * here a Node-side bridge does), so answers arrive whole and the panel says why.
 */
let host: Host;
let server: OpenAiServer;
const panel = () => host.page.locator("#sidebar .rb-chat");
const completions = () => server.requests.filter((r) => r.path === "/v1/chat/completions" && r.method === "POST");

beforeAll(async () => {
	server = await startOpenAiServer({ cors: false });
	host = await launchHost();
	await host.page.exposeFunction("__requestUrlBridge", async (r: { url: string; method?: string; headers?: Record<string, string>; body?: string }) => {
		const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
		const headers: Record<string, string> = {};
		res.headers.forEach((v, k) => (headers[k] = v));
		return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString("base64") };
	});
	await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), `[chat]\nbase_url = "${server.baseUrl}"\nmodel = "echo"\n`);
	await host.api((h) => h.loadPlugin());
	await host.api((h) => h.openEditor("# Notes\n", "notes.md"));
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("a server that refuses streaming from the app (CORS)", () => {
	it("lists the models through requestUrl and says answers arrive whole", async () => {
		await host.api((h) => h.runCommand("toggle-chat"));
		await panel().locator(".rb-chat-model option", { hasText: "slow" }).waitFor({ state: "attached" });
		const note = panel().locator(".rb-chat-note");
		await note.waitFor();
		await expect(note.textContent()).resolves.toBe("The server does not allow streaming from the app (CORS): answers arrive whole, through requestUrl.");
		await expect(panel().locator(".rb-chat-error").isVisible()).resolves.toBe(false);
	});

	it("asks for stream: false from then on, and shows the whole answer", async () => {
		const input = panel().locator(".rb-chat-input");
		await input.fill("whole please");
		await input.press("Enter");
		await panel().locator(".rb-chat-assistant:not(.rb-chat-streaming)", { hasText: "you said: whole please" }).waitFor();
		expect(completions()).toHaveLength(1);
		expect(JSON.parse(completions()[0].body)).toMatchObject({ model: "echo", stream: false });
	});
});
