/** @jest-environment jsdom */
import { blockHost, memoryVault, until } from "../../support/block-host";
import { blockKey, parseNote, type HttpNoteBlock, type NoteBlock } from "../../../src/blocks";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { HttpView } from "../../../src/runner/http/http-run";
import { blockActions, currentBlock, type ExportHooks } from "../../../src/ui/block-actions";
import { installDomHelpers, notices } from "../../e2e/host/obsidian-shim";
import { startTestServer, type TestServer } from "../../support/servers";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

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
beforeEach(() => notices.splice(0));

const noteText = (path = "/json", info = "alias=users") => `# Users\n\n\`\`\`http ${info}\nGET ${server.url}${path}\n\`\`\`\n`;

/** The actions of the note's first block as it was rendered, over a vault holding the note and a real engine. */
function actionsFor(text: string) {
	const vault = memoryVault({ [PATH]: text });
	const host = blockHost(vault.app, transport);
	const rendered = host.notes.ofText(text);
	const exported: string[] = [];
	const exporter: ExportHooks = {
		copy: (path, note, block, format) => exported.push(`${format} ${path} ${block.fence.content} (${note.length} blocks)`),
		sendAsCurl: (path, _note, block: HttpNoteBlock) => exported.push(`curl ${path} ${block.fence.content}`),
	};
	const actions = blockActions(host.app, host.engine, host.notes, exporter, PATH, rendered[0], rendered);
	const session = host.engine.sessions.note(PATH);
	const key = blockKey(rendered[0]);
	return { ...vault, host, actions, exported, session, key, state: () => session.snapshot(key).state, note: () => vault.files.get(PATH) ?? "" };
}

