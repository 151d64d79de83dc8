/**
 * The schema cache against a real PostgreSQL (a throwaway cluster on 127.0.0.1): what completion
 * gets from a server, a wrong password kept as a failure value (never showing the password) and
 * cleared by a refresh once the secret is right, and completion candidates with the engine's types.
 */
import * as pg from "pg";
import { sqlSuggestions } from "../../../../src/blocks/sql-assist";
import { DbDrivers } from "../../../../src/runner/db/connect";
import { SchemaCache, type SchemaState } from "../../../../src/runner/db/schema-cache";
import type { Connection } from "../../../../src/settings/connections";
import { startPostgres, type DbServer } from "../../../support/db-servers";

jest.setTimeout(60000);

let server: DbServer;
let drivers: DbDrivers;
let cache: SchemaCache;
const secrets = new Map<string, string>();

beforeAll(async () => {
	server = await startPostgres();
	const admin = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database });
	await admin.connect();
	await admin.query(`CREATE TABLE authors (id serial PRIMARY KEY, name text NOT NULL);
		CREATE TABLE books (id bigserial PRIMARY KEY, title varchar(200) NOT NULL, author_id int REFERENCES authors(id), price numeric(8,2));
		CREATE SCHEMA audit;
		CREATE TABLE audit.events (at timestamptz NOT NULL, what jsonb);`);
	await admin.end();
	const connections: Record<string, Connection> = { main: { type: "postgres", host: server.host, port: server.port, database: server.database, user: server.user, password: { secret: "pg-main" }, readonly: true } };
	drivers = new DbDrivers({ sqlJs: () => Promise.reject(new Error("no sqlite here")), sqliteFile: () => ({ path: "", read: () => Promise.resolve(null), write: () => Promise.resolve() }), pg: () => pg, readSecret: (id) => secrets.get(id) });
	cache = new SchemaCache(() => ({ connections, drivers }));
}, 90000);

afterAll(async () => {
	await drivers?.closeAll();
	await server?.stop();
});

function done(state: SchemaState) {
	if (state.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(state)}`);
	return state;
}

it("a wrong password is a kept failure without the password; a refresh with the right one reads the schema", async () => {
	secrets.set("pg-main", "not-the-password");
	const failed = await cache.get("main");
	expect(failed).toMatchObject({ kind: "failed", code: "auth_failed", message: "Authentication failed" });
	expect(JSON.stringify(failed)).not.toContain("not-the-password");
	expect(cache.peek("main")).toBe(failed);
	secrets.set("pg-main", server.password);
	// The secret changed, so the driver is another one; the kept failure stands until a refresh.
	const state = done(await cache.refresh("main"));
	expect(state.tables.map((t) => `${t.schema}.${t.name}`).sort()).toEqual(["audit.events", "public.authors", "public.books"]);
});

it("columns carry the engine's types, nullability, keys and references", async () => {
	const books = done(await cache.get("main")).tables.find((t) => t.name === "books");
	expect(books?.columns).toEqual([
		{ name: "id", type: "bigint", nullable: false, primaryKey: true },
		{ name: "title", type: "character varying(200)", nullable: false, primaryKey: false },
		{ name: "author_id", type: "integer", nullable: true, primaryKey: false, references: "authors.id" },
		{ name: "price", type: "numeric(8,2)", nullable: true, primaryKey: false },
	]);
});

it("completion over the server's schema: typed columns after an alias, other schemas qualified", async () => {
	const { tables } = done(await cache.get("main"));
	const sql = "SELECT b. FROM books b";
	expect(sqlSuggestions(sql, 9, "postgres", tables)?.options.map((o) => `${o.label} ${o.detail}`)).toEqual(["id bigint", "title character varying(200)", "author_id integer", "price numeric(8,2)"]);
	expect(sqlSuggestions("SELECT * FROM ", 14, "postgres", tables)?.options.map((o) => o.label).sort()).toEqual(["audit.events", "authors", "books"]);
});
