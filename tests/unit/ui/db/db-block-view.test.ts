/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import type { MarkdownPostProcessorContext } from "obsidian";
import { blockKey, type DbNoteBlock } from "../../../../src/blocks";
import type { EnginePorts } from "../../../../src/runner/engine";
import type { Connection } from "../../../../src/settings/connections";
import { defaultSettings } from "../../../../src/settings/user-settings";
import type { BlockHost } from "../../../../src/ui/block-host";
import { DbBlockView, dbEditorPanel } from "../../../../src/ui/db/db-block-view";
import { Notes } from "../../../../src/ui/notes";
import { dbEngine, nextFinished, sqliteImage } from "../../../support/db-engine";
import { memoryVault } from "../../../support/memory-vault";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

const PATH = "shop.md";
const SQL = "SELECT id, title\nFROM books ORDER BY id";
const NOTE = `# Shop\n\n\`\`\`db connection=shop alias=books\n${SQL}\n\`\`\`\n`;
const CONNECTIONS: Record<string, Connection> = { shop: { type: "sqlite", path: "shop.sqlite", readonly: true } };

async function setUp(note = NOTE) {
	const vault = memoryVault({ [PATH]: note });
	const db = dbEngine(CONNECTIONS, { "shop.sqlite": await sqliteImage("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO books VALUES (1, 'Dune'), (2, 'Emma');") });
	const notes = new Notes(vault.app);
	const host: BlockHost = {
		app: vault.app,
		engine: db.engine,
		services: {} as EnginePorts,
		notes,
		settings: () => ({ ...defaultSettings(), connections: CONNECTIONS }),
		session: (path) => db.engine.sessions.note(path),
		runKeyLabel: () => "Ctrl+Enter",
	};
	const block = notes.ofText(note).find((b): b is DbNoteBlock => b.kind === "db") as DbNoteBlock;
	return { vault, db, notes, host, block };
}

/** Renders the block as Obsidian does: its source, and the section it sits in (none: no section info). */
function render(host: BlockHost, note: string, block: DbNoteBlock | null) {
	document.body.empty();
	const el = document.body.createDiv();
	const ctx = {
		sourcePath: PATH,
		getSectionInfo: () => (block ? { text: note, lineStart: block.fence.startLine, lineEnd: block.fence.endLine } : null),
	} as unknown as MarkdownPostProcessorContext;
	const view = new DbBlockView(el, `${SQL}\n`, ctx, host);
	view.load();
	return { el, view };
}

