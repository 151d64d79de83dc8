import { formatProblem, parseSettings } from "../../../src/settings/user-settings";

const chatOf = (toml: string) => {
	const r = parseSettings(toml);
	if (!r.ok) throw new Error(`expected ok: ${r.errors.map(formatProblem).join("; ")}`);
	return r;
};

describe("[chat] in user.toml", () => {
	it("defaults to Ollama's local endpoint, no model, no key", () => {
		expect(chatOf("").settings.chat).toEqual({
			baseUrl: "http://127.0.0.1:11434/v1",
			model: "",
			apiKeySecret: null,
			temperature: null,
			maxContextTokens: 8192,
			folder: "Chats",
			attachCurrentBlock: false,
			responseCap: 4000,
			timeoutMs: 120000,
		});
	});

	it("reads every key of the design's example, the API key as a secret reference", () => {
		const r = chatOf(
			[
				"[chat]",
				'base_url = "https://api.openai.com/v1/"   # trailing slash dropped',
				'model = "gpt-4o-mini"',
				'api_key = { secret = "openai-key" }',
				"temperature = 0.2",
				"max_context_tokens = 16000",
				'folder = "AI/Chats/"',
				"attach_current_block = true",
				"response_cap = 2000",
				"timeout = 30000",
			].join("\n"),
		);
		expect(r.errors).toEqual([]);
		expect(r.warnings).toEqual([]);
		expect(r.settings.chat).toEqual({
			baseUrl: "https://api.openai.com/v1",
			model: "gpt-4o-mini",
			apiKeySecret: "openai-key",
			temperature: 0.2,
			maxContextTokens: 16000,
			folder: "AI/Chats",
			attachCurrentBlock: true,
			responseCap: 2000,
			timeoutMs: 30000,
		});
	});

	it.each([
		['base_url = "ftp://x"', "user.toml:2:12: chat.base_url: must be an http(s) URL"],
		['api_key = "sk-123"', "user.toml:2:11: chat.api_key: must be a secret reference"],
		["api_key = { secret = 1 }", 'user.toml:2:11: chat.api_key: must be { secret = "id" }'],
		["temperature = 3", "user.toml:2:15: chat.temperature: must be a number from 0 to 2 (got 3)"],
		["max_context_tokens = 0", "user.toml:2:22: chat.max_context_tokens: must be a positive integer (got 0)"],
		['folder = "../outside"', "user.toml:2:10: chat.folder: must be a vault folder"],
		["model = 3", "user.toml:2:9: chat.model: must be a string (got 3)"],
		["timeout = 1.5", "user.toml:2:11: chat.timeout: must be a positive integer number of milliseconds (got 1.5)"],
	])("reports %s with file:line:column and keeps the default", (line, expected) => {
		const r = chatOf(`[chat]\n${line}\n`);
		expect(r.errors.map(formatProblem)).toHaveLength(1);
		expect(formatProblem(r.errors[0])).toContain(expected);
		expect(r.settings.chat).toEqual(chatOf("").settings.chat);
	});

	it("warns about an unknown key, with its position", () => {
		const r = chatOf('[chat]\nmodel = "llama3.2"\nstream = false\n');
		expect(r.warnings.map(formatProblem)).toEqual(['user.toml:3:10: chat.stream: unknown key "stream" is kept but ignored']);
		expect(r.settings.chat.model).toBe("llama3.2");
	});
});
