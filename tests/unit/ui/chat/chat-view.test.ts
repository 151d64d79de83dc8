/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { serializeConversation } from "../../../../src/chat/conversation-note";
import { ChatView } from "../../../../src/ui/chat/chat-view";
import { CHAT_VIEW_TYPE } from "../../../../src/ui/chat/chat-view-type";
import { t } from "../../../../src/ui/strings";
import { installDomHelpers, notices, WorkspaceLeaf } from "../../../e2e/host/obsidian-shim";
import { chatVault, openAiServerOnDesktop } from "../../../support/chat-vault";
import { ECHO_PREFIX, MODELS } from "../../../support/openai-server";
import { until } from "../../../support/until";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// The client's and the answer view's modules are compiled on first use: slow on a busy machine.
jest.setTimeout(30_000);

const openAi = openAiServerOnDesktop();
afterEach(() => document.body.empty());

const NOTE = ["# API", "```http alias=me", "GET {{base}}/me", "```", "tail"].join("\n");

/** The chat panel opened in a leaf over a vault whose [chat] section is `chat` (the model and more). */
async function panel(chat = 'model = "echo"\n', notes: Record<string, string> = {}) {
	const vault = await chatVault(`[chat]\nbase_url = "${openAi().baseUrl}"\n${chat}`);
	for (const [path, text] of Object.entries(notes)) vault.notes.set(path, { text, mtime: 1 });
	const views = new Map([[CHAT_VIEW_TYPE, (leaf: WorkspaceLeaf) => new ChatView(leaf as never, vault.host) as never]]);
	const leaf = new WorkspaceLeaf(vault.app, views, () => undefined);
	await leaf.setViewState({ type: CHAT_VIEW_TYPE });
	const view = leaf.view as unknown as ChatView;
	const q = <T extends HTMLElement = HTMLElement>(sel: string) => view.contentEl.querySelector<T>(sel);
	const all = (sel: string) => Array.from(view.contentEl.querySelectorAll<HTMLElement>(sel));
	const ask = (question: string) => {
		const input = q<HTMLTextAreaElement>(".rb-chat-input") as HTMLTextAreaElement;
		input.value = question;
		input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
	};
	const messages = () => all(".rb-chat-message:not(.rb-chat-streaming)").map((m) => [m.querySelector(".rb-chat-role")?.textContent, m.querySelector(".rb-chat-body")?.textContent]);
	const button = (label: string) => all("button").find((b) => b.getAttribute("aria-label") === label);
	return { ...vault, leaf, view, q, all, ask, messages, button };
}

