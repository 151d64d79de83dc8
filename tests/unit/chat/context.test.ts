import { blockChip, buildRequest, estimateTokens, noteBlocksChip, previewText, responseChip, selectionChip, SYSTEM_PROMPT } from "../../../src/chat/context";
import { parseNote } from "../../../src/blocks";
import { createEngine } from "../../../src/runner/engine";
import type { BlockResult } from "../../../src/runner/result";

const note = "# API\n\n```http alias=login\nPOST https://x.test/login\nAuthorization: Bearer {{token}}\n```\n\n```http\nGET https://x.test/items\n```\n";
const blocks = parseNote(note);
const result = (body: string): BlockResult => ({
	kind: "http",
	state: "done",
	receivedBytes: body.length,
	request: {
		method: "POST",
		url: "https://x.test/login",
		headers: [["Authorization", "Bearer s3cr3t-value"]],
		body: "",
		followRedirects: true,
		timeoutMs: 1000,
		masked: { url: "https://x.test/login", headers: [["Authorization", "Bearer •••"]], body: "", target: "/login", withReferences: { url: "https://x.test/login", headers: [["Authorization", "Bearer {{token}}"]], body: "" } },
	},
	head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "application/json"]], url: "https://x.test/login", redirects: 0 },
	body: new TextEncoder().encode(body),
});
const base = { model: "m", temperature: null, history: [], secretValues: [], maxContextTokens: 8192 };

describe("context chips", () => {
	it("a block chip holds the block's fence as written (references, not values)", () => {
		const chip = blockChip(blocks[0], "api.md");
		expect(chip).toMatchObject({ kind: "block", label: "login" });
		expect(chip.text).toContain("```http alias=login\nPOST https://x.test/login\nAuthorization: Bearer {{token}}\n```");
		expect(blockChip(blocks[1], "api.md").label).toBe("block 2");
	});

	it("with the engine's preparation, a block chip also holds the request Run would send now, secrets as •••, or why it cannot run", () => {
		const note = parseNote("```http\n@host = x.test\n```\n\n```http alias=login\nPOST https://{{host}}/login\nAuthorization: Bearer {{token}}\n\n{\"user\": \"{{user}}\"}\n```\n");
		const login = note[1];
		if (login.kind !== "http") throw new Error("not http");
		const engine = createEngine({
			transport: () => {
				throw new Error("a chip sends nothing");
			},
			history: () => null,
			environment: () => ({ name: "dev", variables: { token: "s3cr3t-value", user: "ana" }, secretValues: ["s3cr3t-value"], secretNames: ["token"], unsetSecretNames: [] }),
			defaultTimeoutMs: () => 1000,
		});
		const chip = blockChip(login, "api.md", engine.prepare("api.md", note, login));
		expect(chip.text).toContain("```http alias=login\nPOST https://{{host}}/login\nAuthorization: Bearer {{token}}");
		expect(chip.text).toContain('As Run would send it now (secrets as •••):\n```http\nPOST https://x.test/login\nAuthorization: Bearer •••\n\n{"user": "ana"}\n```');
		expect(chip.text).not.toContain("s3cr3t-value");
		expect(blockChip(login, "api.md", engine.prepare("api.md", [login], login)).text).toMatch(/\nIt cannot run now: Unresolved reference \{\{host\}\}/);
	});

	it("the note's blocks chip holds every block, fenced so inner fences cannot close it", () => {
		const chip = noteBlocksChip(blocks, "dir/api.md");
		expect(chip.label).toBe("api.md: 2");
		expect(chip.text).toMatch(/^The runnable blocks of dir\/api.md:\n````markdown\n```http alias=login/);
		expect(chip.text.endsWith("\n````")).toBe(true);
	});

	it("a response chip has status, headers and body, the request's secrets masked, cut at the cap", () => {
		const chip = responseChip("login", result(`{"items":"${"x".repeat(200)}"}`), 120);
		expect(chip.label).toBe("login → 200");
		expect(chip.text).toContain("POST https://x.test/login\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"items\"");
		expect(chip.text).not.toContain("s3cr3t-value");
		expect(chip.text).toMatch(/… \(\d+ more characters not attached\)/);
	});

	it("a selection chip is labelled with its first words", () => {
		expect(selectionChip("the quick brown fox jumps").label).toBe("the quick brown fox");
	});
});

describe("the request that is sent", () => {
	it("is the system prompt, the history and the question with its context", () => {
		const built = buildRequest({ ...base, history: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }], question: "why?", chips: [selectionChip("sel")] });
		expect(built.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
		expect(built.body.messages[0].content).toBe(SYSTEM_PROMPT);
		expect(built.body.messages[3].content).toBe("why?\n\n---\nContext I attached:\n\nSelected text:\n```\nsel\n```");
		expect(built.body).not.toHaveProperty("temperature");
		expect(built.tokens).toBe(estimateTokens(built.body.messages));
	});

	it("sends no context the user did not attach", () => {
		expect(buildRequest({ ...base, question: "hi", chips: [] }).body.messages[1]).toEqual({ role: "user", content: "hi" });
	});

	it("masks secret values in the question, the history and every chip", () => {
		const built = buildRequest({ ...base, secretValues: ["tok-123", "p@ss word"], history: [{ role: "assistant", content: "use tok-123" }], question: "is p@ss%20word or p@ss word ok?", chips: [selectionChip("Authorization: tok-123")] });
		const sent = JSON.stringify(built.body);
		expect(sent).not.toContain("tok-123");
		expect(sent).not.toContain("p@ss word");
		expect(sent).not.toContain("p%40ss%20word");
		// The question had two forms of a secret, the history and the chip one each.
		expect(JSON.stringify(built.body.messages.slice(1)).match(/•••/g)?.length).toBe(4);
	});

	it("leaves out the oldest turns to stay under max_context_tokens, and says how many", () => {
		const history = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? ("assistant" as const) : ("user" as const), content: `${i} ${"w".repeat(396)}` }));
		// Room for the system prompt, the last turn and the question, not one turn more.
		const limit = estimateTokens([{ role: "system", content: SYSTEM_PROMPT }, history[9], { role: "user", content: "q" }]);
		const built = buildRequest({ ...base, history, question: "q", chips: [], maxContextTokens: limit + 50 });
		expect(built.droppedTurns).toBe(9);
		expect(built.body.messages[1].content.startsWith("9 ")).toBe(true);
		expect(built.tokens).toBe(limit);
		expect(built.overLimit).toBe(false);
		expect(buildRequest({ ...base, question: "x".repeat(4000), chips: [], maxContextTokens: 100 }).overLimit).toBe(true);
	});

	it("the preview is the request line, headers (key as •••) and the exact JSON body", () => {
		const built = buildRequest({ ...base, temperature: 0.5, question: "hi", chips: [] });
		const preview = previewText({ baseUrl: "http://127.0.0.1:11434/v1/", apiKey: "sk-real" }, built, true);
		expect(preview.split("\n").slice(0, 4)).toEqual(["POST http://127.0.0.1:11434/v1/chat/completions", "Content-Type: application/json", "Accept: text/event-stream", "Authorization: Bearer •••"]);
		expect(preview).not.toContain("sk-real");
		expect(JSON.parse(preview.slice(preview.indexOf("\n\n") + 2))).toEqual({ ...built.body, stream: true });
	});
});
