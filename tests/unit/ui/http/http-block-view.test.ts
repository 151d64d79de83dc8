/** @jest-environment jsdom */
import { blockHost, memoryVault, readingContext, unplacedContext, until } from "../../../support/block-host";
import { parseNote } from "../../../../src/blocks";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { FENCE_VIEWS } from "../../../../src/ui/block-renderers";
import type { FenceViews } from "../../../../src/ui/fence-views";
import { HttpBlockView, httpEditorPanel } from "../../../../src/ui/http/http-block-view";
import { ResponsePanel } from "../../../../src/ui/panel/response-panel";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { startTestServer, type TestServer } from "../../../support/servers";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

const PATH = "api/users.md";
let server: TestServer;
const transport = createNodeTransport();

beforeAll(async () => {
	installDomHelpers();
	server = await startTestServer();
});
afterAll(async () => {
	transport.close();
	await server.close();
});
afterEach(() => document.body.empty());

/** A note whose block (fence line 2) is written as `lines` with `info` on its fence line. */
const noteOf = (info: string, ...lines: string[]) => ["# Users", "", `\`\`\`http${info ? ` ${info}` : ""}`, ...lines, "```", ""].join("\n");
const sourceOf = (...lines: string[]) => lines.join("\n");

/** The block rendered as Reading view renders it, over a vault holding the note and a real engine. */
function read(note: string, source: string, placed = true, views: FenceViews = FENCE_VIEWS) {
	const vault = memoryVault({ [PATH]: note });
	const host = blockHost(vault.app, transport);
	const el = document.body.createDiv();
	const view = new HttpBlockView(el, source, placed ? readingContext(note, PATH, 2) : unplacedContext(PATH), host, views);
	view.load();
	const q = <T extends HTMLElement = HTMLElement>(sel: string) => el.querySelector<T>(sel);
	return { ...vault, host, el, view, q, note: () => vault.files.get(PATH) ?? "" };
}

/** Fence views whose stream kinds lend a notice that names the kind, block and note it was drawn for. */
const noticing: FenceViews = {
	runViewOf: () => undefined,
	noticeOf: (kind) => (kind === "http" ? undefined : (parent, _host, filePath, block) => void parent.createDiv({ cls: "test-notice", text: `${kind} notice for ${block.alias} at ${filePath}` })),
};