describe("the chat panel", () => {
	it("lists the server's models, with the configured one chosen, and the saved conversations", async () => {
		const earlier = serializeConversation({ model: "echo", created: "2026-01-01T00:00:00Z", messages: [{ role: "user", content: "hi" }], extraFrontMatter: [] });
		const p = await panel('model = "echo"\n', { "Chats/earlier.md": earlier, "notes/plain.md": "# not a chat" });
		await until(() => (p.q<HTMLSelectElement>(".rb-chat-model")?.options.length ?? 0) > 1);
		const models = Array.from(p.q<HTMLSelectElement>(".rb-chat-model")?.options ?? [], (o) => o.value);
		expect(models[0]).toBe("echo");
		expect([...models].sort()).toEqual([...MODELS].sort());
		expect(Array.from(p.q<HTMLSelectElement>(".rb-chat-conversations")?.options ?? [], (o) => o.value)).toEqual(["", "Chats/earlier.md"]);
		expect(p.q<HTMLSelectElement>(".rb-chat-model")?.value).toBe("echo");
		expect(p.q(".rb-chat-error")?.style.display).toBe("none");
	});

	it("sends a question on Enter, shows the streamed answer and saves the conversation in its note", async () => {
		const p = await panel();
		p.ask("what is 2+2?");
		await until(() => p.view.conversationPath() !== null);
		expect(p.messages()).toEqual([
			[t("chatYou"), "what is 2+2?"],
			[t("chatAssistant"), `${ECHO_PREFIX}what is 2+2?`],
		]);
		const path = p.view.conversationPath() as string;
		expect(path.startsWith("Chats/")).toBe(true);
		expect(p.notes.get(path)?.text).toContain(`${ECHO_PREFIX}what is 2+2?`);
		expect(p.q<HTMLTextAreaElement>(".rb-chat-input")?.value).toBe("");
		expect(p.view.isRunning()).toBe(false);
	});

	it("keeps a secret of the environment out of the saved note and the request", async () => {
		const p = await panel();
		p.ask("is env-secret safe?");
		await until(() => p.view.conversationPath() !== null);
		const saved = p.notes.get(p.view.conversationPath() as string)?.text ?? "";
		expect(saved).not.toContain("env-secret");
		expect(openAi().requests.at(-1)?.body).not.toContain("env-secret");
	});

	it("refuses to send without a model, keeping the question", async () => {
		const p = await panel("");
		const before = notices.length;
		const input = p.q<HTMLTextAreaElement>(".rb-chat-input") as HTMLTextAreaElement;
		p.ask("anyone there?");
		await until(() => notices.length > before);
		expect(notices.slice(before)).toEqual([expect.stringContaining(t("chatChooseModelFirst"))]);
		expect(input.value).toBe("anyone there?");
		expect(p.messages()).toEqual([]);
	});

	it("shows the server's failure with its code and a Retry that asks again", async () => {
		const p = await panel('model = "boom"\n');
		p.ask("fail please");
		await until(() => p.q(".rb-chat-error")?.dataset.code !== undefined);
		expect(p.q(".rb-chat-error")?.style.display).not.toBe("none");
		const asked = openAi().requests.filter((r) => r.path.endsWith("/chat/completions")).length;
		p.q(".rb-chat-error")?.querySelector<HTMLElement>("button")?.click();
		await until(() => openAi().requests.filter((r) => r.path.endsWith("/chat/completions")).length === asked + 1);
		expect(p.view.conversationPath()).toBeNull();
	});

	it("stops an answer in flight: the server sees the hang-up and the answer says it was stopped", async () => {
		const p = await panel('model = "slow"\n');
		p.ask("take your time");
		// Stop once the answer is streaming, so the server holds the request.
		await until(() => openAi().requests.some((r) => r.body.includes("take your time")));
		await until(() => (p.q(".rb-chat-streaming .rb-chat-body")?.textContent ?? t("chatThinking")) !== t("chatThinking"));
		const closed = openAi().closed();
		p.button(t("chatStop"))?.click();
		await closed;
		await until(() => !p.view.isRunning() && p.view.conversationPath() !== null);
		expect(p.messages().at(-1)?.[1]).toContain(t("chatStopped"));
	});

	it("attaches the block under the cursor as a chip, and removes it again", async () => {
		const p = await panel();
		p.open("api.md", NOTE, NOTE.indexOf("GET"));
		p.button(t("chatAttachBlock"))?.click();
		expect(p.all(".rb-chat-chip").map((c) => c.dataset.kind)).toEqual(["block"]);
		p.q(".rb-chat-chip button")?.click();
		expect(p.all(".rb-chat-chip")).toEqual([]);
	});

	it("says what is missing when there is nothing to attach", async () => {
		const p = await panel();
		const before = notices.length;
		p.button(t("chatAttachSelection"))?.click();
		expect(notices.slice(before)).toEqual([expect.stringContaining(t("chatNothingToAttach", { what: t("chatNoEditor") }))]);
		expect(p.all(".rb-chat-chip")).toEqual([]);
	});

	it("starts a new conversation, and resumes a saved one", async () => {
		const p = await panel();
		p.ask("first");
		await until(() => p.view.conversationPath() !== null);
		const path = p.view.conversationPath() as string;
		p.button(t("chatNewChat"))?.click();
		expect([p.view.conversationPath(), p.messages()]).toEqual([null, []]);
		const saved = await p.host.readConversation(path);
		p.view.resume(saved as NonNullable<typeof saved>);
		expect(p.view.conversationPath()).toBe(path);
		expect(p.messages()[0]).toEqual([t("chatYou"), "first"]);
	});
});
