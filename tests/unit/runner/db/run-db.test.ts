import initSqlJs from "sql.js";
import { parseNote, type DbNoteBlock } from "../../../../src/blocks";
import { DbDrivers } from "../../../../src/runner/db/connect";
import { prepareDb } from "../../../../src/runner/db/run-db";
import { readResult } from "../../../../src/runner/block-runners";
import { withBuiltInConnections, type Connection } from "../../../../src/settings/connections";

const drivers = new DbDrivers({
	sqlJs: () => initSqlJs(),
	sqliteFile: (path) => ({ path, read: () => Promise.resolve(null), write: () => Promise.resolve() }),
	readSecret: (id) => (id === "set" ? "pw" : undefined),
});

const connections: Record<string, Connection> = {
	lite: { type: "sqlite", path: "a.sqlite", readonly: true },
	pg: { type: "postgres", host: "127.0.0.1", readonly: true, timeout: 2500, maxRows: 5 },
};

const db = (md: string) => parseNote(md).find((b): b is DbNoteBlock => b.kind === "db") as DbNoteBlock;
const ctx = (env: Record<string, string> = {}) => ({ env, aliases: new Set<string>(), result: () => undefined, read: readResult });

describe("preparing a db block", () => {
	it("refuses a write on the built-in history connection before anything runs, at the statement's line", () => {
		const p = prepareDb(db("```db connection=history\nSELECT 1;\n  update block_run_history SET status = 0\n```"), { connections: withBuiltInConnections(connections), drivers }, ctx());
		expect(p).toEqual({ ok: false, error: { code: "read_only", message: "The history connection is read-only: UPDATE statements are refused (run history is only ever written by runs)" }, errorAt: { line: 2, column: 2 } });
	});

	it("binds references as typed parameters, in order, per statement", () => {
		const p = prepareDb(db("```db connection=lite\nSELECT * FROM t WHERE id = {{id}} AND name = {{name}};\nSELECT {{id}}\n```"), { connections, drivers }, ctx({ id: "42", name: "O'Brien" }));
		if (!p.ok) throw new Error(p.error.message);
		expect(p.prepared.statements).toEqual([
			{ text: "SELECT * FROM t WHERE id = ? AND name = ?", params: [42, "O'Brien"], kind: "select" },
			{ text: "SELECT ?", params: [42], kind: "select" },
		]);
		expect(p.prepared.maxRows).toBe(1000);
	});

	it("says a server engine is unavailable where its module is not given (mobile)", () => {
		const p = prepareDb(db("```db connection=pg\nSELECT {{id}}\n```"), { connections, drivers }, ctx({ id: "42" }));
		expect(p).toMatchObject({ ok: false, error: { code: "driver_unavailable", message: "This database engine is not available here" } });
	});

	it.each([
		["```db connection=nope\nSELECT 1\n```", /No connection "nope" in user.toml \(defined: lite, pg\)/],
		["```db\nSELECT 1\n```", /Name the connection: connection=<name> \(defined: lite, pg\)/],
	])("names the connections when %j does not", (md, message) => {
		const p = prepareDb(db(md), { connections, drivers }, ctx());
		expect(p.ok).toBe(false);
		if (!p.ok) {
			expect(p.error.code).toBe("unknown_connection");
			expect(p.error.message).toMatch(message);
		}
	});

	it("uses the only connection when the block names none", () => {
		const p = prepareDb(db("```db\nSELECT 1\n```"), { connections: { lite: connections.lite }, drivers }, ctx());
		expect(p.ok && p.prepared.name).toBe("lite");
	});

	it("places an identifier reference and an unresolved one at their note line and column", () => {
		const ident = prepareDb(db("# n\n```db connection=lite\nSELECT 1;\nSELECT * FROM {{t}}\n```"), { connections, drivers }, ctx({ t: "x" }));
		expect(ident).toMatchObject({ ok: false, error: { code: "identifier_reference" }, errorAt: { line: 3, column: 14 } });
		const missing = prepareDb(db("```db connection=lite\nSELECT {{nope}}\n```"), { connections, drivers }, ctx());
		expect(missing).toMatchObject({ ok: false, error: { code: "unresolved_reference" }, errorAt: { line: 1, column: 7 } });
	});

	it("maps an engine position in the bound text back to the SQL as written", () => {
		const p = prepareDb(db("```db connection=lite\nSELECT {{a}},\n  oops FROM t\n```"), { connections, drivers }, ctx({ a: "1" }));
		if (!p.ok) throw new Error(p.error.message);
		const sent = p.prepared.statements[0].text;
		expect(p.prepared.locate(0, sent.indexOf("oops"))).toEqual({ line: 2, column: 2 });
	});
});