describe("the toolbar's actions of a block", () => {
	it("runs the block as the note holds it now, not as it was rendered", async () => {
		const a = actionsFor(noteText("/json"));
		a.files.set(PATH, noteText("/items"));
		a.actions.run(false);
		await until("the run ends", () => a.state() === "done");
		expect(server.requests.map((r) => r.url)).toContain("/items");
		expect(server.requests.map((r) => r.url)).not.toContain("/json");
	});

	it("says the block is gone when the note no longer has it, and runs nothing", async () => {
		const a = actionsFor(noteText());
		const before = server.requests.length;
		a.files.set(PATH, "# Users\n\nno blocks any more\n");
		a.actions.run(true);
		await until("a notice", () => notices.length > 0);
		expect(notices).toEqual([`Runnable Blocks: The block ${a.key} is no longer in ${PATH}`]);
		expect(server.requests.length).toBe(before);
		expect(a.state()).toBe("idle");
	});

	it("cancels the block's run in flight", async () => {
		const a = actionsFor(noteText("/held?id=cancel-me"));
		a.actions.run(false);
		await until("the response starts", () => a.state() === "streaming");
		a.actions.cancel();
		await until("the run ends", () => a.state() !== "streaming");
		expect(a.state()).toBe("cancelled");
	});

	it("shows the environment's cookie jar and clears it, saying so", async () => {
		const a = actionsFor(noteText("/set-cookie"));
		a.actions.run(false);
		await until("the run ends", () => a.state() === "done");
		// theme is Secure: an http response cannot set it.
		expect(a.actions.cookieJar?.()).toMatchObject({ environment: "dev", cookies: [{ name: "session", value: "abc", httpOnly: true }] });
		expect(a.actions.cookieJar?.().cookies).toHaveLength(1);
		a.actions.clearCookies?.();
		expect(a.actions.cookieJar?.().cookies).toEqual([]);
		expect(notices).toEqual(["Runnable Blocks: Cleared the cookie jar"]);
	});

	it("writes a new method and the edit mode into the note, leaving the rest as it was", async () => {
		const a = actionsFor(noteText("/json", "alias=users"));
		a.actions.setMethod("DELETE");
		await until("the method is written", () => a.note().includes("DELETE "));
		expect(a.note()).toBe(noteText("/json").replace("GET ", "DELETE "));
		a.actions.setEditMode("form");
		await until("the mode is written", () => a.note().includes("mode=form"));
		expect(a.note()).toMatch(/^```http alias=users mode=form$/m);
		a.actions.setEditMode("raw");
		await until("the mode is gone", () => !a.note().includes("mode="));
		expect(a.note()).toBe(noteText("/json").replace("GET ", "DELETE "));
	});

	it("exports the block as rendered when no editor has the note (the clipboard write stays in the click)", () => {
		const a = actionsFor(noteText("/json"));
		a.files.set(PATH, noteText("/items")); // a vault read would be too late for the click
		a.actions.exportAs("python", new MouseEvent("click"));
		a.actions.sendAsCurl(new MouseEvent("click"));
		expect(a.exported).toEqual([`python ${PATH} GET ${server.url}/json (1 blocks)`, `curl ${PATH} GET ${server.url}/json`]);
	});

	it("refuses to export a block whose kind has no export, saying so", () => {
		const text = "```db\nSELECT 1\n```\n";
		const vault = memoryVault({ [PATH]: text });
		const host = blockHost(vault.app, transport);
		const [db] = host.notes.ofText(text);
		const exported: string[] = [];
		const actions = blockActions(host.app, host.engine, host.notes, { copy: () => exported.push("copy"), sendAsCurl: () => exported.push("curl") }, PATH, db);
		actions.exportAs("curl", new MouseEvent("click"));
		expect(exported).toEqual([]);
		expect(notices).toEqual(["Runnable Blocks: Cannot export: a db block has no export"]);
	});

	it("exports a stream block (sse, websocket) through its kind: the panel no longer says it is gone", () => {
		const ws = actionsFor("```http alias=chat\nWEBSOCKET ws://127.0.0.1:9/chat\n\nhi\n```\n");
		ws.actions.exportAs("http", new MouseEvent("click"));
		const sse = actionsFor("```http alias=feed\nSSE http://127.0.0.1:9/events\n```\n");
		// Send as cURL's --output is an http download: a stream is copied as its own curl (-N).
		sse.actions.sendAsCurl(new MouseEvent("click"));
		expect(ws.exported).toEqual([`http ${PATH} WEBSOCKET ws://127.0.0.1:9/chat\n\nhi (1 blocks)`]);
		expect(sse.exported).toEqual([`curl ${PATH} SSE http://127.0.0.1:9/events (1 blocks)`]);
		expect(notices).toEqual([]);
	});

	it.each([
		["/json", "json"],
		["/xml", "xml"],
		["/image.png", "png"],
		["/set-cookie", "txt"],
		["/huge?bytes=16", "bin"],
	])("saves the body of %s next to the note, named after the alias with a .%s extension", async (path, ext) => {
		const a = actionsFor(noteText(path));
		a.actions.run(false);
		await until("the run ends", () => a.state() === "done");
		const run = a.session.snapshot(a.key) as HttpView;
		a.actions.saveBody(run);
		await until("the file is written", () => a.binaries.size > 0);
		const [[saved, bytes]] = [...a.binaries];
		expect(saved).toMatch(new RegExp(`^api/users-[0-9T-]+Z\\.${ext}$`));
		expect(Buffer.from(bytes).equals(Buffer.from(run.body ?? []))).toBe(true);
		expect(notices).toEqual([`Runnable Blocks: Saved the body to ${saved}`]);
	});

	it("saves nothing for a run without a body", async () => {
		const a = actionsFor(noteText());
		a.actions.saveBody({ state: "failed" });
		await Promise.resolve();
		expect(a.binaries.size).toBe(0);
		expect(notices).toEqual([]);
	});

	it("pins the block's response under it in the note", async () => {
		const a = actionsFor(noteText("/json"));
		a.actions.run(false);
		await until("the run ends", () => a.state() === "done");
		a.actions.pinResponse?.(a.session.snapshot(a.key) as HttpView);
		await until("the pin is written", () => a.note().includes("```http-response"));
		expect(a.note()).toMatch(/```\n```http-response alias=users\nHTTP\/1\.1 200 OK\ncontent-type: application\/json\n\n\{\n {2}"ok": true,/);
	});
});

describe("the current version of a block", () => {
	it("is found by its identity in the note's latest blocks, or undefined once gone", () => {
		const note: readonly NoteBlock[] = parseNote("```http alias=a\nGET http://127.0.0.1/a\n```\n\n```http alias=b\nGET http://127.0.0.1/b\n```\n");
		expect(currentBlock(note, blockKey(note[1])).block?.alias).toBe("b");
		expect(currentBlock(note.slice(0, 1), blockKey(note[1]))).toEqual({ note: note.slice(0, 1), block: undefined });
	});
});
