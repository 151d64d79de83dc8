import initSqlJs from "sql.js";
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server";
import { eventually } from "./support/eventually";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * The chat panel in Chromium with the production main.js. The page is not Obsidian desktop
 * (no Node), so answers stream through fetch (the test server allows any origin, CORS);
 * tests/desktop/chat.test.ts covers the node transport, tests/integration/chat the fallback to
 * whole requestUrl answers when a server refuses the origin.
 */
let host: Host;
let server: OpenAiServer;
const panel = () => host.page.locator("#sidebar .rb-chat");
const NOTE = "# API\n\n```http alias=ok\nGET http://127.0.0.1:9/unused\n```\n\ntail";
const lastBody = () => JSON.parse(server.requests.filter((r) => r.path === "/v1/chat/completions").slice(-1)[0].body) as { model: string; stream: boolean; messages: Array<{ role: string; content: string }> };
const pick = (model: string) => panel().locator(".rb-chat-model").selectOption(model);

/** Waits for an answer holding `text` to have finished streaming (a message sent while one streams is not sent). */
const finished = (text: string) => panel().locator(".rb-chat-assistant:not(.rb-chat-streaming)", { hasText: text }).waitFor();

async function send(text: string): Promise<void> {
	const input = panel().locator(".rb-chat-input");
	await input.fill(text);
	await input.press("Enter");
}

