/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "obsidian";
import { BlockSearchIndex } from "../../../src/blocks";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import type { Connection } from "../../../src/settings/connections";
import { defaultSettings } from "../../../src/settings/user-settings";
import { indexSchemas, openBlockSearch, REFRESH_MS, variableEntries, VaultBlockIndexer } from "../../../src/ui/block-search";
import { t } from "../../../src/ui/strings";
import { Editor, installDomHelpers, Keymap, MarkdownView, Scope, TFile } from "../../e2e/host/obsidian-shim";
import { dbEngine, sqliteImage } from "../../support/db-engine";
import { eventsOver, type Handler } from "../../support/fake-events";
import { until } from "../../support/until";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
// jsdom lays nothing out and its ranges have no boxes; the editor measures text through them.
Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
jest.setTimeout(30_000);


/**
 * A vault of notes in memory with Obsidian's events: `emit` fires them as the vault would; every
 * `cachedRead` is counted. The workspace has one leaf, whose view is a Markdown view over a real
 * CodeMirror editor once a file is opened in it.
 */
function vaultApp(notes: Record<string, string>) {
	const files = new Map(Object.entries(notes));
	const handlers = new Map<string, Handler[]>();
	const reads: string[] = [];
	const editor = new Editor(new EditorView({ state: EditorState.create({ doc: "one\ntwo\nthree\nfour\nfive" }), parent: document.body }));
	const leaf = { view: null as MarkdownView | null, opened: [] as Array<{ path: string; line: unknown }> };
	const leafApi = {
		get view() {
			return leaf.view;
		},
		openFile: (file: TFile, state: { eState?: { line?: number } }) => {
			leaf.opened.push({ path: file.path, line: state.eState?.line });
			leaf.view = new MarkdownView(file, editor);
			return Promise.resolve();
		},
	};
	const scope = new Scope();
	const app = {
		scope,
		keymap: new Keymap(scope),
		vault: {
			on: eventsOver(handlers).on,
			getMarkdownFiles: () => [...files.keys()].filter((p) => p.endsWith(".md")).map((p) => new TFile(p)),
			cachedRead: (f: TFile) => {
				reads.push(f.path);
				return Promise.resolve(files.get(f.path) ?? "");
			},
			getAbstractFileByPath: (p: string) => (files.has(p) ? new TFile(p) : null),
		},
		workspace: {
			getLeaf: () => leafApi,
			getActiveViewOfType: (type: unknown) => (leaf.view instanceof (type as typeof MarkdownView) ? leaf.view : null),
		},
	};
	const emit = (name: string, ...args: unknown[]) => (handlers.get(name) ?? []).forEach((fn) => fn(...args));
	return { app: app as unknown as App, files, reads, emit, editor, leaf };
}

const httpNote = (...urls: string[]) => urls.map((u) => `\`\`\`http\nGET ${u}\n\`\`\`\n`).join("\n");
const found = (index: BlockSearchIndex, query: string) => index.search(query, 50).map((r) => index.displayText(r.entry));
const tables = (index: BlockSearchIndex, query: string) => found(index, query).filter((text) => text.startsWith("table "));

afterEach(() => document.querySelectorAll(".modal-container").forEach((m) => m.remove()));

describe("variableEntries", () => {
	it("lists every environment's variable names, marks secrets, and never carries a value", () => {
		const settings = defaultSettings();
		settings.environments = { dev: { host: { value: "dev.test" }, token: { secret: "dev-token" } }, prod: { host: { value: "prod.test" } } };
		const entries = variableEntries(settings);
		expect(entries).toEqual([
			{ kind: "variable", environment: "dev", name: "host", secret: false },
			{ kind: "variable", environment: "dev", name: "token", secret: true },
			{ kind: "variable", environment: "prod", name: "host", secret: false },
		]);
		expect(JSON.stringify(entries)).not.toMatch(/dev\.test|dev-token|prod\.test/);
	});
});

