import { parseNote } from "../../../src/blocks";
import { answerPrompts } from "../../../src/runner/prompt-answers";
import type { PrepareContext } from "../../../src/runner/prepare";

const prepare: PrepareContext = { env: { user: "env" }, aliases: new Set(), result: () => undefined, read: () => ({ ok: false, message: "" }), secretNames: new Set(["token"]) };
const [prompted, plain] = parseNote("```http alias=a\n# @prompt user\n# @prompt password\nGET http://127.0.0.1/{{user}}\n```\n```http alias=b\nGET http://127.0.0.1/\n```");

describe("answerPrompts", () => {
	it("asks nothing of a block without prompts", async () => {
		const ask = jest.fn();
		expect(await answerPrompts(plain, prepare, { filePath: "n.md", ask })).toEqual({ ok: true, prepare });
		expect(ask).not.toHaveBeenCalled();
	});

	it("puts the answers in the context, each prompt's (an unanswered one empty), the hidden ones among the secrets", async () => {
		const answered = await answerPrompts(prompted, prepare, { filePath: "n.md", ask: () => Promise.resolve({ ok: true, values: { user: "ana", other: "x" } }) });
		expect(answered).toEqual({ ok: true, prepare: { ...prepare, answers: { user: "ana", password: "" }, secretNames: new Set(["token", "password"]) } });
	});

	it("passes the run's signal to the asker, and says why when it cannot answer", async () => {
		const signal = new AbortController().signal;
		const ask = jest.fn().mockResolvedValue({ ok: false, cancelled: false, message: "no terminal" });
		expect(await answerPrompts(prompted, prepare, { filePath: "n.md", ask, signal })).toEqual({ ok: false, result: { state: "failed", error: { code: "prompt_not_answered", message: "no terminal" } } });
		expect(ask).toHaveBeenCalledWith({ filePath: "n.md", block: prompted, prompts: [expect.objectContaining({ name: "user" }), expect.objectContaining({ name: "password", secret: true })], confirm: null }, signal);
	});

	it("asks a block with only a # @note to be confirmed: its words, no prompts; closed, it is cancelled as not confirmed", async () => {
		const [noted] = parseNote("```http alias=drop\n# @note Deletes everything\nDELETE http://127.0.0.1/all\n```");
		const ask = jest.fn().mockResolvedValue({ ok: false, cancelled: true });
		expect(await answerPrompts(noted, prepare, { filePath: "n.md", ask })).toEqual({ ok: false, result: { state: "cancelled", error: { code: "cancelled", message: "[cancelled]", detail: "not confirmed" } } });
		expect(ask).toHaveBeenCalledWith({ filePath: "n.md", block: noted, prompts: [], confirm: "Deletes everything" }, undefined);
		expect(await answerPrompts(noted, prepare, { filePath: "n.md" })).toEqual({ ok: false, result: { state: "failed", error: { code: "prompt_not_answered", message: "it asks to be confirmed (# @note), and nothing here can ask" } } });
	});
});
