/** @jest-environment jsdom */
import type { DbBlockRun, DbRun } from "../../../../src/runner/db/db-result";
import type { RunSnapshot } from "../../../../src/runner/result";
import { NoteSession } from "../../../../src/runner/session";
import { appendMarked, DbPanel, type DbPanelActions } from "../../../../src/ui/db/db-panel";
import { installDomHelpers, notices } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

const KEY = "@books";
const BOOKS = [
	{ id: 1, title: "Dune" },
	{ id: 2, title: "Emma" },
];

/** A finished db run of the block, as the engine publishes it. */
function dbRun(db: Partial<DbRun> = {}, run: Partial<DbBlockRun> = {}): RunSnapshot {
	return {
		kind: "db",
		state: "done",
		startedAt: 1000,
		timing: { total: 12 },
		db: { connection: "shop", dialect: "sqlite", columns: [{ name: "id", type: "INTEGER" }, { name: "title", type: "TEXT" }], rows: BOOKS, rowCount: 2, truncated: false, statements: [{ kind: "select", rowCount: 2 }], ...db },
		...run,
	};
}

function mount(pageSize = 50) {
	document.body.empty();
	const session = new NoteSession();
	const calls: string[] = [];
	const actions: DbPanelActions = {
		run: () => calls.push("run"),
		cancel: () => calls.push("cancel"),
		explain: (analyze) => calls.push(`explain ${analyze}`),
		loadMore: (shown) => calls.push(`loadMore ${shown}`),
		pageSize: () => pageSize,
	};
	const info = { runKey: "Ctrl+Enter", contentLines: ["SELECT id,", "  titel", "FROM books"], firstContentLine: 10 };
	const panel = new DbPanel(document.body, session, KEY, info, actions);
	panel.load();
	const q = (selector: string) => panel.el.querySelector<HTMLElement>(selector);
	const texts = (selector: string) => [...panel.el.querySelectorAll(selector)].map((e) => e.textContent);
	const show = (s: RunSnapshot) => session.update(KEY, s);
	const runButton = () => q(".rb-run") as HTMLButtonElement;
	const menu = () => {
		q(".rb-gear")?.click();
		return [...document.querySelectorAll<HTMLElement>(".menu .menu-item")];
	};
	const menuItem = (title: string) => menu().find((i) => i.textContent === title);
	return { panel, session, calls, q, texts, show, runButton, menu, menuItem };
}