describe("VaultBlockIndexer", () => {
	it("reads every note once on the first search, however often it is asked, and not before", async () => {
		const v = vaultApp({ "a.md": httpNote("https://x.test/alpha"), "b.md": httpNote("https://x.test/beta"), "image.png": "" });
		const indexer = new VaultBlockIndexer(v.app);
		indexer.watch();
		v.emit("modify", new TFile("a.md"));
		expect(v.reads).toEqual([]);
		await Promise.all([indexer.upToDate(), indexer.upToDate()]);
		await indexer.upToDate();
		expect(v.reads.sort()).toEqual(["a.md", "b.md"]);
		expect(found(indexer.index, "alpha")).toHaveLength(1);
		expect(found(indexer.index, "beta")).toHaveLength(1);
	});

	it("follows the vault at the next search: a note changed is read once however often it changed, a deleted one leaves, a renamed one moves unread", async () => {
		const v = vaultApp({ "a.md": httpNote("https://x.test/alpha"), "b.md": httpNote("https://x.test/beta") });
		const indexer = new VaultBlockIndexer(v.app);
		expect(indexer.watch()).toHaveLength(4);
		await indexer.upToDate();
		v.reads.length = 0;

		v.files.set("c.md", httpNote("https://x.test/gamma"));
		v.emit("create", new TFile("c.md"));
		for (const url of ["https://x.test/del", "https://x.test/delt", "https://x.test/delta"]) {
			v.files.set("a.md", httpNote(url));
			v.emit("modify", new TFile("a.md"));
		}
		// Not a note: never read.
		v.emit("modify", new TFile("data.json"));
		v.emit("modify", { path: "folder.md" });
		// Saving reads nothing: the index is as it was until a search asks.
		expect(v.reads).toEqual([]);
		expect(found(indexer.index, "alpha")).toHaveLength(1);
		await indexer.upToDate();
		expect(v.reads).toEqual(["c.md", "a.md"]);
		expect(found(indexer.index, "gamma")).toHaveLength(1);
		expect(found(indexer.index, "delta")).toHaveLength(1);
		expect(found(indexer.index, "alpha")).toEqual([]);

		v.reads.length = 0;
		v.emit("rename", new TFile("moved/c.md"), "c.md");
		v.emit("delete", new TFile("a.md"));
		v.emit("rename", new TFile("b.txt"), "b.md");
		await indexer.upToDate();
		expect(indexer.index.search("gamma", 5).map((r) => (r.entry.kind === "block" ? r.entry.path : null))).toEqual(["moved/c.md"]);
		expect(found(indexer.index, "delta")).toEqual([]);
		expect(found(indexer.index, "beta")).toEqual([]);
		expect(v.reads).toEqual([]);

		// A file renamed into a note is a new note.
		v.files.set("e.md", httpNote("https://x.test/epsilon"));
		v.emit("rename", new TFile("e.md"), "e.txt");
		await indexer.upToDate();
		expect(v.reads).toEqual(["e.md"]);
		expect(found(indexer.index, "epsilon")).toHaveLength(1);
	});

	it("takes in what changes while it reads, and leaves out a note deleted before its turn", async () => {
		const v = vaultApp({ "a.md": httpNote("https://x.test/alpha"), "b.md": httpNote("https://x.test/beta") });
		const indexer = new VaultBlockIndexer(v.app);
		indexer.watch();
		const first = indexer.upToDate();
		// During the first read: a.md changes (it may be read already), b.md goes before it is read.
		v.files.set("a.md", httpNote("https://x.test/omega"));
		v.emit("modify", new TFile("a.md"));
		v.files.delete("b.md");
		v.emit("delete", new TFile("b.md"));
		await first;
		expect(found(indexer.index, "omega")).toHaveLength(1);
		expect(found(indexer.index, "alpha")).toEqual([]);
		expect(found(indexer.index, "beta")).toEqual([]);
	});

	it("reads a vault larger than one batch whole, and keeps a note renamed while it was read under its new path only", async () => {
		const notes = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`n${i}.md`, httpNote(`https://x.test/item${i}zz`)]));
		const v = vaultApp(notes);
		const indexer = new VaultBlockIndexer(v.app);
		indexer.watch();
		const first = indexer.upToDate();
		// n0.md is in the first batch, read already or being read, when it moves.
		v.files.set("moved/n0.md", v.files.get("n0.md") ?? "");
		v.files.delete("n0.md");
		v.emit("rename", new TFile("moved/n0.md"), "n0.md");
		await first;
		expect(new Set(v.reads).size).toBe(71);
		const paths = new Set(indexer.index.search("zz", 100).map((r) => (r.entry.kind === "block" ? r.entry.path : null)));
		expect(paths.size).toBe(70);
		expect([paths.has("moved/n0.md"), paths.has("n0.md"), paths.has("n69.md")]).toEqual([true, false, true]);
	});
});

