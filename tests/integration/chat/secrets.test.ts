import { createChatClient } from "../../../src/chat/client";
import { readResult } from "../../../src/runner/block-runners";
import { blockChip, buildRequest, responseChip, selectionChip } from "../../../src/chat/context";
import { parseNote } from "../../../src/blocks";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import { prepareRequest } from "../../../src/runner/prepare";
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server";

let server: OpenAiServer;
const node = createNodeTransport();
beforeAll(async () => (server = await startOpenAiServer({ apiKey: "chat-key", split: 1024 })));
afterAll(async () => {
	node.close();
	await server.close();
});

const SECRET = "tok-Ünï 42/+=";

it("secret values never reach the chat server, in any attached context; the key only in its header", async () => {
	const note = "```http alias=me\nGET https://api.test/me?key={{token}}\nAuthorization: Bearer {{token}}\n```\n";
	const [block] = parseNote(note);
	const prepared = prepareRequest(block, { env: { token: SECRET }, aliases: new Set(["me"]), result: () => undefined, read: readResult, secretNames: new Set(["token"]) });
	if (!prepared.ok) throw new Error(prepared.error.message);
	// The response echoes the secret back, raw and percent-encoded, as APIs do.
	const echoed = `{"you_sent":"${SECRET}","query":"${encodeURIComponent(SECRET)}"}`;
	const result = { kind: "http" as const, state: "done" as const, receivedBytes: echoed.length, request: prepared.request, head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["X-Echo", SECRET]] as Array<[string, string]>, url: prepared.request.url, redirects: 0 }, body: new TextEncoder().encode(echoed) };
	const built = buildRequest({
		model: "echo",
		temperature: null,
		history: [{ role: "assistant", content: `earlier I saw ${SECRET}` }],
		question: `why does ${SECRET} fail?`,
		chips: [blockChip(block, "api.md", prepared), responseChip("me", result, 4000), selectionChip(`token = ${SECRET}`)],
		secretValues: [SECRET],
		maxContextTokens: 8192,
	});
	const out = await createChatClient(node, { baseUrl: server.baseUrl, apiKey: "chat-key" }).complete(built.body);
	expect(out.kind).toBe("done");

	const seen = server.requests[server.requests.length - 1];
	expect(seen.path).toBe("/v1/chat/completions");
	for (const form of [SECRET, encodeURIComponent(SECRET), encodeURI(SECRET)]) expect(seen.body).not.toContain(form);
	expect(seen.body).toContain("•••");
	// The block went as written: its reference, not the value.
	expect(seen.body).toContain("{{token}}");
	expect(seen.headers.authorization).toBe("Bearer chat-key");
	expect(seen.body).not.toContain("chat-key");
});
