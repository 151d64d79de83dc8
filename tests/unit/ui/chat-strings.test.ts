import type { ChatFailureCode } from "../../../src/chat/failures";
import { CHAT_TABLES, chatTable, failureKey } from "../../../src/ui/chat/chat-strings";

const CODES: ChatFailureCode[] = ["connection_refused", "unauthorized", "model_not_found", "endpoint_not_found", "context_too_long", "rate_limited", "malformed_stream", "interrupted", "timeout", "invalid_url", "server_error"];

describe("chat panel strings", () => {
	it("follows Obsidian's language code, falling back to English", () => {
		expect(chatTable("pt-BR").send).toBe("Enviar");
		expect(chatTable("es").stop).toBe("Detener");
		expect(chatTable("fr").stop).toBe("Stop");
		expect(chatTable(null).stop).toBe("Stop");
	});

	it("has a text for every failure state, in every language", () => {
		for (const table of Object.values(CHAT_TABLES)) for (const code of CODES) expect(table[failureKey(code)]).toBeTruthy();
		expect(chatTable("en")[failureKey("connection_refused")]).toBe("Could not connect to {url}. Is Ollama running?");
	});

	it("has every key translated, with the same placeholders", () => {
		const en = CHAT_TABLES.en;
		const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
		for (const [lang, table] of Object.entries(CHAT_TABLES)) {
			for (const key of Object.keys(en) as Array<keyof typeof en>) expect([lang, key, holes(table[key])]).toEqual([lang, key, holes(en[key])]);
		}
	});
});