describe("indexSchemas over real SQLite schemas", () => {
	const shop: Connection = { type: "sqlite", path: "shop.sqlite", readonly: true };
	const stock: Connection = { type: "sqlite", path: "stock.sqlite", readonly: true };
	let images: Record<string, Uint8Array>;
	const closing: Array<() => Promise<void>> = [];

	beforeAll(async () => {
		images = {
			"shop.sqlite": await sqliteImage("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT);"),
			"stock.sqlite": await sqliteImage("CREATE TABLE shelves (id INTEGER PRIMARY KEY, aisle TEXT);"),
		};
	});
	afterAll(async () => {
		for (const close of closing) await close();
	});

	function schemasOf(initial: Record<string, Connection>) {
		let connections = initial;
		const { drivers, close } = dbEngine({ shop, stock }, images);
		closing.push(close);
		const cache = new SchemaCache(() => ({ connections, drivers }));
		return { cache, set: (next: Record<string, Connection>) => (connections = next) };
	}

	it("puts each connection's tables and columns in the index once read, and tells listeners", async () => {
		const index = new BlockSearchIndex();
		const { cache } = schemasOf({ shop });
		const schemas = indexSchemas(index, cache);
		let updates = 0;
		const off = schemas.onUpdate(() => updates++);
		await schemas.ready();
		expect(tables(index, "books")).toEqual(["table books · shop"]);
		expect(found(index, "books.title")).toContain("column books.title TEXT · shop");
		const heard = updates;
		expect(heard).toBeGreaterThan(0);
		off();
		await cache.refresh("shop");
		expect(updates).toBe(heard);
		schemas.stop();
	});

	it("drops the schema of a connection removed from the settings on the next ready", async () => {
		const index = new BlockSearchIndex();
		const s = schemasOf({ shop, stock });
		const schemas = indexSchemas(index, s.cache);
		await schemas.ready();
		expect(tables(index, "shelves")).toEqual(["table shelves · stock"]);
		s.set({ shop });
		await schemas.ready();
		expect(found(index, "shelves")).toEqual([]);
		expect(tables(index, "books")).toEqual(["table books · shop"]);
		schemas.stop();
	});

	it("hears no more re-reads once stopped", async () => {
		const index = new BlockSearchIndex();
		const { cache } = schemasOf({ shop });
		const schemas = indexSchemas(index, cache);
		let updates = 0;
		schemas.onUpdate(() => updates++);
		schemas.stop();
		await cache.refresh("shop");
		expect(updates).toBe(0);
		expect(found(index, "books")).toEqual([]);
	});
});

