import initSqlJs from "sql.js";
import { splitStatements } from "../../../../src/blocks";
import { createSqliteDriver } from "../../../../src/runner/db/sqlite";
import { historySqliteFile, refusedOnHistory } from "../../../../src/runner/db/history-connection";
import { migrate } from "../../../../src/runner/history-schema";

const statements = (sql: string) => splitStatements(sql, "sqlite");

describe("the statements the history connection runs", () => {
	it.each(["SELECT * FROM block_run_history", "WITH r AS (SELECT 1) SELECT * FROM r", "EXPLAIN QUERY PLAN SELECT 1", "-- latency\nSELECT avg(duration_ms) FROM block_run_history", "SELECT name FROM pragma_table_info('block_run_history')"])("runs the read %j", (sql) => {
		expect(refusedOnHistory(statements(sql))).toBeNull();
	});

	it.each([
		["DELETE FROM block_run_history", 0, "DELETE"],
		["SELECT 1; insert into block_run_history (id) values (1)", 1, "INSERT"],
		["UPDATE block_run_history SET status = 0", 0, "UPDATE"],
		["DROP TABLE block_run_history", 0, "DROP"],
		["PRAGMA query_only = 0", 0, "PRAGMA"],
		["PRAGMA table_info(block_run_history)", 0, "PRAGMA"],
		["ATTACH DATABASE 'x.sqlite' AS x", 0, "ATTACH"],
		["BEGIN", 0, "BEGIN"],
		["/* sneaky */ REPLACE INTO block_run_history (id) VALUES (1)", 0, "REPLACE"],
		["WITH gone AS (SELECT 1) DELETE FROM block_run_history", 0, "DELETE"],
	])("refuses %j, naming its statement and keyword", (sql, index, keyword) => {
		expect(refusedOnHistory(statements(sql))).toEqual({ index, keyword });
	});
});

describe("run history as the SQLite driver's file", () => {
	it("reads the store's image on every run, and refuses every write", async () => {
		const SQL = await initSqlJs();
		const image = new SQL.Database();
		migrate(image);
		image.run("INSERT INTO block_run_history (file_path, alias, method, url, status, outcome, request_bytes, response_bytes, duration_ms, timestamp) VALUES ('a.md', 'x', 'GET', 'http://h/', 200, 'done', 0, 2, 12.5, 1)");
		let reads = 0;
		const file = historySqliteFile({ snapshot: () => (reads++, Promise.resolve(image.export())) });
		const driver = createSqliteDriver(() => Promise.resolve(SQL), file, { readonly: true });
		const out = await driver.run([{ text: "SELECT alias, duration_ms FROM block_run_history", params: [], kind: "select" }], { timeoutMs: 5000, maxRows: 10 });
		expect(out).toMatchObject({ kind: "done", rows: [{ alias: "x", duration_ms: 12.5 }] });
		expect(reads).toBe(1);
		await expect(file.write(new Uint8Array(1))).rejects.toThrow("the history connection is read-only");
	});

	it("says history is not kept where there is none (the CLI outside a vault)", async () => {
		await expect(historySqliteFile(null).read()).rejects.toThrow("run history is not kept here (the note is not in a vault)");
	});
});
