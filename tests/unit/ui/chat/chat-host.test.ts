/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { installDomHelpers, Platform } from "../../../e2e/host/obsidian-shim";
import { parseNote, type HttpNoteBlock } from "../../../../src/blocks";
import { serializeConversation } from "../../../../src/chat/conversation-note";
import { ECHO_PREFIX, startOpenAiServer } from "../../../support/openai-server";
import { chatVault } from "../../../support/chat-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// A first run and a first answer load the runner's and the client's modules, compiled on first require: slow on a busy machine.
jest.setTimeout(30_000);

const NOTE = ["# API", "```http alias=me", "GET {{base}}/me", "```", "tail"].join("\n");
const conversation = (question: string) => serializeConversation({ model: "echo", created: "2026-01-02T03:04:05Z", messages: [{ role: "user", content: question }], extraFrontMatter: [] });

const setUp = chatVault;

describe("PluginChatHost: the editor the chat reads", () => {
	it("gives the note, its blocks, the runnable block under the cursor and the selection", async () => {
		const s = await setUp();
		const at = NOTE.indexOf("GET");
		s.open("api.md", NOTE, at, at + 3);
		const ctx = s.host.editor();
		expect(ctx).toMatchObject({ path: "api.md", text: NOTE, selection: "GET" });
		expect(ctx?.blocks).toHaveLength(1);
		expect(ctx?.block?.alias).toBe("me");
	});

	it("gives no block when the cursor is outside every runnable block", async () => {
		const s = await setUp();
		s.open("api.md", NOTE, NOTE.indexOf("tail"));
		expect(s.host.editor()?.block).toBeNull();
	});

	it("remembers the note the user worked in once the panel has focus, and has none before", async () => {
		const s = await setUp();
		expect(s.host.editor()).toBeNull();
		s.open("api.md", NOTE, 0);
		s.host.trackLeaf();
		s.leave();
		expect(s.host.editor()?.path).toBe("api.md");
	});
});

describe("PluginChatHost: results, requests and secrets", () => {
	it("gives a block's last result once its run has ended, and the request Run would send", async () => {
		const s = await setUp();
		const note = parseNote(NOTE);
		const block = note[0] as HttpNoteBlock;
		expect(s.host.lastResult("api.md", block)).toBeNull();
		await s.engine.run("api.md", note, [block]);
		expect(s.host.lastResult("api.md", block)).toMatchObject({ state: "done", head: { status: 200 } });
		const prepared = s.host.prepare("api.md", note, block);
		expect(prepared.ok && prepared.request.url).toBe("http://api.test/me");
	});

	it("lists the environment's secrets and the API key as values a request must not carry", async () => {
		const s = await setUp('[chat]\napi_key = { secret = "chat-key" }\n', { secrets: { "chat-key": "sk-live-123" } });
		expect(s.host.secretValues()).toEqual(["env-secret", "sk-live-123"]);
		const none = await setUp();
		expect(none.host.secretValues()).toEqual(["env-secret"]);
	});

	it("has no schema to give without a db port", async () => {
		const s = await setUp();
		const db = parseNote("```db\nSELECT 1\n```")[0];
		await expect(db.kind === "db" ? s.host.dbSchema(db) : null).resolves.toBeNull();
	});
});

describe("PluginChatHost: saved conversations", () => {
	it("creates the chats folder and a note, and never overwrites another note of the same name", async () => {
		const s = await setUp('[chat]\nfolder = "AI/Chats"\n');
		await expect(s.host.saveConversation(null, "hello.md", conversation("hello"))).resolves.toBe("AI/Chats/hello.md");
		expect(s.folders).toEqual(new Set(["AI/Chats"]));
		await expect(s.host.saveConversation(null, "hello.md", conversation("again"))).resolves.toBe("AI/Chats/hello 2.md");
		await expect(s.host.saveConversation("AI/Chats/hello.md", "ignored.md", conversation("edited"))).resolves.toBe("AI/Chats/hello.md");
		expect(s.notes.get("AI/Chats/hello.md")?.text).toContain("edited");
	});

	it("lists the conversations of the chats folder, newest first, and reads one back", async () => {
		const s = await setUp();
		s.notes.set("Chats/old.md", { text: conversation("old question"), mtime: 1 });
		s.notes.set("Chats/new.md", { text: conversation("new question"), mtime: 2 });
		s.notes.set("Chats/plain.md", { text: "# not a chat", mtime: 3 });
		s.notes.set("Elsewhere/chat.md", { text: conversation("elsewhere"), mtime: 4 });
		const listed = await s.host.listConversations();
		expect(listed.map((c) => c.path)).toEqual(["Chats/new.md", "Chats/old.md"]);
		expect((await s.host.readConversation("Chats/old.md"))?.conversation.messages).toEqual([{ role: "user", content: "old question" }]);
		await expect(s.host.readConversation("Chats/plain.md")).resolves.toBeNull();
		await expect(s.host.readConversation("Chats/gone.md")).resolves.toBeNull();
	});
});

describe("PluginChatHost: the client", () => {
	const desktop = Platform.isDesktopApp;
	afterEach(() => (Platform.isDesktopApp = desktop));

	it("streams from [chat] base_url over the desktop transport, sending the API key from secret storage", async () => {
		const server = await startOpenAiServer({ apiKey: "sk-live-123" });
		try {
			Platform.isDesktopApp = true;
			const s = await setUp(`[chat]\nbase_url = "${server.baseUrl}"\napi_key = { secret = "chat-key" }\n`, { secrets: { "chat-key": "sk-live-123" } });
			expect(s.host.streamMode()).toEqual({ streams: true });
			const deltas: string[] = [];
			const outcome = await s.host.client().complete({ model: "echo", messages: [{ role: "user", content: "hi" }] }, { onDelta: (d) => deltas.push(d) });
			expect(outcome).toMatchObject({ kind: "done", text: `${ECHO_PREFIX}hi`, streamed: true });
			expect(deltas.join("")).toBe(`${ECHO_PREFIX}hi`);
			expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer sk-live-123");
			s.host.dispose();
		} finally {
			await server.close();
		}
	});

	it("says answers come whole where the platform cannot stream (requestUrl)", async () => {
		Platform.isDesktopApp = false;
		const s = await setUp();
		expect(s.host.streamMode()).toEqual({ streams: false, reason: "platform" });
	});
});