describe("DbPanel", () => {
	it("says how to run a block that has not run yet", () => {
		const p = mount();
		expect(p.q(".rb-db-content")?.textContent).toBe("Not run yet. Press run or Ctrl+Enter.");
		expect(p.panel.el.dataset.state).toBe("idle");
		expect(p.texts(".rb-badge")).toEqual(["idle"]);
	});

	it("runs from the Run button, and the same button stops a running query", () => {
		const p = mount();
		p.runButton().click();
		expect(p.calls).toEqual(["run"]);
		p.show({ kind: "db", state: "running", startedAt: 1000 });
		expect(p.runButton().textContent).toBe("Stop");
		expect(p.runButton().hasClass("rb-running")).toBe(true);
		expect(p.q(".rb-progress")?.textContent).toBe("Running the query…");
		expect(p.panel.el.dataset.startedAt).toBe("1000");
		p.runButton().click();
		expect(p.calls).toEqual(["run", "cancel"]);
		p.show(dbRun());
		expect(p.runButton().textContent).toBe("Run");
		expect(p.runButton().hasClass("rb-running")).toBe(false);
	});

	it("shows the rows in a table, with the state, connection, row count and time as badges", () => {
		const p = mount();
		p.show(dbRun());
		expect(p.texts(".rb-db-row .rb-db-cell")).toEqual(["1", "Dune", "2", "Emma"]);
		expect(p.texts(".rb-badge")).toEqual(["done", "shop", "2 rows", "12 ms"]);
		expect(p.q(".rb-db-connection")?.getAttribute("aria-label")).toBe("Connection shop");
		expect(p.q(".rb-db-statements")).toBeNull();
	});

	it("offers to load the next page of a cut-off read, at most what is left", () => {
		const p = mount(50);
		p.show(dbRun({ rows: Array.from({ length: 50 }, (_, i) => ({ id: i, title: "t" })), rowCount: 70, truncated: true }));
		expect(p.q(".rb-db-rowcount")?.textContent).toBe("50 of 70 rows");
		const more = p.q(".rb-db-load-more") as HTMLButtonElement;
		expect(more.textContent).toBe("Load 20 more");
		more.click();
		expect(p.calls).toEqual(["loadMore 50"]);
	});

	it("does not offer to load more rows when that would run the block's writes again", () => {
		const p = mount();
		p.show(dbRun({ rows: [BOOKS[0]], rowCount: 2, truncated: true, statements: [{ kind: "insert", rowCount: 1 }, { kind: "select", rowCount: 2 }] }));
		expect(p.q(".rb-db-load-more")).toBeNull();
		expect(p.q(".rb-db-more")?.textContent).toContain("Showing the first 1 of 2 rows.");
	});

	it("lists each statement of a block without a result set, and says none returned rows", () => {
		const p = mount();
		p.show(dbRun({ columns: [], rows: [], rowCount: 0, statements: [{ kind: "insert", rowCount: 1 }, { kind: "ddl", rowCount: null }] }));
		expect(p.texts(".rb-db-statements li")).toEqual(["INSERT: 1 row", "DDL: done"]);
		expect(p.q(".rb-db-no-rows")?.textContent).toBe("No statement returned rows.");
		expect(p.q(".rb-db-table")).toBeNull();
	});

	it("shows the engine's error and quotes the line it points at, the spot underlined", () => {
		const p = mount();
		p.show(dbRun({ columns: [], rows: [], errorAt: { line: 11, column: 2 } }, { state: "failed", error: { code: "sql_error", message: "no such column: titel", detail: "SQLITE_ERROR" } }));
		expect(p.q(".rb-error-message")?.textContent).toBe("no such column: titel");
		expect(p.q(".rb-error-detail")?.textContent).toBe("SQLITE_ERROR");
		expect(p.q(".rb-db-error-where")?.textContent).toBe("Line 12, column 3");
		expect(p.q(".rb-db-error-line")?.textContent).toBe("  titel");
		expect(p.q(".rb-db-error-at")?.textContent).toBe("titel");
		expect(p.q(".rb-badge.rb-error")?.getAttribute("title")).toBe("SQLITE_ERROR");
	});

	it("names the position without quoting when it is outside the block's lines", () => {
		const p = mount();
		p.show(dbRun({ errorAt: { line: 40, column: 0 } }, { state: "failed", error: { code: "sql_error", message: "syntax error" } }));
		expect(p.q(".rb-db-error-where")?.textContent).toBe("Line 41, column 1");
		expect(p.q(".rb-db-error-line")).toBeNull();
	});

	it("shows nothing but its badges for a stopped run", () => {
		const p = mount();
		p.show({ kind: "db", state: "cancelled", timing: { total: 3 }, error: { code: "cancelled", message: "[cancelled]" } });
		expect(p.q(".rb-db-content")?.textContent).toBe("");
		expect(p.texts(".rb-badge")).toEqual(["cancelled", "3 ms", "[cancelled]"]);
	});

	it("shows an EXPLAIN run's plan instead of rows, without a row count", () => {
		const p = mount();
		p.show(dbRun({ plan: [{ label: "SCAN books", children: [] }] }));
		expect(p.q(".rb-db-plan .rb-db-plan-label")?.textContent).toBe("SCAN books");
		expect(p.q(".rb-db-table")).toBeNull();
		expect(p.q(".rb-db-rowcount")).toBeNull();
	});

	it("asks for the plan from Explain, and for an analysed one from the menu", () => {
		const p = mount();
		p.q(".rb-db-explain")?.click();
		p.menuItem("Explain with analyze (runs the query)")?.click();
		expect(p.calls).toEqual(["explain false", "explain true"]);
	});

	it("offers to copy rows only when a finished run has columns", () => {
		const p = mount();
		expect(p.menu().map((i) => i.textContent)).toEqual(["Explain with analyze (runs the query)"]);
		p.show(dbRun());
		expect(p.menu().map((i) => i.textContent)).toEqual(["Explain with analyze (runs the query)", "Copy as CSV", "Copy as TSV", "Copy as Markdown", "Copy as JSON"]);
		p.show({ ...dbRun(), state: "running" });
		expect(p.menu()).toHaveLength(1);
	});

	it("copies the rows in the chosen format and says how many, or why the clipboard refused", async () => {
		const written: string[] = [];
		let refuse = false;
		Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: (text: string) => (refuse ? Promise.reject(new Error("denied")) : Promise.resolve(void written.push(text))) } });
		const p = mount();
		p.show(dbRun());
		notices.length = 0;
		p.menuItem("Copy as CSV")?.click();
		await Promise.resolve();
		await Promise.resolve();
		expect(written).toEqual(["id,title\r\n1,Dune\r\n2,Emma\r\n"]);
		expect(notices).toEqual(["Runnable Blocks: Copied 2 rows as CSV"]);
		refuse = true;
		p.menuItem("Copy as JSON")?.click();
		await Promise.resolve();
		await Promise.resolve();
		expect(notices[1]).toBe("Runnable Blocks: Could not write to the clipboard: denied");
	});

	it("keeps the table of a run it already shows when only the badges change", () => {
		const p = mount();
		const shown = dbRun();
		p.show(shown);
		const table = p.q(".rb-db-table");
		p.show({ ...shown, timing: { total: 99 } });
		expect(p.q(".rb-db-table")).toBe(table);
		expect(p.q(".rb-time")?.textContent).toBe("99 ms");
		p.show(dbRun());
		expect(p.q(".rb-db-table")).not.toBe(table);
	});

	it("leaves the page and stops following the session when unloaded", () => {
		const p = mount();
		p.panel.unload();
		expect(document.querySelector(".rb-db-panel")).toBeNull();
		p.show(dbRun());
		expect(p.panel.el.querySelector(".rb-db-table")).toBeNull();
	});
});

describe("appendMarked", () => {
	it.each([
		["a word at the column", "SELECT titel FROM t", 7, ["SELECT ", "titel", " FROM t"]],
		["a blank at a line's end, so the caret still shows", "SELECT", 6, ["SELECT", " ", ""]],
	])("underlines %s", (_rule, line, column, [before, marked, after]) => {
		const el = createDiv();
		appendMarked(el, line, column);
		expect(el.querySelector(".rb-db-error-at")?.textContent).toBe(marked);
		expect(el.textContent).toBe(`${before}${marked}${after}`);
	});
});