describe("DbBlockView", () => {
	let close: (() => Promise<void>) | null = null;
	afterEach(async () => {
		await close?.();
		close = null;
	});

	it("shows the alias, the connection, the SQL as written and the panel", async () => {
		const t = await setUp();
		close = t.db.close;
		const { el } = render(t.host, NOTE, t.block);
		expect(el.querySelector(".rb-alias")?.textContent).toBe("alias books");
		expect(el.querySelector(".rb-db-connection-name")?.textContent).toBe("Connection shop");
		expect(el.querySelector(".rb-db-source")?.textContent).toBe(SQL);
		expect(el.querySelector(".rb-db-panel .rb-db-content")?.textContent).toBe("Not run yet. Press run or Ctrl+Enter.");
	});

	it("runs the block from its panel and shows the rows", async () => {
		const t = await setUp();
		close = t.db.close;
		const { el } = render(t.host, NOTE, t.block);
		const finished = nextFinished(t.db.engine.sessions.note(PATH), blockKey(t.block));
		el.querySelector<HTMLElement>(".rb-run")?.click();
		expect((await finished).state).toBe("done");
		expect([...el.querySelectorAll(".rb-db-row .rb-db-cell")].map((c) => c.textContent)).toEqual(["1", "Dune", "2", "Emma"]);
	});

	it("underlines in the SQL the spot a failed run's error points at, and only while it stands", async () => {
		const t = await setUp();
		close = t.db.close;
		const { el } = render(t.host, NOTE, t.block);
		const session = t.db.engine.sessions.note(PATH);
		const secondLine = t.block.fence.startLine + 2;
		session.update(blockKey(t.block), { kind: "db", state: "failed", error: { code: "sql_error", message: "near ORDER" }, db: { connection: "shop", dialect: "sqlite", columns: [], rows: [], rowCount: 0, truncated: false, statements: [], errorAt: { line: secondLine, column: 11 } } });
		const source = el.querySelector(".rb-db-source") as HTMLElement;
		expect(source.querySelector(".rb-db-error-at")?.textContent).toBe("ORDER");
		expect(source.textContent).toBe(SQL);
		session.update(blockKey(t.block), { kind: "db", state: "running" });
		expect(source.querySelector(".rb-db-error-at")).toBeNull();
		expect(source.textContent).toBe(SQL);
	});

	it("lists the block's problems", async () => {
		const note = NOTE.replace("alias=books", "alias=books colour=red");
		const t = await setUp(note);
		close = t.db.close;
		const { el } = render(t.host, note, t.block);
		expect([...el.querySelectorAll(".rb-problems li")].map((li) => li.textContent)).toEqual([expect.stringMatching(/^Line 3: .*colour/)]);
	});

	it("shows only the SQL when Obsidian gives no section to find the block by", async () => {
		const t = await setUp();
		close = t.db.close;
		const { el } = render(t.host, NOTE, null);
		expect(el.querySelector(".rb-db-source")?.textContent).toBe(`${SQL}\n`);
		expect(el.querySelector(".rb-db-panel")).toBeNull();
		expect(el.querySelector(".rb-db-connection-name")).toBeNull();
	});

	it("stops following the session when unloaded", async () => {
		const t = await setUp();
		close = t.db.close;
		const { el, view } = render(t.host, NOTE, t.block);
		view.unload();
		t.db.engine.sessions.note(PATH).update(blockKey(t.block), { kind: "db", state: "failed", error: { code: "sql_error", message: "x" }, db: { connection: "shop", dialect: "sqlite", columns: [], rows: [], rowCount: 0, truncated: false, statements: [], errorAt: { line: t.block.fence.startLine + 1, column: 0 } } });
		expect(el.querySelector(".rb-db-error-at")).toBeNull();
		expect(el.querySelector(".rb-db-panel")).toBeNull();
	});
});

describe("dbEditorPanel", () => {
	let close: (() => Promise<void>) | null = null;
	afterEach(async () => {
		await close?.();
		close = null;
	});

	it("keeps its identity while the block is the same, even moved, and changes it with the SQL or the display", async () => {
		const t = await setUp();
		const again = (note: string) => dbEditorPanel(t.notes.ofText(note).find((b): b is DbNoteBlock => b.kind === "db") as DbNoteBlock, PATH, t.host);
		const panel = dbEditorPanel(t.block, PATH, t.host);
		expect(panel.display).toBe("split");
		// A block that moved keeps its panel: the identity is its key (here its alias), not its line.
		expect(again(`\n\n${NOTE}`).identity).toBe(panel.identity);
		expect(again(NOTE.replace("ORDER BY id", "ORDER BY title")).identity).not.toBe(panel.identity);
		const output = again(NOTE.replace("alias=books", "alias=books display=output"));
		expect(output.display).toBe("output");
		expect(output.identity).not.toBe(panel.identity);
	});

	it("mounts the block's panel, following the note's session", async () => {
		const t = await setUp();
		close = t.db.close;
		const wrap = document.body.createDiv();
		const panel = dbEditorPanel(t.block, PATH, t.host).mount(wrap);
		panel.load();
		const finished = nextFinished(t.db.engine.sessions.note(PATH), blockKey(t.block));
		wrap.querySelector<HTMLElement>(".rb-run")?.click();
		await finished;
		expect(wrap.querySelector(".rb-db-rowcount")?.textContent).toBe("2 rows");
		panel.unload();
		expect(wrap.querySelector(".rb-db-panel")).toBeNull();
	});
});
