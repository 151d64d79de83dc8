import * as mysql from "mysql2/promise";
import type { DbDriver } from "../../../../src/runner/db/driver";
import { createMysqlDriver } from "../../../../src/runner/db/mysql";
import type { ServerConfig } from "../../../../src/runner/db/postgres";
import { startMariadb, type DbServer } from "../../../support/db-servers";
import { bound, done, opts } from "../../../support/db-statements";
import { refusedPort } from "../../../support/servers";

jest.setTimeout(60000);

let server: DbServer;
let config: ServerConfig;
let rw: DbDriver;
let ro: DbDriver;
const drivers: DbDriver[] = [];
const driver = (c: Partial<ServerConfig> = {}) => {
	const d = createMysqlDriver(mysql, { ...config, ...c });
	drivers.push(d);
	return d;
};

beforeAll(async () => {
	server = await startMariadb();
	config = { host: server.host, port: server.port, user: server.user, password: server.password, database: server.database, readonly: true };
	rw = driver({ readonly: false });
	ro = driver();
	done(
		await rw.run(
			bound(
				`CREATE TABLE kinds (id int PRIMARY KEY, big bigint unsigned, num decimal(30,10), txt varchar(20), flag boolean, day date, at datetime, doc json, bin varbinary(8), nothing text);
				INSERT INTO kinds VALUES (1, 9007199254740993, 12345678901234567890.0123456789, 'héllo', true, '2024-02-29', '2024-02-29 12:34:56', '{"a":[1,2]}', X'00ff10', NULL);
				CREATE TABLE authors (id int AUTO_INCREMENT PRIMARY KEY, name varchar(100) NOT NULL);
				CREATE TABLE books (id int AUTO_INCREMENT PRIMARY KEY, title varchar(100) NOT NULL, author_id int, price decimal(8,2), FOREIGN KEY (author_id) REFERENCES authors(id));
				CREATE VIEW cheap AS SELECT * FROM books WHERE price < 10;
				INSERT INTO authors (name) VALUES ('Le Guin'), ('Borges');
				INSERT INTO books (title, author_id, price) SELECT CONCAT('Book ', seq), 1 + seq % 2, seq FROM seq_1_to_50`,
				"mysql",
			),
			opts(),
		),
	);
}, 90000);

afterAll(async () => {
	await Promise.all(drivers.map((d) => d.close()));
	await server?.stop();
});

it("returns every type exactly, with type names", async () => {
	const r = done(await ro.run(bound("SELECT * FROM kinds", "mysql"), opts()));
	expect(r.columns.map((c) => `${c.name}:${c.type}`)).toEqual(["id:int", "big:bigint", "num:decimal", "txt:varchar", "flag:tinyint(1)", "day:date", "at:datetime", "doc:text", "bin:varbinary", "nothing:text"]);
	// MariaDB's JSON is LONGTEXT with a check; its extended metadata still marks it JSON, so the value arrives parsed.
	expect(r.rows).toEqual([{ id: 1, big: "9007199254740993", num: "12345678901234567890.0123456789", txt: "héllo", flag: true, day: "2024-02-29", at: "2024-02-29 12:34:56", doc: { a: [1, 2] }, bin: "\\x00ff10", nothing: null }]);
});

it("types the same through the prepared-statement protocol (a statement with parameters)", async () => {
	const r = done(await ro.run(bound("SELECT * FROM kinds WHERE id = {{id}}", "mysql", { id: "1" }), opts()));
	expect(r.rows).toEqual([{ id: 1, big: "9007199254740993", num: "12345678901234567890.0123456789", txt: "héllo", flag: true, day: "2024-02-29", at: "2024-02-29 12:34:56", doc: { a: [1, 2] }, bin: "\\x00ff10", nothing: null }]);
});

it("runs several statements in order, listing each row count and showing the last result set", async () => {
	const r = done(await ro.run(bound("SELECT 1 AS a; SELECT id, title FROM books WHERE id <= 3 ORDER BY id", "mysql"), opts()));
	expect(r.statements).toEqual([
		{ kind: "select", rowCount: 1 },
		{ kind: "select", rowCount: 3 },
	]);
	expect(r.rows.map((x) => x.title)).toEqual(["Book 1", "Book 2", "Book 3"]);
});

