/** @jest-environment jsdom */
import { Component, type App } from "obsidian";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import type { AnswerFence } from "../../../../src/chat/answer-fences";
import { renderAnswer } from "../../../../src/ui/chat/answer-view";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

const ANSWER = ["Try this:", "", "```http", "GET http://127.0.0.1/users", "```", "", "and then", "", "```sql", "SELECT 1;", "```"].join("\n");

async function rendered(markdown: string) {
	const parent = document.body.createDiv();
	const owner = new Component();
	owner.load();
	const inserted: AnswerFence[] = [];
	const copied: string[] = [];
	const component = await renderAnswer({} as App, parent, markdown, "Chats/a.md", owner, { insert: (f) => inserted.push(f), copy: (t) => copied.push(t) });
	const bars = () => [...parent.querySelectorAll<HTMLElement>(".rb-chat-fence-actions")];
	const click = (bar: HTMLElement, label: string) => bar.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!.click();
	return { parent, owner, component, inserted, copied, bars, click };
}

describe("renderAnswer", () => {
	it("renders the answer as Markdown and puts Insert and Copy under each code fence", async () => {
		const r = await rendered(ANSWER);
		expect(r.parent.querySelector(".rb-chat-markdown p")?.textContent).toBe("Try this:");
		expect(r.bars().map((b) => b.previousElementSibling?.tagName)).toEqual(["PRE", "PRE"]);
		expect(r.bars().map((b) => [...b.querySelectorAll("button")].map((x) => x.textContent))).toEqual([
			["Insert below cursor", "Copy"],
			["Insert below cursor", "Copy"],
		]);
	});

	it("inserts the whole fence and copies only its content", async () => {
		const r = await rendered(ANSWER);
		r.click(r.bars()[0], "Insert below cursor");
		r.click(r.bars()[1], "Copy");
		expect(r.inserted).toEqual([{ lang: "http", text: "```http\nGET http://127.0.0.1/users\n```", runnable: true }]);
		expect(r.copied).toEqual(["SELECT 1;"]);
	});

	it("replaces the previous rendering, and its buttons stop acting once the owner unloads", async () => {
		const r = await rendered(ANSWER);
		await renderAnswer({} as App, r.parent, "Only text now.", "Chats/a.md", r.owner, { insert: () => undefined, copy: () => undefined });
		expect(r.parent.textContent).toBe("Only text now.");
		const again = await rendered(ANSWER);
		const copy = again.bars()[1];
		again.owner.unload();
		again.click(copy, "Copy");
		expect(again.copied).toEqual([]);
	});
});
