import { PassThrough } from "node:stream";
import { parseNote, promptsOf } from "../../../src/blocks";
import { cliPromptAsker, type PromptTerminal } from "../../../src/cli/prompt-asker";

const [block] = parseNote("```http alias=verify\n# @prompt user\n# @prompt otp Your one-time password\nGET http://127.0.0.1/{{user}}?otp={{otp}}\n```");
const question = { filePath: "api.md", block, prompts: promptsOf(block), confirm: null };

/** A terminal whose keys the test types and whose screen it reads; `isTTY` as a terminal's. */
function fakeTerminal(isTTY = true) {
	const input = Object.assign(new PassThrough(), { isTTY, rawMode: [] as boolean[], setRawMode(raw: boolean) {
		this.rawMode.push(raw);
	} });
	const output = Object.assign(new PassThrough(), { isTTY });
	let screen = "";
	output.on("data", (c: Buffer) => (screen += c.toString()));
	const terminal: PromptTerminal = { input, output };
	return { terminal, input, screen: () => screen };
}

/** Types `keys` once the screen shows `question`. */
async function typeWhenAsked(t: ReturnType<typeof fakeTerminal>, question: string, keys: string): Promise<void> {
	while (!t.screen().includes(question)) await new Promise((r) => setImmediate(r));
	t.input.write(keys);
}

describe("cliPromptAsker", () => {
	it("answers from --var without asking", async () => {
		const t = fakeTerminal();
		expect(await cliPromptAsker({ user: "ana", otp: "1234", other: "x" }, t.terminal)(question)).toEqual({ ok: true, values: { user: "ana", otp: "1234" } });
		expect(t.screen()).toBe("");
	});

	it("asks the rest on the terminal: what is typed shows, a hidden answer does not, backspace takes back a key", async () => {
		const t = fakeTerminal();
		const reply = cliPromptAsker({ user: "ana" }, t.terminal)(question);
		await typeWhenAsked(t, "Your one-time password (otp) [hidden]: ", "12x\u007f34\r");
		expect(await reply).toEqual({ ok: true, values: { user: "ana", otp: "1234" } });
		expect(t.screen()).toBe("\r\x1b[2KYour one-time password (otp) [hidden]: \n");
		expect(t.input.rawMode).toEqual([true, false]);
		const shown = fakeTerminal();
		const visible = cliPromptAsker({}, shown.terminal)({ ...question, prompts: question.prompts.slice(0, 1) });
		await typeWhenAsked(shown, "user: ", "bo\u007fen\n");
		expect(await visible).toEqual({ ok: true, values: { user: "ben" } });
		expect(shown.screen()).toBe("\r\x1b[2Kuser: bo\b \ben\n");
	});

	it("is cancelled by Ctrl+C or Ctrl+D at the prompt", async () => {
		for (const key of ["\u0003", "\u0004"]) {
			const t = fakeTerminal();
			const reply = cliPromptAsker({}, t.terminal)(question);
			await typeWhenAsked(t, "user: ", `an${key}`);
			expect(await reply).toEqual({ ok: false, cancelled: true });
		}
	});

	it("asks the prompts of blocks run at once one after another", async () => {
		const t = fakeTerminal();
		const ask = cliPromptAsker({ otp: "1" }, t.terminal);
		const first = ask(question);
		const second = ask(question);
		await typeWhenAsked(t, "user: ", "a\r");
		expect(await first).toEqual({ ok: true, values: { otp: "1", user: "a" } });
		await typeWhenAsked(t, "user: a\n\r\x1b[2Kuser: ", "b\r");
		expect(await second).toEqual({ ok: true, values: { otp: "1", user: "b" } });
	});

	it("without a terminal, names the --var that would answer", async () => {
		for (const terminal of [null, fakeTerminal(false).terminal]) {
			expect(await cliPromptAsker({ otp: "1" }, terminal)(question)).toEqual({ ok: false, cancelled: false, message: "{{user}} is asked by # @prompt, and there is no terminal to ask on: give it with --var user=VALUE" });
		}
	});

	describe("a # @note", () => {
		const noted = { ...question, prompts: [], confirm: "Deletes the production data." };

		it("is confirmed with y or yes, after the prompts; anything else cancels the block", async () => {
			const t = fakeTerminal();
			const reply = cliPromptAsker({ otp: "1" }, t.terminal)({ ...question, confirm: "" });
			await typeWhenAsked(t, "user: ", "ana\r");
			await typeWhenAsked(t, "Send verify? [y/N] ", "YES\r");
			expect(await reply).toEqual({ ok: true, values: { otp: "1", user: "ana" } });
			for (const answer of ["", "n", "yep"]) {
				const other = fakeTerminal();
				const no = cliPromptAsker({}, other.terminal)(noted);
				await typeWhenAsked(other, "Deletes the production data. Send verify? [y/N] ", `${answer}\r`);
				expect(await no).toEqual({ ok: false, cancelled: true });
			}
		});

		it("is confirmed by --yes without asking; without a terminal it names --yes", async () => {
			const t = fakeTerminal();
			expect(await cliPromptAsker({}, t.terminal, true)(noted)).toEqual({ ok: true, values: {} });
			expect(t.screen()).toBe("");
			expect(await cliPromptAsker({}, null)(noted)).toEqual({ ok: false, cancelled: false, message: "verify asks to be confirmed (# @note: Deletes the production data.), and there is no terminal to ask on: pass --yes to send it" });
		});
	});
});
