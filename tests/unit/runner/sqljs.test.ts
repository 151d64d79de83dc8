import { loadSqlJs, sqlWasmForWorker } from "../../../src/runner/sqljs";

describe("sql.js on the calling thread", () => {
	it("loads once, on first use, and the database it gives works", async () => {
		const first = loadSqlJs();
		expect(loadSqlJs()).toBe(first);
		const SQL = await first;
		const db = new SQL.Database();
		expect(db.exec("SELECT 6 * 7 AS n")[0].values).toEqual([[42]]);
		db.close();
		await expect(loadSqlJs()).resolves.toBe(SQL);
	});

	it("re-exports what a worker is handed", async () => {
		await expect(sqlWasmForWorker()).resolves.toHaveProperty("deflatedBase64");
	});
});
