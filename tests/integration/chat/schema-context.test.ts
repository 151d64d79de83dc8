import initSqlJs, { type SqlJsStatic } from "sql.js";
import { parseNote, type DbNoteBlock } from "../../../src/blocks";
import { schemaChip, schemaText, connectionSchema } from "../../../src/chat/schema-context";
import { buildRequest } from "../../../src/chat/context";
import { DbDrivers } from "../../../src/runner/db/connect";
import type { DbDeps } from "../../../src/runner/db/db-result";
import type { SchemaTable } from "../../../src/runner/db/driver";

/** The schema chip over real sql.js: a SQLite file's tables, views, keys and foreign keys. */
let SQL: SqlJsStatic;
let bytes: Uint8Array;

beforeAll(async () => {
	SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec(`CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE);
		CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES authors(id), notes);
		CREATE VIEW titles AS SELECT title FROM books;`);
	bytes = db.export();
	db.close();
});

const deps = (connections: DbDeps["connections"]): DbDeps => ({
	connections,
	drivers: new DbDrivers({
		sqlJs: () => Promise.resolve(SQL),
		sqliteFile: (path) => ({ path, read: () => Promise.resolve(path === "data/shop.sqlite" ? bytes : null), write: () => Promise.resolve() }),
		readSecret: () => undefined,
	}),
});
const shop = { type: "sqlite" as const, path: "data/shop.sqlite", readonly: true };
const dbBlock = (info: string) => parseNote(`\`\`\`db${info}\nSELECT 1\n\`\`\`\n`)[0] as DbNoteBlock;

async function tablesOf(): Promise<SchemaTable[]> {
	const out = await connectionSchema(deps({ shop }), dbBlock(" connection=shop"));
	if (!out.ok) throw new Error(out.message);
	return out.tables;
}

describe("the db schema chip", () => {
	it("reads the schema of the connection the block names, and writes each table with its column types and keys", async () => {
		const out = await connectionSchema(deps({ shop }), dbBlock(" connection=shop"));
		expect(out).toMatchObject({ ok: true, connection: "shop", dialect: "sqlite" });
		if (!out.ok) return;
		expect(schemaText(out.connection, out.dialect, out.tables, 4000).split("\n")).toEqual([
			"Connection `shop` (sqlite), 3 tables and views:",
			"authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE)",
			"books(id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER -> authors.id, notes ANY)",
			"VIEW titles(title TEXT)",
		]);
	});

	it("uses the only connection when the block names none, and says which are defined when it cannot tell", async () => {
		await expect(connectionSchema(deps({ shop }), dbBlock(""))).resolves.toMatchObject({ ok: true, connection: "shop" });
		const other = { ...shop, path: "data/other.sqlite" };
		await expect(connectionSchema(deps({ shop, other }), dbBlock(""))).resolves.toEqual({ ok: false, message: "Name the connection: connection=<name> (defined: shop, other)" });
		await expect(connectionSchema(deps({ shop }), dbBlock(" connection=nope"))).resolves.toEqual({ ok: false, message: 'No connection "nope" in user.toml (defined: shop)' });
	});

	it("keeps whole tables under the cap and names the ones left out", async () => {
		const tables = await tablesOf();
		const full = schemaText("shop", "sqlite", tables, 4000);
		const cap = full.split("\n").slice(0, 2).join("\n").length + 10;
		const cut = schemaText("shop", "sqlite", tables, cap);
		expect(cut.split("\n")).toEqual(["Connection `shop` (sqlite), 3 tables and views:", "authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE)", "… 2 more tables not attached: books, titles"]);
	});

	it("cuts a first table that alone passes the cap rather than attach no table", async () => {
		const text = schemaText("shop", "sqlite", await tablesOf(), 60);
		const lines = text.split("\n");
		expect(lines[1]).toMatch(/^authors\(id.*…$/);
		expect(lines[1].length).toBeLessThan(60);
		expect(lines[2]).toBe("… 2 more tables not attached: books, titles");
	});

	it("goes into the message as a fenced chip, masked like any context", async () => {
		const chip = schemaChip("shop", "sqlite", await tablesOf(), 4000);
		expect(chip).toMatchObject({ kind: "db_schema", label: "shop: 3 tables" });
		const built = buildRequest({ model: "m", temperature: null, history: [], question: "Which books lack an author?", chips: [chip], secretValues: ["author_id"], maxContextTokens: 8192 });
		const sent = built.body.messages[built.body.messages.length - 1].content;
		expect(sent).toContain("```\nConnection `shop` (sqlite), 3 tables and views:\nauthors(");
		expect(sent).toContain("••• INTEGER -> authors.id");
		expect(sent).not.toContain("author_id");
	});

	it("says why when the database cannot be read", async () => {
		const missing = { ...shop, path: "data/missing.sqlite" };
		const out = await connectionSchema(deps({ missing }), dbBlock(""));
		expect(out.ok).toBe(false);
		if (!out.ok) expect(`${out.message} ${out.detail ?? ""}`).toMatch(/missing\.sqlite/);
	});
});
