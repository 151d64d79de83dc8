import { dbJson, dbSummary, dbTable } from "../../../src/cli/db-output";
import type { DbRun } from "../../../src/runner/db/db-result";
import type { BlockResult } from "../../../src/runner/result";

const run = (db: Partial<DbRun>, state: BlockResult["state"] = "done"): BlockResult =>
	({ kind: "db", state, db: { connection: "shop", dialect: "sqlite", columns: [], rows: [], rowCount: 0, truncated: false, statements: [], ...db } });

describe("dbSummary", () => {
	it("names the connection, the statements and the rows", () => {
		expect(dbSummary(run({ statements: [{ kind: "insert", rowCount: 1 }, { kind: "select", rowCount: 3 }], rowCount: 3 }), undefined)).toBe("db:shop INSERT; SELECT → 3 rows");
		expect(dbSummary(run({ statements: [{ kind: "select", rowCount: 1 }], rowCount: 1 }), undefined)).toBe("db:shop SELECT → 1 row");
		expect(dbSummary(run({ statements: [{ kind: "select", rowCount: 500 }], rowCount: 500, rows: [{}, {}], truncated: true }), undefined)).toBe("db:shop SELECT → 500 rows (2 kept)");
		expect(dbSummary(run({ statements: [{ kind: "explain", rowCount: null }], plan: [] }), undefined)).toBe("db:shop EXPLAIN → plan");
	});

	it("says no rows for a run that did not finish, and falls back to the block's connection", () => {
		expect(dbSummary(run({}, "failed"), undefined)).toBe("db:shop SQL");
		expect(dbSummary({ kind: "db", state: "failed" }, "local")).toBe("db:local SQL");
		expect(dbSummary({ kind: "db", state: "failed" }, undefined)).toBe("db:? SQL");
	});
});

describe("dbTable", () => {
	const columns = [
		{ name: "id", type: "INTEGER" },
		{ name: "note", type: "TEXT" },
	];

	it("aligns the first rows under their column names and types, NULL written as NULL", () => {
		expect(dbTable(columns, [{ id: 1, note: "a\n  b" }, { id: 22, note: null }])).toEqual(["id (INTEGER) │ note (TEXT)", "─────────────┼────────────", "1            │ a b", "22           │ NULL"]);
	});

	it("cuts long cells and counts the rows left out", () => {
		const rows = [{ id: 1, note: "x".repeat(50) }, { id: 2, note: "" }, { id: 3, note: "" }];
		const out = dbTable(columns, rows, 2, 10);
		expect(out[2]).toBe(`1          │ ${"x".repeat(9)}…`);
		expect(out).toHaveLength(5);
		expect(out[4]).toBe("… 1 more");
	});

	it("shows nothing without columns", () => {
		expect(dbTable([], [])).toEqual([]);
	});
});

describe("dbJson", () => {
	it("gives the rows with 1-based error positions, the plan and the engine's code when there are some", () => {
		expect(dbJson(run({ rows: [{ n: 1 }], rowCount: 1, errorAt: { line: 0, column: 4 }, engineCode: "SQLITE_ERROR", plan: [{ label: "SCAN t", children: [] }] as never }))).toEqual({
			connection: "shop",
			columns: [],
			rows: [{ n: 1 }],
			rowCount: 1,
			truncated: false,
			statements: [],
			plan: [{ label: "SCAN t", children: [] }],
			errorAt: { line: 1, column: 5 },
			engineCode: "SQLITE_ERROR",
		});
	});

	it("is absent for a run that is not a db run", () => {
		expect(dbJson({ state: "failed" })).toBeUndefined();
	});
});
