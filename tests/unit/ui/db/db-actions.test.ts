import { Notice } from "obsidian";
import { blockKey, parseNote, type NoteBlock } from "../../../../src/blocks";
import { dbOf } from "../../../../src/runner/db/db-result";
import { DEFAULT_MAX_ROWS, type Connection } from "../../../../src/settings/connections";
import { dbPanelActions } from "../../../../src/ui/db/db-actions";
import { Notes } from "../../../../src/ui/notes";
import { dbEngine, nextFinished, sqliteImage } from "../../../support/db-engine";
import { memoryVault } from "../../../support/memory-vault";
import { until } from "../../../support/until";

const PATH = "n.md";
const NOTE = "# Shop\n\n```db connection=shop alias=books\nSELECT id, title FROM books ORDER BY id\n```\n";
const BOOKS = "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO books VALUES (1, 'Dune'), (2, 'Emma'), (3, 'Ulysses'), (4, 'Beloved'), (5, 'Middlemarch');";
const shown = () => Notice as unknown as { shown: string[] };

async function setUp(connections: Record<string, Connection> = { shop: { type: "sqlite", path: "shop.sqlite", readonly: true, maxRows: 2 } }) {
	const vault = memoryVault({ [PATH]: NOTE });
	const db = dbEngine(connections, { "shop.sqlite": await sqliteImage(BOOKS) });
	const notes = new Notes(vault.app);
	const rendered = notes.ofText(NOTE)[0];
	const actions = dbPanelActions(db.engine, notes, () => connections, PATH, rendered);
	const session = db.engine.sessions.note(PATH);
	const key = blockKey(rendered);
	/** Runs an action and resolves with the run it started, once finished. */
	const act = (f: () => void) => {
		const done = nextFinished(session, key);
		f();
		return done;
	};
	return { vault, db, actions, session, key, act };
}

const titles = (s: ReturnType<typeof dbOf>) => s?.rows.map((r) => r.title);

describe("a db panel's actions", () => {
	let close: (() => Promise<void>) | null = null;
	afterEach(async () => {
		await close?.();
		close = null;
	});

	it("run the block as the note has it now, not as it was rendered", async () => {
		const t = await setUp();
		close = t.db.close;
		t.vault.files.set(PATH, NOTE.replace("ORDER BY id", "WHERE id = 3"));
		const s = await t.act(() => t.actions.run());
		expect(s.state).toBe("done");
		expect(titles(dbOf(s))).toEqual(["Ulysses"]);
	});

	it("say so in a notice, and run nothing, when the block is gone from the note", async () => {
		const t = await setUp();
		close = t.db.close;
		t.vault.files.set(PATH, "# Shop\n\nNo blocks any more.\n");
		shown().shown.length = 0;
		t.actions.run();
		// Nothing runs, so the session has nothing to say: wait for the notice.
		await until(() => shown().shown.length > 0);
		expect(shown().shown).toEqual(["Runnable Blocks: The block @books is no longer in n.md"]);
		expect(t.session.snapshot(t.key).state).toBe("idle");
	});

	it("load more by running again with the rows shown plus one page of the connection's max_rows", async () => {
		const t = await setUp();
		close = t.db.close;
		const first = dbOf(await t.act(() => t.actions.run()));
		expect([first?.rows.length, first?.rowCount, first?.truncated]).toEqual([2, 5, true]);
		expect(t.actions.pageSize()).toBe(2);
		const more = dbOf(await t.act(() => t.actions.loadMore(2)));
		expect(titles(more)).toEqual(["Dune", "Emma", "Ulysses", "Beloved"]);
		expect(more?.truncated).toBe(true);
	});

	it("explain by running the block for its plan", async () => {
		const t = await setUp();
		close = t.db.close;
		const s = dbOf(await t.act(() => t.actions.explain(false)));
		expect(s?.plan?.map((n) => n.label)).toEqual(["SCAN books"]);
	});

	it("cancel the block's run in flight", async () => {
		const t = await setUp();
		close = t.db.close;
		const controller = t.session.begin(t.key);
		t.session.update(t.key, { kind: "db", state: "running" });
		t.actions.cancel();
		expect(controller.signal.aborted).toBe(true);
	});

	it.each<[string, Record<string, Connection>, string, number]>([
		["the connection's max_rows", { shop: { type: "sqlite", path: "shop.sqlite", readonly: true, maxRows: 25 } }, "connection=shop", 25],
		["the default without one", { shop: { type: "sqlite", path: "shop.sqlite", readonly: true } }, "connection=shop", DEFAULT_MAX_ROWS],
		["the default for an unknown connection", {}, "connection=gone", DEFAULT_MAX_ROWS],
	])("page by %s", (_rule, connections, info, size) => {
		const block: NoteBlock = parseNote(`\`\`\`db ${info}\nSELECT 1\n\`\`\`\n`)[0];
		const actions = dbPanelActions(dbEngine(connections, {}).engine, new Notes(memoryVault().app), () => connections, PATH, block);
		expect(actions.pageSize()).toBe(size);
	});
});
