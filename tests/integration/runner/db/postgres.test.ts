import { Client } from "pg";
import * as pg from "pg";
import { createPostgresDriver, type ServerConfig } from "../../../../src/runner/db/postgres";
import type { DbDriver } from "../../../../src/runner/db/driver";
import { startPostgres, type DbServer } from "../../../support/db-servers";
import { bound, done, opts } from "../../../support/db-statements";
import { refusedPort } from "../../../support/servers";

jest.setTimeout(60000);

let server: DbServer;
let config: ServerConfig;
let rw: DbDriver;
let ro: DbDriver;
const drivers: DbDriver[] = [];
const driver = (c: Partial<ServerConfig> = {}) => {
	const d = createPostgresDriver(pg, { ...config, ...c });
	drivers.push(d);
	return d;
};

beforeAll(async () => {
	server = await startPostgres();
	config = { host: server.host, port: server.port, user: server.user, password: server.password, database: server.database, readonly: true };
	rw = driver({ readonly: false });
	ro = driver();
	done(
		await rw.run(
			bound(
				`CREATE TABLE kinds (id int PRIMARY KEY, big bigint, num numeric(30,10), txt text, flag boolean, day date, at timestamptz, doc jsonb, bin bytea, nothing text);
				INSERT INTO kinds VALUES (1, 9007199254740993, 12345678901234567890.0123456789, 'héllo', true, '2024-02-29', '2024-02-29 12:34:56+00', '{"a":[1,2]}', '\\x00ff10', NULL);
				CREATE TABLE authors (id serial PRIMARY KEY, name text NOT NULL);
				CREATE TABLE books (id serial PRIMARY KEY, title text NOT NULL, author_id int REFERENCES authors(id), price numeric(8,2));
				CREATE VIEW cheap AS SELECT * FROM books WHERE price < 10;
				INSERT INTO authors (name) VALUES ('Le Guin'), ('Borges');
				INSERT INTO books (title, author_id, price) SELECT 'Book ' || g, 1 + g % 2, g FROM generate_series(1, 50) g`,
				"postgres",
			),
			opts(),
		),
	);
}, 90000);

afterAll(async () => {
	await Promise.all(drivers.map((d) => d.close()));
	await server?.stop();
});

it("returns every type exactly, with the engine's type names", async () => {
	const r = done(await ro.run(bound("SELECT * FROM kinds", "postgres"), opts()));
	expect(r.columns).toEqual([
		{ name: "id", type: "int4" },
		{ name: "big", type: "int8" },
		{ name: "num", type: "numeric" },
		{ name: "txt", type: "text" },
		{ name: "flag", type: "bool" },
		{ name: "day", type: "date" },
		{ name: "at", type: "timestamptz" },
		{ name: "doc", type: "jsonb" },
		{ name: "bin", type: "bytea" },
		{ name: "nothing", type: "text" },
	]);
	expect(r.rows).toEqual([
		{ id: 1, big: "9007199254740993", num: "12345678901234567890.0123456789", txt: "héllo", flag: true, day: "2024-02-29", at: "2024-02-29 12:34:56+00", doc: { a: [1, 2] }, bin: "\\x00ff10", nothing: null },
	]);
	expect(r.rowCount).toBe(1);
});

it("runs several statements in order, listing each row count and showing the last result set", async () => {
	const r = done(await ro.run(bound("SELECT 1 AS a; SELECT id, title FROM books WHERE id <= 3 ORDER BY id", "postgres"), opts()));
	expect(r.statements).toEqual([
		{ kind: "select", rowCount: 1 },
		{ kind: "select", rowCount: 3 },
	]);
	expect(r.rows.map((x) => x.title)).toEqual(["Book 1", "Book 2", "Book 3"]);
});

it("keeps max_rows rows and reports the total", async () => {
	const r = done(await ro.run(bound("SELECT id FROM books ORDER BY id", "postgres"), opts({ maxRows: 10 })));
	expect(r.rows).toHaveLength(10);
	expect(r.rowCount).toBe(50);
	expect(r.truncated).toBe(true);
});

it("refuses writes on a read-only connection, with the engine's message and code", async () => {
	const r = await ro.run(bound("INSERT INTO authors (name) VALUES ('x')", "postgres"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", engineCode: "25006", message: "cannot execute INSERT in a read-only transaction" });
	const count = done(await ro.run(bound("SELECT count(*) AS n FROM authors", "postgres"), opts()));
	expect(count.rows[0].n).toBe(2);
});

it("binds a reference as a parameter: an injection string is only a value", async () => {
	const evil = "'; DROP TABLE authors; --";
	const found = done(await ro.run(bound("SELECT * FROM authors WHERE name = {{who}}", "postgres", { who: evil }), opts()));
	expect(found.rows).toEqual([]);
	done(await rw.run(bound("INSERT INTO authors (name) VALUES ({{who}})", "postgres", { who: evil }), opts()));
	const back = done(await ro.run(bound("SELECT name FROM authors WHERE name = '{{who}}'", "postgres", { who: evil }), opts()));
	expect(back.rows).toEqual([{ name: evil }]);
	done(await rw.run(bound("DELETE FROM authors WHERE name = {{who}}", "postgres", { who: evil }), opts()));
	expect(done(await ro.run(bound("SELECT count(*) AS n FROM authors", "postgres"), opts())).rows[0].n).toBe(2);
});

/** Queries still running on the server (other than the one asking). */
async function sleepers(): Promise<number> {
	const c = new Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database });
	await c.connect();
	const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND state = 'active' AND pid <> pg_backend_pid()");
	await c.end();
	return (r.rows[0] as { n: number }).n;
}