describe("Mod+K: the block search modal", () => {
	async function open(notes: Record<string, string>, query: string) {
		document.querySelectorAll(".modal-container").forEach((m) => m.remove());
		const v = vaultApp(notes);
		const settings = defaultSettings();
		settings.environments = { dev: { token: { secret: "s" } } };
		const indexer = new VaultBlockIndexer(v.app);
		indexer.index.setVariables(variableEntries(settings));
		openBlockSearch(v.app, indexer);
		await until(() => document.querySelector(".prompt-input") !== null);
		const input = document.querySelector(".prompt-input") as HTMLInputElement;
		input.value = query;
		input.dispatchEvent(new Event("input"));
		await until(() => document.querySelectorAll(".suggestion-item").length > 0 || document.querySelector(".suggestion-empty") !== null);
		const items = () => Array.from(document.querySelectorAll<HTMLElement>(".suggestion-item"));
		return { ...v, indexer, items };
	}

	it("marks the matched characters as Obsidian does, the rest as plain text", async () => {
		const m = await open({ "api/users.md": httpNote("https://x.test/users") }, "usrs");
		const [item] = m.items();
		expect(item.classList.contains("rb-search-item")).toBe(true);
		const marked = Array.from(item.querySelectorAll(".suggestion-highlight"), (s) => s.textContent).join("");
		expect(marked).toBe("usrs");
		expect(item.textContent).toContain("users");
		expect(item.innerHTML).not.toContain("<script");
	});

	it("opens a chosen block's note at its fence line and puts the cursor there", async () => {
		const note = `# Users\n\nprose\n\n${httpNote("https://x.test/users")}`;
		const m = await open({ "api/users.md": note }, "users");
		m.items()[0].click();
		await until(() => m.leaf.opened.length === 1);
		expect(m.leaf.opened).toEqual([{ path: "api/users.md", line: 4 }]);
		await until(() => m.editor.getCursor().line === 4);
		expect(m.editor.getCursor()).toEqual({ line: 4, ch: 0 });
	});

	it("inserts a chosen variable as {{name}} at the cursor of the active note", async () => {
		const m = await open({}, "token");
		// The active note: a Markdown view whose cursor is after "two".
		m.leaf.view = new MarkdownView(new TFile("here.md"), m.editor);
		m.editor.setCursor({ line: 1, ch: 3 });
		m.items()[0].click();
		expect(m.editor.getValue()).toBe("one\ntwo{{token}}\nthree\nfour\nfive");
	});

	/**
	 * Mod+K open over 40 notes read in two batches, the second batch's reads waiting for `release`
	 * (a slow disk, a vault of thousands). Note i's block is GET https://x.test/<path(i)>.
	 */
	async function openWhileReading(path: (i: number) => string) {
		document.querySelectorAll(".modal-container").forEach((m) => m.remove());
		const notes = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`n${String(i).padStart(2, "0")}.md`, httpNote(`https://x.test/${path(i)}`)]));
		const v = vaultApp(notes);
		let release = () => undefined as void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const read = v.app.vault.cachedRead.bind(v.app.vault);
		v.app.vault.cachedRead = async (file) => (Number(/\d+/.exec(file.path)?.[0]) >= 32 ? held.then(() => read(file)) : read(file));
		const indexer = new VaultBlockIndexer(v.app);
		openBlockSearch(v.app, indexer);
		await until(() => document.querySelector(".prompt-input") !== null);
		return { indexer, release, input: document.querySelector(".prompt-input") as HTMLInputElement };
	}

	it("opens before a long first read ends, says the notes are still being read, and takes in each note as it is read", async () => {
		const { indexer, release, input } = await openWhileReading((i) => `${i < 32 ? "early" : "late"}${i}`);
		expect(indexer.reading).toBe(true);
		const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".suggestion-item"), (r) => r.textContent ?? "");
		const type = (query: string) => {
			input.value = query;
			input.dispatchEvent(new Event("input"));
		};
		type("early");
		await until(() => rows().length === 32);
		type("late");
		await until(() => document.querySelector(".suggestion-empty") !== null);
		expect(document.querySelector(".suggestion-empty")?.textContent).toBe(t("searchReading"));
		release();
		// The open list is searched again once the rest is in, without a keystroke.
		await until(() => rows().length === 8);
		expect(rows().every((r) => r.includes("late"))).toBe(true);
		expect(indexer.reading).toBe(false);
		type("nowhere");
		await until(() => document.querySelector(".suggestion-empty") !== null);
		expect(document.querySelector(".suggestion-empty")?.textContent).toBe(t("searchEmpty"));
	});

	it("keeps the row the user moved to while notes are still being read; the notes read since join at the next keystroke", async () => {
		const { indexer, release, input } = await openWhileReading((i) => `item${i}`);
		const rows = () => Array.from(document.querySelectorAll<HTMLElement>(".suggestion-item"));
		const selected = () => rows().findIndex((r) => r.classList.contains("is-selected"));
		input.value = "item";
		input.dispatchEvent(new Event("input"));
		await until(() => rows().length === 32);
		const press = (key: string) => window.dispatchEvent(new KeyboardEvent("keydown", { key }));
		press("ArrowDown");
		press("ArrowDown");
		expect(selected()).toBe(2);
		const chosen = rows()[2].textContent;
		release();
		await until(() => !indexer.reading);
		// The list's own search again is due REFRESH_MS after the last notes joined; a timer set now for longer fires after it.
		await new Promise((resolve) => window.setTimeout(resolve, 2 * REFRESH_MS));
		expect(rows()).toHaveLength(32);
		expect(selected()).toBe(2);
		expect(rows()[2].textContent).toBe(chosen);
		input.dispatchEvent(new Event("input"));
		await until(() => rows().length === 40);
	});

	it("shows its empty text when nothing matches, and inserts nothing without an active note", async () => {
		const m = await open({ "a.md": httpNote("https://x.test/alpha") }, "zzzz");
		expect(m.items()).toEqual([]);
		expect(document.querySelector(".suggestion-empty")?.textContent).toBe(t("searchEmpty"));
		const variable = await open({}, "token");
		variable.items()[0].click();
		expect(variable.editor.getValue()).toBe("one\ntwo\nthree\nfour\nfive");
	});
});
