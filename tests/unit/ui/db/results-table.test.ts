/** @jest-environment jsdom */
import type { DbColumn, DbRow } from "../../../../src/runner/db/driver";
import { columnWidths, ResultsTable } from "../../../../src/ui/db/results-table";
import { ManualFrames } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

const frames = new ManualFrames();

const COLUMNS: DbColumn[] = [
	{ name: "id", type: "INTEGER" },
	{ name: "title", type: "TEXT" },
];
const numbered = (n: number): DbRow[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `book ${i + 1}` }));

function mount(columns: readonly DbColumn[], rows: readonly DbRow[]) {
	const parent = document.body.createDiv();
	const table = new ResultsTable(parent, columns, rows);
	table.load();
	const rowEls = () => [...table.el.querySelectorAll<HTMLElement>(".rb-db-row")];
	const shown = () => rowEls().filter((r) => !r.hasClass("rb-hidden"));
	const cells = (row: HTMLElement) => [...row.children].map((c) => c.textContent);
	const scrollTo = (top: number) => {
		table.el.scrollTop = top;
		table.el.dispatchEvent(new Event("scroll"));
	};
	return { table, parent, rowEls, shown, cells, scrollTo };
}

afterEach(() => document.body.empty());

describe("ResultsTable", () => {
	it("heads each column with its name and type, and counts the header as a row for screen readers", () => {
		const { table } = mount(COLUMNS, numbered(3));
		const heads = [...table.el.querySelectorAll(".rb-db-th")];
		expect(heads.map((h) => [h.querySelector(".rb-db-col-name")?.textContent, h.querySelector(".rb-db-col-type")?.textContent, h.getAttribute("title")])).toEqual([
			["id", "INTEGER", "id · INTEGER"],
			["title", "TEXT", "title · TEXT"],
		]);
		expect(table.el.getAttribute("aria-rowcount")).toBe("4");
	});

	it("shows every row of a small result, numbered, with NULL marked and numbers aligned as numbers", () => {
		const { rowEls, cells } = mount(
			[...COLUMNS, { name: "meta", type: "JSON" }],
			[
				{ id: 1, title: "Dune", meta: { pages: 412 } },
				{ id: 2, title: null, meta: [1, "a"] },
			],
		);
		expect(rowEls().map(cells)).toEqual([
			["1", "1", "Dune", '{"pages":412}'],
			["2", "2", "NULL", '[1,"a"]'],
		]);
		const [first, second] = rowEls();
		expect(first.children[1].className).toBe("rb-db-cell rb-db-num");
		expect(first.children[2].className).toBe("rb-db-cell");
		expect(second.children[2].className).toBe("rb-db-cell rb-db-null");
		expect(second.getAttribute("aria-rowindex")).toBe("3");
	});

	it("keys repeated column names apart, so each shows its own value", () => {
		const { rowEls, cells } = mount(
			[
				{ name: "id", type: "INTEGER" },
				{ name: "id", type: "INTEGER" },
			],
			[{ id: 1, "id (2)": 7 }],
		);
		expect(rowEls().map(cells)).toEqual([["1", "1", "7"]]);
	});

	it("puts only the rows around the visible window in the DOM", () => {
		const { table, rowEls, cells } = mount(COLUMNS, numbered(100_000));
		// No layout here: a 360 px view of 24 px rows (15), plus 20 rows of overscan below.
		expect(table.window).toEqual({ first: 0, last: 35 });
		expect(rowEls()).toHaveLength(35);
		expect(cells(rowEls()[34])).toEqual(["35", "35", "book 35"]);
		expect((table.el.querySelector(".rb-db-body") as HTMLElement).style.getPropertyValue("--rb-db-body-height")).toBe(`${100_000 * 24}px`);
	});

	it("moves the window on the next frame after a scroll, reusing its row elements", () => {
		const { table, rowEls, shown, cells, scrollTo } = mount(COLUMNS, numbered(1000));
		const before = rowEls();
		scrollTo(2400);
		scrollTo(2400);
		expect(frames.pending).toBe(1);
		expect(table.window).toEqual({ first: 0, last: 35 });
		frames.next();
		expect(table.window).toEqual({ first: 80, last: 135 });
		expect(cells(shown()[0])).toEqual(["81", "81", "book 81"]);
		expect(rowEls().slice(0, before.length)).toEqual(before);
		expect((table.el.querySelector(".rb-db-rows") as HTMLElement).style.getPropertyValue("--rb-db-offset")).toBe(`${80 * 24}px`);
	});

	it("leaves the DOM alone for a scroll the rendered rows still cover, and hides pooled rows past the end", () => {
		const { table, rowEls, shown, scrollTo } = mount(COLUMNS, numbered(1000));
		scrollTo(2400);
		frames.next();
		const rows = rowEls();
		scrollTo(2500);
		frames.next();
		expect(table.window).toEqual({ first: 80, last: 135 });
		expect(rowEls()).toEqual(rows);
		scrollTo(24 * 990);
		frames.next();
		expect(table.window).toEqual({ first: 970, last: 1000 });
		expect(shown()).toHaveLength(30);
		expect(rowEls().length).toBe(rows.length);
	});

	it("cancels a pending frame and leaves the page when unloaded", () => {
		const { table, parent, scrollTo } = mount(COLUMNS, numbered(1000));
		scrollTo(2400);
		table.unload();
		expect(frames.pending).toBe(0);
		expect(parent.querySelector(".rb-db-table")).toBeNull();
	});
});

describe("columnWidths", () => {
	it.each([
		["the header when the values are short", [{ name: "title", type: "T" }], [{ title: "a" }], [5 + 3]],
		["the type (and its brackets) when it is the widest", [{ name: "n", type: "VARCHAR(255)" }], [{ n: "x" }], [14 + 3]],
		["the widest value", [{ name: "t", type: "T" }], [{ t: "a longer value here" }], [19 + 3]],
		["a value's first line only", [{ name: "t", type: "T" }], [{ t: "first\nand a much longer second line" }], [5 + 3]],
		["NULL's width for a null", [{ name: "t", type: "T" }], [{ t: null }], [4 + 3]],
		["no more than 40", [{ name: "t", type: "T" }], [{ t: "x".repeat(500) }], [40 + 3]],
	])("fit %s", (_rule, columns: DbColumn[], rows: DbRow[], widths) => expect(columnWidths(columns, rows)).toEqual(widths));

	it("samples the first 200 rows only", () => {
		const rows: DbRow[] = [...Array.from({ length: 200 }, () => ({ t: "ab" })), { t: "a value past the sample" }];
		expect(columnWidths([{ name: "t", type: "T" }], rows)).toEqual([4 + 3]);
	});
});
