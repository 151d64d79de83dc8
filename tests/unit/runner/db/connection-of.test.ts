import { parseNote, type DbNoteBlock } from "../../../../src/blocks";
import { connectionOf } from "../../../../src/runner/db/connection-of";
import { HISTORY_CONNECTION, withBuiltInConnections, type Connection } from "../../../../src/settings/connections";

const lite: Connection = { type: "sqlite", path: "a.sqlite", readonly: true };
const db = (md: string) => parseNote(md).find((b): b is DbNoteBlock => b.kind === "db") as DbNoteBlock;

describe("the connection a db block names", () => {
	it("is its connection=", () => {
		expect(connectionOf(db("```db connection=b\nSELECT 1\n```"), { a: lite, b: lite })).toEqual({ ok: true, name: "b", connection: lite });
	});

	it("is the only one configured when the block names none", () => {
		expect(connectionOf(db("```db\nSELECT 1\n```"), { a: lite })).toEqual({ ok: true, name: "a", connection: lite });
	});

	it.each([
		["```db connection=nope\nSELECT 1\n```", { a: lite }, 'No connection "nope" in user.toml (defined: a)'],
		["```db\nSELECT 1\n```", { a: lite, b: lite }, "Name the connection: connection=<name> (defined: a, b)"],
		["```db\nSELECT 1\n```", {}, "No connection is configured: add a [connections.<name>] table to user.toml"],
	])("is unknown for %j, saying which exist", (md, connections, message) => {
		expect(connectionOf(db(md), connections)).toEqual({ ok: false, error: { code: "unknown_connection", message } });
	});

	it("is the built-in history when named, and never picked on its own beside a vault's one connection", () => {
		const all = withBuiltInConnections({ a: lite });
		expect(connectionOf(db("```db connection=history\nSELECT 1\n```"), all)).toEqual({ ok: true, name: "history", connection: HISTORY_CONNECTION });
		expect(connectionOf(db("```db\nSELECT 1\n```"), all)).toEqual({ ok: true, name: "a", connection: lite });
		expect(connectionOf(db("```db\nSELECT 1\n```"), withBuiltInConnections({}))).toMatchObject({ ok: false, error: { message: "No connection is configured: add a [connections.<name>] table to user.toml" } });
	});
});