it("cancels pg_sleep(30) through the engine (the test's 10 s limit is far below the sleep)", async () => {
	const abort = new AbortController();
	const started = Date.now();
	const pending = ro.run(bound("SELECT pg_sleep(30)", "postgres"), opts({ signal: abort.signal }));
	setTimeout(() => abort.abort(), 300);
	const r = await pending;
	console.info(`postgres cancel: resolved ${Date.now() - started - 300} ms after the abort`);
	expect(r).toMatchObject({ kind: "cancelled", reason: "user" });
	expect(await sleepers()).toBe(0);
}, 10000);

it("cancels a statement that runs past the timeout", async () => {
	const r = await ro.run(bound("SELECT pg_sleep(30)", "postgres"), opts({ timeoutMs: 400 }));
	expect(r).toMatchObject({ kind: "cancelled", reason: "timeout" });
	expect(await sleepers()).toBe(0);
	// The pool still works after a cancel.
	expect(done(await ro.run(bound("SELECT 2 AS two", "postgres"), opts())).rows).toEqual([{ two: 2 }]);
}, 10000);

it("reports bad SQL with the engine's code and the position in the statement", async () => {
	const r = await ro.run(bound("SELECT 1;\nSELECT id FROM books WHERE id = = 1", "postgres"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", engineCode: "42601", message: 'syntax error at or near "="' });
	if (r.kind !== "failed") return;
	expect(r.position?.statement).toBe(1);
	expect("SELECT id FROM books WHERE id = = 1".slice(r.position?.offset)).toBe("= 1");
});

it("says a refused connection is refused", async () => {
	const d = driver({ port: await refusedPort() });
	const r = await d.run(bound("SELECT 1", "postgres"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "connect_failed", message: "Failed to connect" });
	expect(r.kind === "failed" && r.detail).toMatch(/ECONNREFUSED/);
});

it("says a wrong password is wrong, never printing it", async () => {
	const wrong = "not-the-password-93b1";
	const d = driver({ password: wrong });
	const r = await d.run(bound("SELECT 1", "postgres"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "auth_failed", message: "Authentication failed", detail: 'password authentication failed for user "rb"' });
	expect(JSON.stringify(r)).not.toContain(wrong);
	expect(JSON.stringify(r)).not.toContain(server.password);
});

it("explains a query as a plan tree with costs and rows (ANALYZE only for a SELECT when asked)", async () => {
	const [s] = bound("SELECT b.title, a.name FROM books b JOIN authors a ON a.id = b.author_id WHERE b.price > {{p}}", "postgres", { p: "10" });
	const e = done(await ro.explain(s, { ...opts(), analyze: true }));
	expect(e.plan).toHaveLength(1);
	const labels: string[] = [];
	const walk = (n: (typeof e.plan)[number]) => {
		labels.push(n.label);
		expect(typeof n.cost).toBe("number");
		n.children.forEach(walk);
	};
	walk(e.plan[0]);
	expect(labels.join(" ")).toMatch(/on books/);
	expect(e.raw).toMatch(/"Actual Rows"/);
	const [w] = bound("DELETE FROM books", "postgres");
	const plain = done(await rw.explain(w, { ...opts(), analyze: true }));
	expect(plain.raw).not.toMatch(/Actual Rows/);
	expect(done(await ro.run(bound("SELECT count(*) AS n FROM books", "postgres"), opts())).rows[0].n).toBe(50);
});

it("introspects tables, views, columns with types, nullability and keys", async () => {
	const s = done(await ro.schema());
	const books = s.tables.find((t) => t.name === "books");
	expect(books).toMatchObject({ schema: "public", kind: "table" });
	expect(books?.columns).toEqual([
		{ name: "id", type: "integer", nullable: false, primaryKey: true },
		{ name: "title", type: "text", nullable: false, primaryKey: false },
		{ name: "author_id", type: "integer", nullable: true, primaryKey: false, references: "authors.id" },
		{ name: "price", type: "numeric(8,2)", nullable: true, primaryKey: false },
	]);
	expect(s.tables.find((t) => t.name === "cheap")?.kind).toBe("view");
});
