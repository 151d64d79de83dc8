import { startOpenAiServer, type OpenAiServer } from "../support/openai-server";
import type { HostApi } from "../e2e/support/host-api";
import { clickRun, launchDesktopHost, lendHostWindow, panelOf, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(60_000);

/**
 * The chat panel in the desktop host (production main.js, Platform.isDesktopApp): toggled by
 * its command, answers streamed over the node transport from the local OpenAI-compatible
 * server, an http fence of an answer inserted into the note and run.
 */
type Page = HostApi;
let host: DesktopHost;
let server: OpenAiServer;
let doc: Document;
let page: Page;
const NOTE = "api/chat.md";
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

const chat = () => doc.querySelector<HTMLElement>("#sidebar .rb-chat");
const buttonIn = (root: ParentNode, label: string) => waitFor(`button "${label}"`, () => [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.getAttribute("aria-label") === label));

async function ask(question: string, model: string): Promise<void> {
	const root = chat();
	if (!root) throw new Error("the chat panel is not open");
	const select = await waitFor(`model ${model} in the picker`, () => {
		const s = root.querySelector<HTMLSelectElement>(".rb-chat-model");
		return s && [...s.options].some((o) => o.value === model) ? s : undefined;
	});
	select.value = model;
	select.dispatchEvent(new host.window.Event("change"));
	const input = root.querySelector<HTMLTextAreaElement>(".rb-chat-input");
	if (!input) throw new Error("no message box");
	input.value = question;
	input.dispatchEvent(new host.window.Event("input"));
	input.dispatchEvent(new host.window.KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
}

beforeAll(async () => {
	server = await startOpenAiServer();
	host = await launchDesktopHost();
	doc = host.document;
	page = host.page;
	await page.writeFile(USER_TOML, `[chat]\nbase_url = "${server.baseUrl}"\nmodel = "fence"\n`);
	await host.loadPlugin();
	// The host's editor is CodeMirror, which reads the DOM from globals.
	lendHostWindow(host);
	page.openEditor("# API\n\n```http alias=ok\nGET http://127.0.0.1:9/unused\n```\n", NOTE);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("the chat panel on desktop", () => {
	it("opens with its command, lists the server's models, and says nothing about streaming (desktop streams)", async () => {
		expect(chat()).toBeNull();
		expect(page.runCommand("toggle-chat")).toBe(true);
		const root = await waitFor("the chat panel", () => chat() ?? undefined);
		await waitFor("models from GET /models", () => root.querySelectorAll(".rb-chat-model option").length > 5);
		const note = root.querySelector<HTMLElement>(".rb-chat-note");
		expect(note?.style.display).toBe("none");
		expect(note?.textContent).toBe("");
		expect(server.requests.some((r) => r.path === "/v1/models")).toBe(true);
	});

	it("streams the answer: the message grows while the server is still writing it", async () => {
		const seen: string[] = [];
		const observer = new host.window.MutationObserver(() => {
			const body = doc.querySelector(".rb-chat-streaming .rb-chat-body");
			const t = body?.textContent ?? "";
			if (t && seen[seen.length - 1] !== t) seen.push(t);
		});
		observer.observe(doc.body, { subtree: true, childList: true, characterData: true });
		await ask("Write a request for /ok", "fence");
		const root = chat() as HTMLElement;
		const answer = await waitFor("the finished answer", () => [...root.querySelectorAll(".rb-chat-assistant:not(.rb-chat-streaming)")].find((m) => m.querySelector(".rb-chat-fence-actions")));
		observer.disconnect();
		// Several partial renders before the whole answer: it arrived in pieces.
		const partial = seen.filter((t) => t.startsWith("Try") && !t.includes("/ok"));
		expect(partial.length).toBeGreaterThan(1);
		expect(answer.querySelector("pre code")?.textContent).toBe(`GET ${server.origin}/ok`);
		const sent = JSON.parse(server.requests[server.requests.length - 1].body) as { stream: boolean; messages: Array<{ role: string; content: string }> };
		expect(sent.stream).toBe(true);
		expect(sent.messages[sent.messages.length - 1]).toEqual({ role: "user", content: "Write a request for /ok" });
	});

	it("saves the conversation as a note with model and date", async () => {
		const saved = await waitFor("a note in Chats/", () => [...page.files.entries()].find(([p]) => p.startsWith("Chats/")));
		expect(saved[0]).toMatch(/^Chats\/\d{4}-\d\d-\d\d \d\d-\d\d Write a request for ok\.md$/);
		expect(saved[1]).toMatch(/^---\nrunnable-blocks: chat\nmodel: "fence"\ncreated: \d{4}-/);
		expect(saved[1]).toContain("## You\n\nWrite a request for /ok\n\n## Assistant\n\nTry this block:");
	});

	it("inserts the answer's http fence below the cursor with a fresh alias, and the block runs against the server", async () => {
		const root = chat() as HTMLElement;
		(await buttonIn(root, "Insert below cursor")).click();
		const text = await waitFor("the inserted block", () => (page.editorText().includes("alias=ok-2") ? page.editorText() : undefined));
		expect(text).toContain(`\`\`\`http alias=ok-2\nGET ${server.origin}/ok\n\`\`\``);
		page.renderReading(text, NOTE);
		await clickRun(doc, "ok-2", true);
		expect(panelOf(doc, "ok-2").textContent).toContain("openai-server");
		expect(server.requests[server.requests.length - 1].path).toBe("/ok");
	});

	it("Stop closes the connection: the server sees the client go away", async () => {
		const closed = server.closed();
		await ask("count", "slow");
		await waitFor("ticks arriving", () => doc.querySelector(".rb-chat-streaming .rb-chat-body")?.textContent?.includes("tick tick"));
		(await buttonIn(chat() as HTMLElement, "Stop")).click();
		const seen = await closed;
		expect(JSON.parse(seen.body)).toMatchObject({ model: "slow" });
		await waitFor("the stopped answer", () => [...doc.querySelectorAll(".rb-chat-assistant")].some((m) => m.textContent?.includes("Stopped.")));
	});

	it("shows a rate limit as a state with its Retry-After, and a Retry button", async () => {
		await ask("again", "limited");
		const error = await waitFor("the error state", () => doc.querySelector<HTMLElement>('.rb-chat-error[data-code="rate_limited"]') ?? undefined);
		expect(error.textContent).toContain("The server is rate limiting requests.");
		expect(error.textContent).toContain("Retry in 7 s.");
		await buttonIn(error, "Retry");
	});

	it("toggles closed, and says Ollama may not be running when nothing listens at base_url", async () => {
		page.runCommand("toggle-chat");
		await waitFor("the panel closed", () => chat() === null);
		await page.writeFile(USER_TOML, `[chat]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "llama3.2"\n`);
		page.runCommand("reload-settings");
		// The settings reload in the background: open the panel until it reads the new base_url.
		let error: HTMLElement | undefined;
		for (let attempt = 0; attempt < 5 && !error; attempt++) {
			page.runCommand("toggle-chat");
			error = await waitFor("the models request to end", () => doc.querySelector<HTMLElement>('.rb-chat-error[data-code="connection_refused"]') ?? (doc.querySelectorAll(".rb-chat-model option").length > 5 ? null : undefined)).then((e) => e ?? undefined);
			if (!error) page.runCommand("toggle-chat");
		}
		expect(error).toBeDefined();
		expect(doc.querySelector(".rb-chat-error")?.textContent).toContain("Could not connect to http://127.0.0.1:9/v1. Is Ollama running?");
	});
});