it("refuses writes on a read-only connection, with the engine's message and code", async () => {
	const r = await ro.run(bound("INSERT INTO authors (name) VALUES ('x')", "mysql"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", engineCode: "ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION" });
	expect(done(await ro.run(bound("SELECT count(*) AS n FROM authors", "mysql"), opts())).rows[0].n).toBe(2);
});

it("binds a reference as a parameter: an injection string is only a value", async () => {
	const evil = "'; DROP TABLE authors; --";
	expect(done(await ro.run(bound("SELECT * FROM authors WHERE name = {{who}}", "mysql", { who: evil }), opts())).rows).toEqual([]);
	done(await rw.run(bound("INSERT INTO authors (name) VALUES ({{who}})", "mysql", { who: evil }), opts()));
	expect(done(await ro.run(bound("SELECT name FROM authors WHERE name = '{{who}}'", "mysql", { who: evil }), opts())).rows).toEqual([{ name: evil }]);
	done(await rw.run(bound("DELETE FROM authors WHERE name = {{who}}", "mysql", { who: evil }), opts()));
	expect(done(await ro.run(bound("SELECT count(*) AS n FROM authors", "mysql"), opts())).rows[0].n).toBe(2);
});

async function sleepers(): Promise<number> {
	const c = await mysql.createConnection({ host: server.host, port: server.port, user: server.user, password: server.password });
	const [rows] = await c.query("SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%SLEEP(30)%' AND ID <> CONNECTION_ID()");
	await c.end();
	return Number((rows as Array<{ n: number }>)[0].n);
}

it("cancels SLEEP(30) through KILL QUERY (the test's 10 s limit is far below the sleep)", async () => {
	const abort = new AbortController();
	const started = Date.now();
	const pending = ro.run(bound("SELECT SLEEP(30)", "mysql"), opts({ signal: abort.signal }));
	setTimeout(() => abort.abort(), 300);
	const r = await pending;
	console.info(`mysql cancel: resolved ${Date.now() - started - 300} ms after the abort`);
	expect(r).toMatchObject({ kind: "cancelled", reason: "user" });
	expect(await sleepers()).toBe(0);
}, 10000);

it("cancels a statement that runs past the timeout", async () => {
	const r = await ro.run(bound("SELECT SLEEP(30)", "mysql"), opts({ timeoutMs: 400 }));
	expect(r).toMatchObject({ kind: "cancelled", reason: "timeout" });
	expect(await sleepers()).toBe(0);
	expect(done(await ro.run(bound("SELECT 2 AS two", "mysql"), opts())).rows).toEqual([{ two: 2 }]);
}, 10000);

it("reports bad SQL with the engine's code and the position in the statement", async () => {
	const r = await ro.run(bound("SELECT 1;\nSELECT id FROM books WHERE id = = 1", "mysql"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", engineCode: "ER_PARSE_ERROR" });
	if (r.kind !== "failed") return;
	expect(r.message).toMatch(/You have an error in your SQL syntax/);
	expect(r.position?.statement).toBe(1);
	expect("SELECT id FROM books WHERE id = = 1".slice(r.position?.offset)).toBe("= 1");
});

it("says a refused connection is refused", async () => {
	const r = await driver({ port: await refusedPort() }).run(bound("SELECT 1", "mysql"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "connect_failed", message: "Failed to connect" });
	expect(r.kind === "failed" && r.detail).toMatch(/ECONNREFUSED/);
});

it("says a wrong password is wrong, never printing it", async () => {
	const wrong = "not-the-password-93b1";
	const r = await driver({ password: wrong }).run(bound("SELECT 1", "mysql"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "auth_failed", message: "Authentication failed" });
	expect(r.kind === "failed" && r.detail).toMatch(/Access denied for user 'rb'/);
	expect(JSON.stringify(r)).not.toContain(wrong);
});

it("explains a query with EXPLAIN FORMAT=JSON as a plan tree with rows", async () => {
	const [s] = bound("SELECT b.title, a.name FROM books b JOIN authors a ON a.id = b.author_id WHERE b.price > {{p}}", "mysql", { p: "10" });
	const e = done(await ro.explain(s, opts()));
	expect(e.raw).toMatch(/query_block/);
	const found: string[] = [];
	const walk = (n: (typeof e.plan)[number]) => {
		found.push(`${n.label}:${n.rows ?? "-"}`);
		n.children.forEach(walk);
	};
	e.plan.forEach(walk);
	expect(found.some((f) => /on b:\d+/.test(f))).toBe(true);
});

it("introspects tables, views, columns with types, nullability and keys", async () => {
	const s = done(await ro.schema());
	const books = s.tables.find((t) => t.name === "books");
	expect(books).toMatchObject({ schema: "rbtest", kind: "table" });
	expect(books?.columns).toEqual([
		{ name: "id", type: "int(11)", nullable: false, primaryKey: true },
		{ name: "title", type: "varchar(100)", nullable: false, primaryKey: false },
		{ name: "author_id", type: "int(11)", nullable: true, primaryKey: false, references: "authors.id" },
		{ name: "price", type: "decimal(8,2)", nullable: true, primaryKey: false },
	]);
	expect(s.tables.find((t) => t.name === "cheap")?.kind).toBe("view");
});
