/** @jest-environment jsdom */
import { blockHost, memoryVault, readingContext, unplacedContext } from "../../support/block-host";
import type { MarkdownPostProcessorContext } from "obsidian";
import type { BlockProblem, NoteBlock } from "../../../src/blocks";
import { BlockReadingView } from "../../../src/ui/block-reading-view";
import { installDomHelpers } from "../../e2e/host/obsidian-shim";
import { answering } from "../../support/answering-transport";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

/** A kind's view as each kind writes one: what it located, its head and its problems. */
class ProbeView extends BlockReadingView {
	located: ReturnType<BlockReadingView["locate"]> = undefined;
	head: HTMLElement | null = null;
	constructor(el: HTMLElement, source: string, ctx: MarkdownPostProcessorContext, private readonly always = false) {
		super(el, source, ctx, blockHost(memoryVault().app, answering({})));
	}
	override onload(): void {
		this.located = this.locate();
		const block = this.located?.block;
		this.head = this.renderHead(this.containerEl, block, this.always);
		this.renderProblems(this.containerEl, block?.problems ?? []);
	}
	path(): string {
		return this.filePath;
	}
	problems(list: readonly BlockProblem[]): void {
		this.renderProblems(this.containerEl, list);
	}
}

const note = ["# API", "", "```http alias=users", "GET http://127.0.0.1/users", "```", "", "```http alias=users", "GET http://127.0.0.1/again", "```", "", "```http", "GET http://127.0.0.1/plain", "```", ""].join("\n");

function probe(ctx: MarkdownPostProcessorContext, always = false) {
	const el = createDiv();
	const view = new ProbeView(el, "", ctx, always);
	view.load();
	return { el, view, problems: () => Array.from(el.querySelectorAll(".rb-problems li")).map((li) => [li.className, li.textContent]) };
}

describe("what every kind's Reading view shares", () => {
	it("finds its block in the whole note, so note-wide rules apply: a reused alias is an error on the second block", () => {
		const { view, el, problems } = probe(readingContext(note, "api/users.md", 6));
		expect(view.path()).toBe("api/users.md");
		expect(view.located?.note.map((b: NoteBlock) => b.alias)).toEqual(["users", "users", null]);
		expect(view.located?.block?.fence.startLine).toBe(6);
		expect(el.querySelector(".rb-alias")?.textContent).toBe("alias users");
		expect(problems()).toEqual([["rb-problem-error", 'Line 7: Alias "users" is already used by the block at line 3']]);
	});

	it("shows no head for a block without an alias, unless the kind asks for one to fill", () => {
		const plain = probe(readingContext(note, "n.md", 10));
		expect(plain.view.head).toBeNull();
		expect(plain.el.querySelector(".rb-block-head")).toBeNull();
		const always = probe(readingContext(note, "n.md", 10), true);
		expect(always.view.head?.className).toBe("rb-block-head");
		expect(always.view.head?.childElementCount).toBe(0);
	});

	it("finds nothing where Obsidian gives no section info, and draws no head or problems then", () => {
		const { view, el } = probe(unplacedContext("n.md"));
		expect(view.located).toBeUndefined();
		expect(el.childElementCount).toBe(0);
	});

	it("lists each problem with its 1-based line and severity, a script line with the translated text", () => {
		const { view, problems } = probe(unplacedContext("n.md"));
		view.problems([
			{ code: "script_not_run", message: "Scripts are not run: this line stays in the note and is never sent", line: 4, column: 0, severity: "warning" },
			{ code: "unterminated_fence", message: "The http block is not closed with ```", line: 0, column: 0, severity: "error" },
		] as BlockProblem[]);
		expect(problems()).toEqual([
			["rb-problem-warning", "Line 5: Scripts are not run: this line stays in the note and is never sent."],
			["rb-problem-error", "Line 1: The http block is not closed with ```"],
		]);
	});

	it("adds no list when there is no problem", () => {
		const { view, el } = probe(unplacedContext("n.md"));
		view.problems([]);
		expect(el.querySelector(".rb-problems")).toBeNull();
	});
});
