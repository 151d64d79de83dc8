import initSqlJs, { type SqlJsStatic } from "sql.js";
import { DbDrivers, type DbModules } from "../../../../src/runner/db/connect";
import type { DbDeps } from "../../../../src/runner/db/db-result";
import { SchemaCache, type SchemaState } from "../../../../src/runner/db/schema-cache";
import type { SqliteFile } from "../../../../src/runner/db/sqlite";
import type { Connection } from "../../../../src/settings/connections";

let SQL: SqlJsStatic;

/** SQLite files by path, made by the tests; `reads` counts how often a driver opened one. */
const files = new Map<string, Uint8Array>();
let reads = 0;
const modules: DbModules = {
	sqlJs: () => Promise.resolve(SQL),
	sqliteFile: (path): SqliteFile => ({
		path,
		read: () => {
			reads++;
			return Promise.resolve(files.get(path) ?? null);
		},
		write: (bytes) => Promise.resolve(void files.set(path, bytes)),
	}),
	readSecret: () => undefined,
};

function database(sql: string): Uint8Array {
	const db = new SQL.Database();
	db.exec(sql);
	const bytes = db.export();
	db.close();
	return bytes;
}

const SHOP = `CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
	CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price NUMERIC, author_id INTEGER REFERENCES authors(id));
	CREATE VIEW titles AS SELECT title FROM books;`;

let connections: Record<string, Connection>;
let deps: DbDeps;
let cache: SchemaCache;

beforeAll(async () => {
	SQL = await initSqlJs();
});

beforeEach(() => {
	files.clear();
	reads = 0;
	connections = { shop: { type: "sqlite", path: "data/shop.sqlite", readonly: true } };
	deps = { connections, drivers: new DbDrivers(modules) };
	cache = new SchemaCache(() => deps);
	files.set("data/shop.sqlite", database(SHOP));
});

afterEach(() => deps.drivers.closeAll());

function tables(state: SchemaState): string[] {
	if (state.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(state)}`);
	return state.tables.map((t) => `${t.kind} ${t.name}`);
}

it("introspects tables and views with column types, nullability and keys", async () => {
	const state = await cache.get("shop");
	expect(tables(state)).toEqual(["table authors", "table books", "view titles"]);
	const books = state.kind === "done" ? state.tables.find((t) => t.name === "books") : undefined;
	expect(books?.columns).toEqual([
		{ name: "id", type: "INTEGER", nullable: false, primaryKey: true },
		{ name: "title", type: "TEXT", nullable: false, primaryKey: false },
		{ name: "price", type: "NUMERIC", nullable: true, primaryKey: false },
		{ name: "author_id", type: "INTEGER", nullable: true, primaryKey: false, references: "authors.id" },
	]);
});

it("reads the schema once and answers later calls from the cache", async () => {
	expect(cache.peek("shop")).toBeUndefined();
	const [a, b] = await Promise.all([cache.get("shop"), cache.get("shop")]);
	expect(a).toBe(b);
	await cache.get("shop");
	expect(reads).toBe(1);
	expect(cache.peek("shop")).toBe(a);
});

it("refresh reads the database again and sees a new table", async () => {
	await cache.get("shop");
	files.set("data/shop.sqlite", database(`${SHOP} CREATE TABLE orders (id INTEGER PRIMARY KEY, book_id INTEGER);`));
	expect(tables(await cache.get("shop"))).not.toContain("table orders");
	expect(tables(await cache.refresh("shop"))).toContain("table orders");
	expect(tables(await cache.get("shop"))).toContain("table orders");
	expect(reads).toBe(2);
});

it("keeps a failure as a value until refreshed", async () => {
	files.delete("data/shop.sqlite");
	const failed = await cache.get("shop");
	expect(failed).toMatchObject({ kind: "failed", code: "connect_failed" });
	expect(failed.kind === "failed" && failed.detail).toContain("data/shop.sqlite");
	await cache.get("shop");
	expect(reads).toBe(1);
	files.set("data/shop.sqlite", database(SHOP));
	expect(tables(await cache.refresh("shop"))).toContain("table books");
});

it("reads again when the connection's setting changes", async () => {
	await cache.get("shop");
	files.set("data/other.sqlite", database("CREATE TABLE other (x TEXT);"));
	connections.shop = { type: "sqlite", path: "data/other.sqlite", readonly: true };
	expect(cache.peek("shop")).toBeUndefined();
	expect(tables(await cache.get("shop"))).toEqual(["table other"]);
});

it("an unknown connection, or no databases at all, is a failure with a clear message", async () => {
	expect(await cache.get("nope")).toEqual({ kind: "failed", code: "unknown_connection", message: 'No connection "nope" in user.toml (defined: shop)' });
	const none = new SchemaCache(() => undefined);
	expect(await none.get("shop")).toMatchObject({ kind: "failed", code: "driver_unavailable" });
});

it("tells listeners when a read finishes, and only for the latest read", async () => {
	const seen: string[] = [];
	const stop = cache.onChange((name, state) => seen.push(`${name}:${state.kind}`));
	const first = cache.get("shop");
	const second = cache.refresh("shop");
	await Promise.all([first, second]);
	expect(seen).toEqual(["shop:done"]);
	stop();
	await cache.refresh("shop");
	expect(seen).toEqual(["shop:done"]);
});

it("a server connection without its driver module is a failure value (mobile)", async () => {
	connections.pg = { type: "postgres", host: "127.0.0.1", readonly: true };
	deps = { connections, drivers: new DbDrivers({ ...modules, pg: undefined }) };
	expect(await cache.get("pg")).toMatchObject({ kind: "failed", code: "driver_unavailable", detail: "postgres connections need the desktop app or the CLI" });
});
