import { Notice, TFile, type App } from "obsidian";
import { parseNote } from "../../../src/blocks";
import { createEngine, type Engine, type EnginePorts } from "../../../src/runner/engine";
import { exportHooks, exportNoteAsHttp } from "../../../src/ui/export-actions";
import { setLanguage } from "../../../src/ui/strings";

/** The ports of an engine that prepares but cannot send: an export never sends anything. */
function ports(): EnginePorts {
	return {
		transport: () => {
			throw new Error("an export sent something");
		},
		history: () => null,
		environment: () => ({ name: "dev", variables: { host: "api.test", token: "s3cret" }, secretValues: ["s3cret"], secretNames: ["token"], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
	};
}

function engine(): Engine {
	return createEngine(ports());
}

/** The vault as far as the export writes: its files by path. */
function vaultApp(existing: Record<string, string> = {}): { app: App; files: Map<string, string> } {
	const files = new Map(Object.entries(existing));
	const fileAt = (path: string) => Object.assign(new TFile(), { path });
	const vault = {
		getAbstractFileByPath: (path: string) => (files.has(path) ? fileAt(path) : null),
		create: (path: string, content: string) => Promise.resolve(void files.set(path, content)),
		modify: (file: TFile, content: string) => Promise.resolve(void files.set(file.path, content)),
	};
	return { app: { vault } as unknown as App, files };
}

const note = (...fences: string[][]) => fences.map((lines) => ["```" + lines[0], ...lines.slice(1), "```"].join("\n")).join("\n\n");
const file = Object.assign(new TFile(), { path: "Folder/Orders.md" });
/** Runs `fn` with the plugin in another language, English again after. */
function inLanguage(code: string, fn: () => void): void {
	setLanguage(code);
	try {
		fn();
	} finally {
		setLanguage("en");
	}
}
/** The notices shown, as the obsidian stand-in records them. */
const notices = Notice as unknown as { shown: string[] };

beforeEach(() => {
	notices.shown = [];
});

describe("Export note as .http", () => {
	const text = note(
		["http", "@base = https://{{host}}"],
		["http alias=list", "GET {{base}}/orders"],
		["http alias=feed", "SSE {{base}}/events"],
		["http alias=chat", "WEBSOCKET wss://{{host}}/chat", "", '{"auth": "{{token}}"}', "=== wait-for-server"],
		["db", "SELECT 1"],
	);

	it("writes every block whose kind exports into <note>.http beside the note: http and the streams, not db nor a variables fence", async () => {
		const { app, files } = vaultApp();
		await exportNoteAsHttp(app, engine(), file, parseNote(text));
		const written = files.get("Folder/Orders.http") ?? "";
		expect(written.match(/^### /gm)).toHaveLength(3);
		expect(written).toContain("GET https://api.test/orders");
		expect(written).toContain("SSE https://api.test/events");
		expect(written).toContain("WEBSOCKET wss://api.test/chat");
		expect(written).not.toContain("SELECT");
		expect(notices.shown).toEqual(["Runnable Blocks: Exported 3 requests to Folder/Orders.http"]);
	});

	it("keeps a secret's {{reference}} in a stream's messages: a vault file never holds its value", async () => {
		const { app, files } = vaultApp();
		await exportNoteAsHttp(app, engine(), file, parseNote(text));
		const written = files.get("Folder/Orders.http") ?? "";
		expect(written).toContain('{"auth": "{{token}}"}');
		expect(written).not.toContain("s3cret");
	});

	it("replaces an existing .http file", async () => {
		const { app, files } = vaultApp({ "Folder/Orders.http": "old" });
		await exportNoteAsHttp(app, engine(), file, parseNote(note(["http", "GET https://x.test/"])));
		expect(files.get("Folder/Orders.http")).toContain("GET https://x.test/");
	});

	it("reads the note's .env first, so a $dotenv block exports before any run, its reference kept", async () => {
		const { app, files } = vaultApp();
		const reads: string[] = [];
		const withDotenv = createEngine({ ...ports(), dotenv: (path) => (reads.push(path), Promise.resolve("KEY=k1\n")) });
		await exportNoteAsHttp(app, withDotenv, file, parseNote(note(["http", "GET https://x.test/", "X-Key: {{$dotenv KEY}}"])));
		expect(reads).toEqual(["Folder/Orders.md"]);
		expect(files.get("Folder/Orders.http")).toContain("X-Key: {{$dotenv KEY}}");
	});

	it("says so when no block of the note exports, and writes nothing", async () => {
		const { app, files } = vaultApp();
		await exportNoteAsHttp(app, engine(), file, parseNote(note(["db", "SELECT 1"])));
		expect(files.size).toBe(0);
		expect(notices.shown).toEqual(["Runnable Blocks: This note has no HTTP blocks to export."]);
	});

	it("stops at a block that reads an alias with no result, naming its line and what to run first", async () => {
		const { app, files } = vaultApp();
		await exportNoteAsHttp(app, engine(), file, parseNote(note(["http alias=login", "POST https://x.test/login"], ["http", "GET https://x.test/me", "Authorization: {{login.response.body.$.token}}"])));
		expect(files.size).toBe(0);
		expect(notices.shown).toEqual([expect.stringMatching(/^Runnable Blocks: Cannot export line 5: .*Run login first/)]);
	});
});

describe("copy to the clipboard", () => {
	let copied: string[];

	beforeEach(() => {
		copied = [];
		Object.defineProperty(globalThis, "navigator", { value: { clipboard: { writeText: (t: string) => Promise.resolve(void copied.push(t)) } }, configurable: true });
	});

	/** Lets the clipboard's promise settle: the notice follows it. */
	const settled = () => new Promise((resolve) => setImmediate(resolve));

	it("copies a block as the format asked, with the values Run would send", async () => {
		const blocks = parseNote(note(["http alias=list", "GET https://{{host}}/orders"]));
		exportHooks(engine(), {}).copy("n.md", blocks, blocks[0], "curl");
		await settled();
		expect(copied).toEqual(["curl https://api.test/orders --location"]);
		expect(notices.shown).toEqual(["Runnable Blocks: Copied as curl"]);
	});

	it("copies a stream to its own formats and refuses another, naming the ones it has", async () => {
		const blocks = parseNote(note(["http alias=feed", "SSE https://{{host}}/events"]));
		const hooks = exportHooks(engine(), {});
		hooks.copy("n.md", blocks, blocks[0], "curl");
		hooks.copy("n.md", blocks, blocks[0], "fetch");
		await settled();
		expect(copied).toHaveLength(1);
		expect(copied[0]).toContain("curl -N");
		expect(notices.shown).toEqual(["Runnable Blocks: Cannot export: This SSE block exports as curl, http, not fetch", "Runnable Blocks: Copied as curl"]);
	});

	it("copies a websocket block as its kind writes it, and says a refusal in the user's language", async () => {
		const blocks = parseNote(note(["http alias=chat", "WEBSOCKET wss://{{host}}/chat", "", "hello"]));
		const hooks = exportHooks(engine(), {});
		hooks.copy("n.md", blocks, blocks[0], "websocat");
		inLanguage("es", () => hooks.copy("n.md", blocks, blocks[0], "python"));
		await settled();
		expect(copied).toEqual(["printf '%s\\n' hello | websocat -n wss://api.test/chat"]);
		expect(notices.shown).toEqual(["Runnable Blocks: No se puede exportar: Este bloque WebSocket se exporta como websocat, ws, http, no como python", "Runnable Blocks: Copied as websocat"]);
	});

	it("says a writer's refusal in the user's language too (the CLI says it in English)", async () => {
		const blocks = parseNote(note(["http alias=upload", "WEBSOCKET wss://{{host}}/upload", "", "< ./photo.png"]));
		const hooks = exportHooks(engine(), {});
		hooks.copy("n.md", blocks, blocks[0], "websocat");
		inLanguage("pt", () => hooks.copy("n.md", blocks, blocks[0], "websocat"));
		await settled();
		expect(copied).toEqual([]);
		expect(notices.shown).toEqual([
			"Runnable Blocks: Cannot export: websocat cannot send a file as one binary message: export it as a Node ws script",
			"Runnable Blocks: Não é possível exportar: o websocat não consegue enviar um arquivo como uma única mensagem binária: exporte-o como script Node ws",
		]);
	});

	it("sends as cURL writing the response to <alias>.out", async () => {
		const blocks = parseNote(note(["http alias=report", "GET https://x.test/big"]));
		const block = blocks[0];
		if (block.kind !== "http") throw new Error("not http");
		exportHooks(engine(), {}).sendAsCurl("n.md", blocks, block);
		await settled();
		expect(copied[0]).toContain("report.out");
	});
});