beforeAll(async () => {
	server = await startOpenAiServer();
	host = await launchHost();
	await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), `[chat]\nbase_url = "${server.baseUrl}"\nmodel = "fence"\ntimeout = 1500\n\n[connections.shop]\ntype = "sqlite"\npath = "data/shop.sqlite"\n`);
	// The SQLite file the DB schema chip reads, made by sql.js here and put in the host's vault.
	const SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL); CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);");
	const bytes = [...db.export()];
	db.close();
	await host.api((h, b) => void h.binaries.set("data/shop.sqlite", new Uint8Array(b).buffer), bytes);
	await host.api((h) => h.loadPlugin());
	await host.api((h, m) => h.openEditor(m, "api/chat.md"), NOTE);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("the chat panel in Chromium", () => {
	it("toggles open with its command; answers stream here, so the panel says nothing about whole answers", async () => {
		await expect(panel().count()).resolves.toBe(0);
		await host.api((h) => h.runCommand("toggle-chat"));
		await panel().waitFor();
		await panel().locator(".rb-chat-model option", { hasText: "slow" }).waitFor({ state: "attached" });
		await expect(panel().locator(".rb-chat-note").isVisible()).resolves.toBe(false);
	});

	it("shows the answer as it streams, while the server still holds the stream; Stop closes the connection", async () => {
		await pick("slow");
		const closed = server.closed();
		await send("count");
		const streaming = panel().locator(".rb-chat-streaming .rb-chat-body");
		await eventually(async () => expect(await streaming.textContent()).toMatch(/^tick tick/));
		// Partial text on screen, and the server has neither ended the stream nor seen it closed.
		const request = server.requests.filter((r) => r.path === "/v1/chat/completions").slice(-1)[0];
		expect(request.closedEarly).toBe(false);
		expect(lastBody()).toMatchObject({ model: "slow", stream: true });
		const before = (await streaming.textContent()) ?? "";
		await eventually(async () => expect(((await streaming.textContent()) ?? "").length).toBeGreaterThan(before.length));
		await panel().locator(".rb-chat-actions button", { hasText: "Stop" }).click();
		const seen = await closed;
		expect(JSON.parse(seen.body)).toMatchObject({ model: "slow" });
		await panel().locator(".rb-chat-assistant", { hasText: "Stopped." }).waitFor();
	});

	it("sends with Enter (Shift+Enter is a new line) and renders the answer with its fence actions", async () => {
		await panel().locator(".rb-chat-top button", { hasText: "New conversation" }).click();
		await pick("fence");
		const input = panel().locator(".rb-chat-input");
		await input.click();
		await host.page.keyboard.type("Write a request");
		await host.page.keyboard.press("Shift+Enter");
		await host.page.keyboard.type("for /ok");
		await expect(input.inputValue()).resolves.toBe("Write a request\nfor /ok");
		await host.page.keyboard.press("Enter");
		// The finished answer: while it streams, a half-written fence already has its actions.
		const answer = panel().locator(".rb-chat-assistant:not(.rb-chat-streaming)");
		await answer.locator(".rb-chat-fence-actions").waitFor();
		await expect(panel().locator(".rb-chat-user .rb-chat-body").textContent()).resolves.toBe("Write a request\nfor /ok");
		await expect(answer.locator("pre code").textContent()).resolves.toBe(`GET ${server.origin}/ok`);
		expect(lastBody().stream).toBe(true);
	});

	it("inserts the http fence below the cursor as a runnable block with a fresh alias, which runs against the server", async () => {
		await host.page.locator(".cm-line", { hasText: "# API" }).click();
		await panel().locator(".rb-chat-fence-actions button", { hasText: "Insert below cursor" }).click();
		await expect(host.api((h) => h.editorText())).resolves.toContain(`\`\`\`http alias=ok-2\nGET ${server.origin}/ok\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: `${server.origin}/ok` }).click();
		await host.page.keyboard.press("Control+Enter");
		const done = host.page.locator('.rb-editor-panel .rb-panel[data-state="done"]');
		await done.waitFor();
		await expect(done.textContent()).resolves.toContain("openai-server");
		expect(server.requests[server.requests.length - 1].path).toBe("/ok");
	});

	it("Explain this response attaches the block's last response and asks about it", async () => {
		// The cursor is still in ok-2, which has run.
		await panel().locator(".rb-chat-quick button", { hasText: "Explain this response" }).click();
		await expect(panel().locator(".rb-chat-chip").textContent()).resolves.toContain("ok-2 → 200");
		await expect(panel().locator(".rb-chat-input").inputValue()).resolves.toBe("Explain this response: what it means and whether something looks wrong.");
		await pick("echo");
		await panel().locator(".rb-chat-input").press("Enter");
		await finished("you said: Explain this response");
		const sent = lastBody().messages.slice(-1)[0].content;
		expect(sent).toMatch(/^Explain this response: what it means and whether something looks wrong\.\n\n---\nContext I attached:/);
		expect(sent).toContain(`GET ${server.origin}/ok`);
		expect(sent).toContain('{"ok":true,"from":"openai-server"}');
		await expect(panel().locator(".rb-chat-chip").count()).resolves.toBe(0);
	});

	it("Write a request for… starts the question, and the user finishes it", async () => {
		await panel().locator(".rb-chat-quick button", { hasText: "Write a request for…" }).click();
		const input = panel().locator(".rb-chat-input");
		await expect(input.inputValue()).resolves.toBe("Write an http block that ");
		await host.page.keyboard.type("lists users");
		await expect(input.inputValue()).resolves.toBe("Write an http block that lists users");
		await host.page.keyboard.press("Enter");
		await finished("you said: Write an http block that lists users");
		expect(lastBody().messages.slice(-1)[0]).toEqual({ role: "user", content: "Write an http block that lists users" });
	});

	it("a server that never answers ends, after [chat] timeout, in a clear timeout state with Retry; the connection is closed", async () => {
		const quietSince = server.requests.length;
		await pick("silent");
		await send("anyone there?");
		const error = panel().locator('.rb-chat-error[data-code="timeout"]');
		await error.waitFor();
		await expect(error.locator(".rb-chat-error-message").textContent()).resolves.toBe("The server did not answer in time ([chat] timeout: 1.5 s).");
		await expect(error.locator("button", { hasText: "Retry" }).count()).resolves.toBe(1);
		await expect(panel().locator(".rb-chat-actions button", { hasText: "Send" }).isVisible()).resolves.toBe(true);
		await eventually(() => expect(server.requests.slice(quietSince).find((r) => r.path === "/v1/chat/completions")?.closedEarly).toBe(true));
	});

	it("resumes a conversation from its note (command, which opens the panel): the history is shown and sent with the next question", async () => {
		await host.api((h) => h.runCommand("toggle-chat"));
		await expect(panel().count()).resolves.toBe(0);
		const note = ["---", "runnable-blocks: chat", 'model: "echo"', "created: 2026-01-02T03:04:05.000Z", "tags: [api]", "---", "", "## You", "", "What is /ok?", "", "## Assistant", "", "An endpoint that answers JSON.", ""].join("\n");
		const path = "Chats/2026-01-02 03-04 What is ok.md";
		await host.api((h, a) => h.writeFile(a[0], a[1]), [path, note]);
		await host.api((h, a) => h.openEditor(a[1], a[0]), [path, note]);
		await expect(host.api((h) => h.runCommand("resume-chat"))).resolves.toBe(true);
		await panel().locator(".rb-chat-user", { hasText: "What is /ok?" }).waitFor();
		await expect(panel().locator(".rb-chat-assistant .rb-chat-body").textContent()).resolves.toBe("An endpoint that answers JSON.");
		await expect(panel().locator(".rb-chat-model").inputValue()).resolves.toBe("echo");
		await expect(panel().locator(".rb-chat-conversations").inputValue()).resolves.toBe(path);
		await send("And /missing?");
		await finished("you said: And /missing?");
		expect(lastBody().messages.slice(1)).toEqual([
			{ role: "user", content: "What is /ok?" },
			{ role: "assistant", content: "An endpoint that answers JSON." },
			{ role: "user", content: "And /missing?" },
		]);
		// The same note grows; what the user added to its front matter stays.
		await eventually(async () => expect(await host.api((h, p) => h.files.get(p), path)).toContain("## You\n\nAnd /missing?\n\n## Assistant\n\nOlá"));
		await expect(host.api((h, p) => h.files.get(p), path)).resolves.toContain("tags: [api]");
	});

	it("opening a conversation note while the panel is open resumes it there; another note changes nothing", async () => {
		const note = ["---", "runnable-blocks: chat", 'model: "fence"', "created: 2026-02-03T04:05:06.000Z", "---", "", "## You", "", "Second chat", "", "## Assistant", "", "Second answer", ""].join("\n");
		const path = "Chats/2026-02-03 04-05 Second chat.md";
		await host.api((h, a) => h.writeFile(a[0], a[1]), [path, note]);
		await host.api((h, a) => h.openEditor(a[1], a[0]), [path, note]);
		await panel().locator(".rb-chat-user", { hasText: "Second chat" }).waitFor();
		await expect(panel().locator(".rb-chat-message").count()).resolves.toBe(2);
		await expect(panel().locator(".rb-chat-conversations").inputValue()).resolves.toBe(path);
		await host.api((h, m) => h.openEditor(m, "api/chat.md"), NOTE);
		// A note that is not a conversation leaves the panel as it was.
		await expect(panel().locator(".rb-chat-conversations").inputValue()).resolves.toBe(path);
		await expect(panel().locator(".rb-chat-user .rb-chat-body").textContent()).resolves.toBe("Second chat");
	});

	it("the resume command is not offered in a note that is not a conversation", async () => {
		await host.api((h, m) => h.openEditor(m, "api/chat.md"), NOTE);
		await expect(host.api((h) => h.runCommand("resume-chat"))).resolves.toBe(false);
	});

	it("DB schema attaches the tables and typed columns of the db block's connection, and they are sent", async () => {
		await host.api((h, m) => h.openEditor(m, "api/books.md"), "# Books\n\n```db connection=shop alias=cheap\nSELECT title FROM books WHERE price < 5\n```\n");
		await host.page.locator(".cm-line", { hasText: "SELECT title" }).click();
		await panel().locator(".rb-chat-attach button", { hasText: "DB schema" }).click();
		const chip = panel().locator(".rb-chat-chip");
		await chip.waitFor();
		await expect(chip.textContent()).resolves.toContain("shop");
		await pick("echo");
		await send("Which books are cheap?");
		await finished("you said: Which books are cheap?");
		const sent = lastBody().messages.slice(-1)[0].content;
		expect(sent).toMatch(/books\b[^\n]*\btitle\b[^\n]*TEXT/);
		expect(sent).toMatch(/authors\b[^\n]*\bname\b[^\n]*TEXT/);
		expect(sent).toContain("price REAL");
	});

	it("toggles closed", async () => {
		await host.api((h) => h.runCommand("toggle-chat"));
		await expect(panel().count()).resolves.toBe(0);
	});
});
