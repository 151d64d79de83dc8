/** @jest-environment jsdom */
import { blockHost, memoryVault, readingContext, unplacedContext } from "../../support/block-host";
import { parseNote, parsePinnedResponse, type NoteBlock } from "../../../src/blocks";
import { PinnedResponseView, pinnedResponsePanel, renderPinnedResponse } from "../../../src/ui/pinned-response-view";
import { installDomHelpers } from "../../e2e/host/obsidian-shim";
import { answering } from "../../support/answering-transport";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

const PIN = 'HTTP/1.1 404 Not Found\ncontent-type: application/json\netag: "v7"\n\n{\n  "error": "gone"\n}';
const note = ["```http alias=book", "GET http://127.0.0.1/books/42", "```", "```http-response alias=book", PIN, "```", ""].join("\n");

/** What the reader sees of a rendered pin. */
function seen(parent: HTMLElement) {
	return {
		owner: parent.querySelector(".rb-alias")?.textContent,
		chip: parent.querySelector(".rb-chip")?.className,
		status: parent.querySelector(".rb-chip")?.textContent,
		headers: Array.from(parent.querySelectorAll(".rb-pinned-headers tr")).map((tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td")?.textContent]),
		body: parent.querySelector(".rb-pinned-body")?.textContent ?? null,
		cut: parent.querySelector(".rb-pinned-cut")?.textContent ?? null,
	};
}

function pinBlock(): Extract<NoteBlock, { kind: "http-response" }> {
	const pin = parseNote(note).find((b) => b.kind === "http-response");
	if (pin?.kind !== "http-response") throw new Error("no pin");
	return pin;
}

describe("a pinned response, read-only", () => {
	it("shows whose pin it is, the status chip coloured by class, the headers in the pin's order and the body", () => {
		const parent = createDiv();
		renderPinnedResponse(parent, parsePinnedResponse(PIN), "book");
		expect(seen(parent)).toEqual({
			owner: "Pinned response of book",
			chip: "rb-chip rb-status rb-status-4xx",
			status: "HTTP/1.1 404 Not Found",
			headers: [
				["content-type", "application/json"],
				["etag", '"v7"'],
			],
			body: '{\n  "error": "gone"\n}',
			cut: null,
		});
	});

	it("says where the body was cut, and leaves out an empty header table and body", () => {
		const parent = createDiv();
		renderPinnedResponse(parent, parsePinnedResponse("HTTP/1.1 200 OK\n\nabc\n[cut at 3 of 1000 bytes]"), null);
		expect(seen(parent)).toMatchObject({ owner: "Pinned response", body: "abc", cut: "Cut: the first 3 of 1000 bytes", headers: [] });
		expect(parent.querySelector("table")).toBeNull();
		const bare = createDiv();
		renderPinnedResponse(bare, parsePinnedResponse("HTTP/2 204"), null);
		expect(bare.querySelector(".rb-pinned-body")).toBeNull();
	});

	it("gives a pin without a status line a plain chip", () => {
		const parent = createDiv();
		renderPinnedResponse(parent, parsePinnedResponse("not a status line"), "a");
		expect(seen(parent)).toMatchObject({ chip: "rb-chip", status: "not a status line" });
	});

	it("shows what the server sent as text, even when it looks like markup", () => {
		const evil = "<img src=x onerror=alert(1)>";
		const parent = createDiv();
		renderPinnedResponse(parent, parsePinnedResponse(`HTTP/1.1 200 ${evil}\nx-evil: ${evil}\n\n${evil}`), evil);
		expect(parent.querySelector("img")).toBeNull();
		expect(seen(parent)).toMatchObject({ owner: `Pinned response of ${evil}`, status: `HTTP/1.1 200 ${evil}`, headers: [["x-evil", evil]], body: evil });
	});
});

describe("the http-response fence in Reading view", () => {
	const host = blockHost(memoryVault().app, answering({}));

	it("reads the pin from the note, names its block from the fence's alias and lists the fence's problems", () => {
		const text = note.replace("```http-response alias=book", "```http-response alias=book cut=big");
		const el = createDiv();
		new PinnedResponseView(el, PIN, readingContext(text, "n.md", 3), host).load();
		expect(seen(el)).toMatchObject({ owner: "Pinned response of book", status: "HTTP/1.1 404 Not Found" });
		expect(Array.from(el.querySelectorAll(".rb-problems li")).map((li) => li.className)).toEqual(["rb-problem-error"]);
		expect(el.querySelector(".rb-problems li")?.textContent).toMatch(/^Line 4: .*cut/);
	});

	it("reads the fence's own text where Obsidian cannot place it, naming no block", () => {
		const el = createDiv();
		new PinnedResponseView(el, "HTTP/1.1 201 Created", unplacedContext("n.md"), host).load();
		expect(seen(el)).toMatchObject({ owner: "Pinned response", chip: "rb-chip rb-status rb-status-2xx", status: "HTTP/1.1 201 Created" });
		expect(el.querySelector(".rb-problems")).toBeNull();
	});
});

describe("the pin's panel under its fence in the editor", () => {
	it("mounts the same read-only view, and keeps its identity until the fence changes", () => {
		const block = pinBlock();
		const panel = pinnedResponsePanel(block, "n.md");
		expect(panel.display).toBe("split");
		const wrap = createDiv();
		panel.mount(wrap).load();
		expect(seen(wrap)).toMatchObject({ owner: "Pinned response of book", status: "HTTP/1.1 404 Not Found" });
		expect(pinnedResponsePanel(pinBlock(), "n.md").identity).toBe(panel.identity);
		expect(pinnedResponsePanel(block, "other.md").identity).not.toBe(panel.identity);
		const edited = parseNote(note.replace("404 Not Found", "200 OK")).find((b) => b.kind === "http-response");
		if (edited?.kind !== "http-response") throw new Error("no pin");
		expect(pinnedResponsePanel(edited, "n.md").identity).not.toBe(panel.identity);
	});
});
