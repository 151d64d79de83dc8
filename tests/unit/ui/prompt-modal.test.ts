/** @jest-environment jsdom */
import type { App } from "obsidian";
import { installDomHelpers, Keymap, Scope } from "../../e2e/host/obsidian-shim";
import { parseNote, promptsOf } from "../../../src/blocks";
import { modalPromptAsker } from "../../../src/ui/prompt-modal";
import { until } from "../../support/until";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;

const [block] = parseNote("```http alias=verify\n# @prompt user\n# @prompt otp Your one-time password\nPOST http://127.0.0.1/{{user}}\n\n{{otp}}\n```");
const question = { filePath: "api.md", block, prompts: promptsOf(block), confirm: null };

const fields = () => [...document.querySelectorAll<HTMLInputElement>(".runnable-prompt input")];
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text) as HTMLButtonElement;
const submit = () => document.querySelector<HTMLFormElement>(".runnable-prompt")?.requestSubmit();
/** The dialog opens once the ones before it closed: a task later at the least. */
const shown = () => until(() => document.querySelector(".runnable-prompt") !== null);

describe("the # @prompt dialog", () => {
	beforeEach(() => document.body.empty());

	it("has a field per prompt, labelled by what it says (else its name), a hidden one as a password; Run sends what is typed", async () => {
		const reply = modalPromptAsker(app)(question);
		await shown();
		expect(document.querySelector(".modal-title")?.textContent).toBe("Values for verify");
		expect([...document.querySelectorAll(".runnable-prompt label")].map((l) => l.textContent)).toEqual(["user", "Your one-time password"]);
		expect(fields().map((f) => f.type)).toEqual(["text", "password"]);
		expect(document.activeElement).toBe(fields()[0]);
		fields()[0].value = "ana";
		fields()[1].value = "12{{x}}";
		submit();
		expect(await reply).toEqual({ ok: true, values: { user: "ana", otp: "12{{x}}" } });
		expect(document.querySelector(".runnable-prompt")).toBeNull();
	});

	it("starts a field with what was typed for it last, but never a hidden one", async () => {
		const ask = modalPromptAsker(app);
		const first = ask(question);
		await shown();
		fields()[0].value = "ana";
		fields()[1].value = "1234";
		submit();
		await first;
		const second = ask(question);
		await shown();
		expect(fields().map((f) => f.value)).toEqual(["ana", ""]);
		expect(document.activeElement).toBe(fields()[1]);
		button("Send").click();
		expect(await second).toEqual({ ok: true, values: { user: "ana", otp: "" } });
	});

	it("shows a # @note's words (or why it asks, without any) above the fields; Send confirms", async () => {
		const ask = modalPromptAsker(app);
		const noted = ask({ ...question, prompts: [], confirm: "Deletes the production data." });
		await shown();
		expect(document.querySelector(".modal-title")?.textContent).toBe("Send verify?");
		expect(document.querySelector(".runnable-prompt-note")?.textContent).toBe("Deletes the production data.");
		expect(fields()).toHaveLength(0);
		expect(document.activeElement).toBe(button("Send"));
		button("Send").click();
		expect(await noted).toEqual({ ok: true, values: {} });
		const both = ask({ ...question, confirm: "" });
		await shown();
		expect(document.querySelector(".modal-title")?.textContent).toBe("Values for verify");
		expect(document.querySelector(".runnable-prompt-note")?.textContent).toBe("This request asks to be confirmed before it is sent.");
		button("Cancel").click();
		expect(await both).toEqual({ ok: false, cancelled: true });
	});

	it("asks blocks that start at once one after another", async () => {
		const ask = modalPromptAsker(app);
		const first = ask(question);
		const second = ask({ ...question, prompts: question.prompts.slice(0, 1) });
		await shown();
		expect(document.querySelectorAll(".runnable-prompt")).toHaveLength(1);
		fields()[0].value = "a";
		submit();
		expect(await first).toEqual({ ok: true, values: { user: "a", otp: "" } });
		await until(() => fields().length === 1);
		submit();
		expect(await second).toEqual({ ok: true, values: { user: "a" } });
	});

	it("is cancelled by Cancel, by closing it, and by the run's Stop", async () => {
		const ask = modalPromptAsker(app);
		const cancelled = ask(question);
		await shown();
		button("Cancel").click();
		expect(await cancelled).toEqual({ ok: false, cancelled: true });
		const escaped = ask(question);
		await shown();
		window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
		expect(await escaped).toEqual({ ok: false, cancelled: true });
		const stop = new AbortController();
		const stopped = ask(question, stop.signal);
		await shown();
		stop.abort();
		expect(await stopped).toEqual({ ok: false, cancelled: true });
		expect(document.querySelector(".runnable-prompt")).toBeNull();
		expect(await ask(question, stop.signal)).toEqual({ ok: false, cancelled: true });
		expect(document.querySelector(".runnable-prompt")).toBeNull();
	});
});
