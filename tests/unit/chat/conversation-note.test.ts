import fc from "fast-check";
import { conversationFileName, normalizeContent, parseConversation, serializeConversation, type Conversation } from "../../../src/chat/conversation-note";

const sample: Conversation = {
	model: "llama3.2",
	created: "2026-11-25T10:00:00.000Z",
	extraFrontMatter: ["tags: [api]"],
	messages: [
		{ role: "user", content: "Write a request for the login endpoint" },
		{ role: "assistant", content: "Here:\n\n```http alias=login\nPOST {{base_url}}/login\n```\n\n## You\nis a heading the model wrote" },
	],
};

describe("conversations as Markdown notes", () => {
	it("writes front matter with model and date, then one section per message", () => {
		expect(serializeConversation(sample)).toBe(
			[
				"---",
				"runnable-blocks: chat",
				'model: "llama3.2"',
				"created: 2026-11-25T10:00:00.000Z",
				"tags: [api]",
				"---",
				"",
				"## You",
				"",
				"Write a request for the login endpoint",
				"",
				"## Assistant",
				"",
				"Here:",
				"",
				"```http alias=login",
				"POST {{base_url}}/login",
				"```",
				"",
				"\\## You",
				"is a heading the model wrote",
				"",
			].join("\n"),
		);
	});

	it("reads back what it wrote", () => {
		expect(parseConversation(serializeConversation(sample))).toEqual(sample);
	});

	it("is not a conversation without the chat marker", () => {
		expect(parseConversation("---\nmodel: x\n---\n## You\n\nhi\n")).toBeNull();
		expect(parseConversation("## You\n\nhi\n")).toBeNull();
	});

	it("reads a note the user edited: CRLF, single-quoted model, blank lines", () => {
		const c = parseConversation("---\r\nrunnable-blocks: chat\r\nmodel: 'gpt-4o'\r\ncreated: 2026-01-01T00:00:00Z\r\n---\r\n## You\r\n\r\n\r\nhello\r\n\r\n\r\n## Assistant\r\nhi\r\n");
		expect(c).toEqual({ model: "gpt-4o", created: "2026-01-01T00:00:00Z", extraFrontMatter: [], messages: [{ role: "user", content: "hello" }, { role: "assistant", content: "hi" }] });
	});

	it("resumes a note the user wrote around: a title before the first section is not a message, other headings stay in their message", () => {
		const c = parseConversation("---\nrunnable-blocks: chat\nmodel: echo\ncreated: 2026-01-01T00:00:00Z\naliases: [login chat]\n---\n# Login API\n\nnotes for me\n\n## You\n\nhow?\n\n## Assistant\n\n### Steps\n\n1. POST\n");
		expect(c).toEqual({
			model: "echo",
			created: "2026-01-01T00:00:00Z",
			extraFrontMatter: ["aliases: [login chat]"],
			messages: [
				{ role: "user", content: "how?" },
				{ role: "assistant", content: "### Steps\n\n1. POST" },
			],
		});
	});

	it("a conversation note with no section yet resumes as an empty conversation", () => {
		expect(parseConversation("---\nrunnable-blocks: chat\nmodel: x\n---\n")).toEqual({ model: "x", created: "", extraFrontMatter: [], messages: [] });
	});

	it("round-trips any conversation, headings and backslashes inside messages included", () => {
		const line = fc.oneof(fc.constantFrom("## You", "## Assistant", "\\## You", "\\\\## Assistant", "---", "", "```", "  code"), fc.string({ maxLength: 20 }).filter((s) => !/[\r\n]/.test(s)));
		const content = fc.array(line, { maxLength: 8 }).map((ls) => ls.join("\n"));
		const message = fc.record({ role: fc.constantFrom("user" as const, "assistant" as const), content });
		fc.assert(
			fc.property(fc.array(message, { maxLength: 6 }), fc.string({ maxLength: 20 }), (messages, model) => {
				const c: Conversation = { model, created: "2026-11-25T10:00:00.000Z", extraFrontMatter: [], messages };
				const back = parseConversation(serializeConversation(c));
				expect(back).toEqual({ ...c, messages: messages.map((m) => ({ ...m, content: normalizeContent(m.content) })) });
			}),
		);
	});

	it("names a new note after its date and first words, without characters a vault path refuses", () => {
		expect(conversationFileName("What does GET /users?id=1 return: #tags [x]", new Date("2026-11-25T10:05:00Z"))).toBe("2026-11-25 10-05 What does GET users id=1 return.md");
		expect(conversationFileName("   ", new Date("2026-11-25T10:05:00Z"))).toBe("2026-11-25 10-05.md");
	});
});
