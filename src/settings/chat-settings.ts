/** The `[chat]` table of user.toml (docs/chat.md): an OpenAI-compatible endpoint. */
export interface ChatSettings {
	/** Base URL of the API, ending before `/chat/completions` (Ollama's local one by default). */
	baseUrl: string;
	/** Model id; "" until the user picks one (the panel offers `GET /models`). */
	model: string;
	/** Secret id of the API key in Obsidian's secret storage, or null for servers without keys. */
	apiKeySecret: string | null;
	/** Sampling temperature, 0–2; null leaves it to the server. */
	temperature: number | null;
	/** What the panel lets a request hold, in estimated tokens; older turns are left out beyond it. */
	maxContextTokens: number;
	/** Vault folder the conversations are saved in. */
	folder: string;
	/** Attach the block under the cursor to a new message by default. */
	attachCurrentBlock: boolean;
	/** Characters of a block's last response attached at most. */
	responseCap: number;
	/** ms the server may stay silent (before the answer starts, or mid-stream) before the answer fails as a timeout. */
	timeoutMs: number;
}

export const DEFAULT_CHAT_BASE_URL = "http://127.0.0.1:11434/v1";

export function defaultChatSettings(): ChatSettings {
	return { baseUrl: DEFAULT_CHAT_BASE_URL, model: "", apiKeySecret: null, temperature: null, maxContextTokens: 8192, folder: "Chats", attachCurrentBlock: false, responseCap: 4000, timeoutMs: 120_000 };
}

type Report = (key: string, message: string) => void;

const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : v);
const isTable = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
const positiveInteger = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/**
 * Reads `[chat]` into `out`: an invalid value is an error for its key only (the default stays),
 * an unknown key a warning. `error`/`warn` take the key inside `[chat]`; the caller adds the position.
 */
export function parseChatTable(table: Record<string, unknown>, out: ChatSettings, error: Report, warn: Report): void {
	for (const [k, v] of Object.entries(table)) {
		switch (k) {
			case "base_url":
				if (typeof v === "string" && /^https?:\/\/[^/\s]+/i.test(v)) out.baseUrl = v.replace(/\/+$/, "");
				else error(k, `must be an http(s) URL such as "${DEFAULT_CHAT_BASE_URL}" (got ${show(v)})`);
				break;
			case "model":
				if (typeof v === "string") out.model = v;
				else error(k, `must be a string (got ${show(v)})`);
				break;
			case "api_key":
				if (isTable(v) && typeof v.secret === "string" && v.secret !== "" && Object.keys(v).length === 1) out.apiKeySecret = v.secret;
				// A key written in the file would be synced and committed with the vault.
				else if (typeof v === "string") error(k, `must be a secret reference such as { secret = "openai-key" }: the key itself belongs in secret storage, not in user.toml`);
				else error(k, `must be { secret = "id" } (got ${show(v)})`);
				break;
			case "temperature":
				if (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 2) out.temperature = v;
				else error(k, `must be a number from 0 to 2 (got ${show(v)})`);
				break;
			case "max_context_tokens":
				if (positiveInteger(v)) out.maxContextTokens = v;
				else error(k, `must be a positive integer (got ${show(v)})`);
				break;
			case "folder":
				if (typeof v === "string" && v.trim() !== "" && !v.split("/").includes("..")) out.folder = v.replace(/^\/+|\/+$/g, "");
				else error(k, `must be a vault folder such as "Chats" (got ${show(v)})`);
				break;
			case "attach_current_block":
				if (typeof v === "boolean") out.attachCurrentBlock = v;
				else error(k, `must be true or false (got ${show(v)})`);
				break;
			case "response_cap":
				if (positiveInteger(v)) out.responseCap = v;
				else error(k, `must be a positive integer number of characters (got ${show(v)})`);
				break;
			case "timeout":
				if (positiveInteger(v)) out.timeoutMs = v;
				else error(k, `must be a positive integer number of milliseconds (got ${show(v)})`);
				break;
			default:
				warn(k, `unknown key "${k}" is kept but ignored`);
		}
	}
}