describe("an http block in Reading view", () => {
	it("shows the block as written with its method word coloured by verb, and its response panel", () => {
		const source = sourceOf("# @name ignored-here", `  POST ${server.url}/items`, "Content-Type: application/json", "", '{"a": 1}');
		const r = read(noteOf("alias=create", source), source);
		expect(r.q(".rb-source")?.textContent).toBe(source);
		expect(r.q(".rb-source .rb-method")?.textContent).toBe("POST");
		expect(r.q(".rb-source .rb-method")?.className).toBe("rb-method rb-method-post");
		expect(r.q(".rb-alias")?.textContent).toBe("alias create");
		expect(r.q(".rb-block")?.dataset.display).toBe("split");
		expect(r.q(".rb-panel")).not.toBeNull();
		expect(r.q(".rb-form")).toBeNull();
	});

	it("runs from its panel's Run button and shows the response from the note's session", async () => {
		const source = `GET ${server.url}/json`;
		const r = read(noteOf("alias=users", source), source);
		r.q(".rb-run")?.click();
		await until("the response is shown", () => r.q(".rb-panel")?.dataset.state === "done");
		expect(r.q(".rb-status")?.textContent).toBe("200 OK");
		expect(r.host.session(PATH).get("users")).toMatchObject({ state: "done" });
	});

	it("takes display= from the fence line", () => {
		const source = `GET ${server.url}/json`;
		expect(read(noteOf("display=output", source), source).q(".rb-block")?.dataset.display).toBe("output");
	});

	it("lists the block's problems, note-wide ones included", () => {
		const source = `GET ${server.url}/json`;
		const note = noteOf("alias=twice", source).replace("# Users", `\`\`\`http alias=twice\nGET ${server.url}/items\n\`\`\``);
		const r = read(note, source);
		expect(Array.from(r.el.querySelectorAll(".rb-problems li")).map((li) => li.textContent)).toEqual(['Line 5: Alias "twice" is already used by the block at line 1']);
	});

	it("shows the text plain where the parse does not give it back as written", () => {
		const source = sourceOf("GET http://127.0.0.1/a\r", "Accept: */*");
		const r = read(noteOf("", source), source);
		expect(r.q(".rb-source")?.textContent).toBe(source);
	});

	it("shows the text and its own problems, but no panel, where Obsidian cannot place the block", () => {
		const source = sourceOf(`GET ${server.url}/json`, "> {% client.log(1) %}");
		const r = read(noteOf("", source), source, false);
		expect(r.q(".rb-source")?.textContent).toBe(source);
		expect(r.q(".rb-source .rb-method")?.textContent).toBe("GET");
		expect(r.q(".rb-panel")).toBeNull();
		expect(Array.from(r.el.querySelectorAll(".rb-problems li")).map((li) => li.className)).toEqual(["rb-problem-warning"]);
	});

	it("in form mode shows the form instead of the text, and writes an edit back into the note", async () => {
		const source = sourceOf(`GET ${server.url}/json`, "Accept: application/json");
		const r = read(noteOf("alias=users mode=form", source), source);
		expect(r.q(".rb-source")).toBeNull();
		const url = r.q<HTMLInputElement>("input.rb-form-url") as HTMLInputElement;
		expect(url.value).toBe(`${server.url}/json`);
		url.value = `${server.url}/items`;
		url.dispatchEvent(new Event("change"));
		await until("the edit is written", () => r.note().includes("/items"));
		expect(r.note()).toBe(noteOf("alias=users mode=form", `GET ${server.url}/items`, "Accept: application/json"));
	});

	it("draws the notice its block's kind lends above the panel, and none for a kind that lends none", () => {
		const source = `SSE ${server.url}/events`;
		const r = read(noteOf("alias=feed", source), source, true, noticing);
		expect(Array.from(r.el.querySelectorAll(".rb-block > div")).map((d) => d.className)).toEqual(["rb-block-head", "test-notice", "rb-panel"]);
		expect(r.q(".test-notice")?.textContent).toBe("sse notice for feed at api/users.md");
		const plain = `GET ${server.url}/json`;
		expect(read(noteOf("", plain), plain, true, noticing).q(".test-notice")).toBeNull();
	});

	it("offers in its gear menu the export formats of its block's kind", () => {
		const copyItems = (source: string) => {
			read(noteOf("", source), source).q(".rb-gear")?.click();
			const titles = Array.from(document.querySelectorAll(".menu .menu-item-title"), (t) => t.textContent ?? "");
			document.querySelector(".menu")?.remove();
			return titles.filter((title) => /^(Copy as|Send as)/.test(title));
		};
		expect(copyItems(`SSE ${server.url}/events`)).toEqual(["Copy as curl", "Copy as .http", "Send as cURL (save to file)"]);
		expect(copyItems(`WEBSOCKET ws://127.0.0.1:1/chat`)).toEqual(["Copy as websocat", "Copy as ws", "Copy as .http"]);
		expect(copyItems(`GET ${server.url}/json`)).toHaveLength(6);
	});

	it("shows markup in the block's text as text", () => {
		const source = sourceOf(`GET ${server.url}/json`, "X-Note: <img src=x onerror=alert(1)>");
		const r = read(noteOf("", source), source);
		expect(r.el.querySelector("img")).toBeNull();
		expect(r.q(".rb-source")?.textContent).toBe(source);
	});
});

describe("the panel under an http block's fence in the editor", () => {
	const blockOf = (note: string) => parseNote(note)[0];

	it("mounts a response panel on the note's session, so it shows the run Reading view started", async () => {
		const source = `GET ${server.url}/json`;
		const note = noteOf("alias=users", source);
		const r = read(note, source);
		r.q(".rb-run")?.click();
		await until("the run ends", () => r.q(".rb-panel")?.dataset.state === "done");
		const panel = httpEditorPanel(blockOf(note), PATH, r.host, FENCE_VIEWS);
		const mounted = panel.mount(document.body.createDiv());
		expect(mounted).toBeInstanceOf(ResponsePanel);
		mounted.load();
		expect((mounted as ResponsePanel).el.dataset.state).toBe("done");
		expect(panel.display).toBe("split");
	});

	it("draws the notice its block's kind lends above the panel", () => {
		const note = noteOf("alias=socket", `WEBSOCKET ws://127.0.0.1:1/`);
		const wrap = document.body.createDiv();
		httpEditorPanel(blockOf(note), PATH, blockHost(memoryVault().app, transport), noticing).mount(wrap);
		expect(Array.from(wrap.children).map((d) => d.className)).toEqual(["test-notice", "rb-panel"]);
		expect(wrap.textContent).toContain("websocket notice for socket at api/users.md");
	});

	it.each([
		["the method", (n: string) => n.replace("GET ", "POST ")],
		["the edit mode", (n: string) => n.replace("alias=users", "alias=users mode=form")],
		["the display", (n: string) => n.replace("alias=users", "alias=users display=output")],
		["the alias", (n: string) => n.replace("alias=users", "alias=people")],
	])("is drawn again when %s changes, and kept while only the rest of the request does", (_, change) => {
		const note = noteOf("alias=users", `GET ${server.url}/json`);
		const host = blockHost(memoryVault().app, transport);
		const identity = (n: string) => httpEditorPanel(blockOf(n), PATH, host, FENCE_VIEWS).identity;
		expect(identity(change(note))).not.toBe(identity(note));
		expect(identity(note.replace("/json", "/json?page=2"))).toBe(identity(note));
	});
});
