import initSqlJs, { type SqlJsStatic } from "sql.js";
import { createSqliteDriver, type SqliteFile } from "../../../../src/runner/db/sqlite";
import { bound, done, opts } from "../../../support/db-statements";

/** An in-memory "file": the bytes a writable connection saved, and how many saves there were. */
function memoryFile(initial: Uint8Array | null): SqliteFile & { bytes: Uint8Array | null; writes: number } {
	const f = {
		path: "data/test.sqlite",
		bytes: initial,
		writes: 0,
		read: () => Promise.resolve(f.bytes),
		write: (b: Uint8Array) => {
			f.bytes = b;
			f.writes++;
			return Promise.resolve();
		},
	};
	return f;
}

let SQL: SqlJsStatic;
let seed: Uint8Array;
const sqlJs = () => Promise.resolve(SQL);

beforeAll(async () => {
	SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec(`CREATE TABLE kinds (id INTEGER PRIMARY KEY, big INTEGER, real REAL, txt TEXT, bin BLOB, gone TEXT);
		INSERT INTO kinds VALUES (1, 9007199254740993, 1.5, 'héllo', X'00ff', NULL);
		CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
		CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES authors(id));
		CREATE VIEW titles AS SELECT title FROM books;
		INSERT INTO authors VALUES (1, 'Le Guin'), (2, 'Borges');
		INSERT INTO books VALUES (1, 'Earthsea', 1), (2, 'Ficciones', 2);`);
	seed = db.export();
	db.close();
});

it("returns values exactly: big integers as text, blobs as hex, NULL as null", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const r = done(await d.run(bound("SELECT * FROM kinds", "sqlite"), opts()));
	expect(r.columns).toEqual([
		{ name: "id", type: "INTEGER" },
		{ name: "big", type: "INTEGER" },
		{ name: "real", type: "REAL" },
		{ name: "txt", type: "TEXT" },
		{ name: "bin", type: "BLOB" },
		{ name: "gone", type: "NULL" },
	]);
	expect(r.rows).toEqual([{ id: 1, big: "9007199254740993", real: 1.5, txt: "héllo", bin: "\\x00ff", gone: null }]);
});

it("refuses writes when read-only (PRAGMA query_only) and never saves the file", async () => {
	const file = memoryFile(seed);
	const d = createSqliteDriver(sqlJs, file, { readonly: true });
	const r = await d.run(bound("DELETE FROM books", "sqlite"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", message: "attempt to write a readonly database" });
	expect(file.writes).toBe(0);
	expect(file.bytes).toBe(seed);
});

it("saves a writable connection's file after a write, not after a read", async () => {
	const file = memoryFile(seed);
	const d = createSqliteDriver(sqlJs, file, { readonly: false });
	done(await d.run(bound("SELECT 1", "sqlite"), opts()));
	expect(file.writes).toBe(0);
	const r = done(await d.run(bound("INSERT INTO authors (name) VALUES ({{n}}); SELECT count(*) AS n FROM authors", "sqlite", { n: "Austen" }), opts()));
	expect(r.statements).toEqual([
		{ kind: "insert", rowCount: 1 },
		{ kind: "select", rowCount: 1 },
	]);
	expect(file.writes).toBe(1);
	const again = createSqliteDriver(sqlJs, file, { readonly: true });
	expect(done(await again.run(bound("SELECT name FROM authors WHERE id = 3", "sqlite"), opts())).rows).toEqual([{ name: "Austen" }]);
});

/** The author names in a file's bytes. */
function authorsIn(bytes: Uint8Array | null): string[] {
	const db = new SQL.Database(bytes ?? undefined);
	const names = db.exec("SELECT name FROM authors ORDER BY id")[0].values.map((r) => String(r[0]));
	db.close();
	return names;
}

it("saves what the statements before a failed one committed, as SQLite would; a transaction left open is rolled back", async () => {
	const file = memoryFile(seed);
	const d = createSqliteDriver(sqlJs, file, { readonly: false });
	expect(await d.run(bound("INSERT INTO authors (name) VALUES ('Austen'); SELECT * FROM nowhere", "sqlite"), opts())).toMatchObject({ kind: "failed", message: "no such table: nowhere" });
	expect(file.writes).toBe(1);
	expect(authorsIn(file.bytes)).toEqual(["Le Guin", "Borges", "Austen"]);
	const saved = file.bytes;
	expect(await d.run(bound("BEGIN; INSERT INTO authors (name) VALUES ('Woolf'); SELECT * FROM nowhere", "sqlite"), opts())).toMatchObject({ kind: "failed", message: "no such table: nowhere" });
	// A block may end inside its own transaction: it is rolled back when the run ends, not an error.
	done(await d.run(bound("BEGIN; INSERT INTO authors (name) VALUES ('Woolf')", "sqlite"), opts()));
	expect(file.writes).toBe(1);
	expect(file.bytes).toBe(saved);
});

it("keeps the writes committed before a cancel between statements", async () => {
	const file = memoryFile(seed);
	const abort = new AbortController();
	// Stop is pressed right after the insert committed, before the next statement starts.
	const d = createSqliteDriver(sqlJs, file, { readonly: false, onCommitted: () => abort.abort() });
	expect(await d.run(bound("INSERT INTO authors (name) VALUES ('Austen'); SELECT 1", "sqlite"), opts({ signal: abort.signal }))).toMatchObject({ kind: "cancelled", reason: "user" });
	expect(authorsIn(file.bytes)).toEqual(["Le Guin", "Borges", "Austen"]);
});

it("reports the file as committed while statements are still to come: never inside a write transaction, never after the last", async () => {
	const file = memoryFile(seed);
	const reported: Uint8Array[] = [];
	const d = createSqliteDriver(sqlJs, file, { readonly: false, onCommitted: (bytes) => reported.push(bytes) });
	const sql = "INSERT INTO authors (name) VALUES ('Austen'); SELECT 1; BEGIN; INSERT INTO authors (name) VALUES ('Woolf'); COMMIT; INSERT INTO authors (name) VALUES ('Morrison')";
	done(await d.run(bound(sql, "sqlite"), opts()));
	// After Austen, and after the COMMIT: not after the read, BEGIN (nothing new), nor Woolf (uncommitted) or Morrison (the last: the run's save has it).
	expect(reported.map(authorsIn)).toEqual([
		["Le Guin", "Borges", "Austen"],
		["Le Guin", "Borges", "Austen", "Woolf"],
	]);
	expect(authorsIn(file.bytes)).toEqual(["Le Guin", "Borges", "Austen", "Woolf", "Morrison"]);
	const readonly = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true, onCommitted: (bytes) => reported.push(bytes) });
	await readonly.run(bound("INSERT INTO authors (name) VALUES ('x'); SELECT 1", "sqlite"), opts());
	expect(reported).toHaveLength(2);
});

it("binds the injection string as a value", async () => {
	const file = memoryFile(seed);
	const d = createSqliteDriver(sqlJs, file, { readonly: false });
	const evil = "'; DROP TABLE books; --";
	expect(done(await d.run(bound("SELECT * FROM books WHERE title = {{t}}", "sqlite", { t: evil }), opts())).rows).toEqual([]);
	done(await d.run(bound("INSERT INTO authors (name) VALUES ('{{t}}')", "sqlite", { t: evil }), opts()));
	const r = done(await d.run(bound("SELECT (SELECT count(*) FROM books) AS books, (SELECT name FROM authors WHERE id = 3) AS name", "sqlite"), opts()));
	expect(r.rows).toEqual([{ books: 2, name: evil }]);
});

it("reports bad SQL with SQLite's message and the position of the token it names", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const r = await d.run(bound("SELECT 1;\nSELECT * FORM books", "sqlite"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "sql_error", message: 'near "FORM": syntax error', position: { statement: 1, offset: 9 } });
});

it("points at the token SQLite stopped on, not at an earlier copy of it (a valid keyword, a string)", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const text = "SELECT title FROM books WHERE title = 'FROM' FROM authors";
	const r = await d.run(bound(text, "sqlite"), opts());
	expect(r).toMatchObject({ kind: "failed", message: 'near "FROM": syntax error', position: { statement: 0, offset: text.lastIndexOf("FROM") } });
	const explained = await d.explain(bound(text, "sqlite")[0], opts());
	expect(explained).toMatchObject({ kind: "failed", position: { statement: 0, offset: text.lastIndexOf("FROM") } });
});

it("says a read-only connection to a missing file cannot connect", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(null), { readonly: true });
	const r = await d.run(bound("SELECT 1", "sqlite"), opts());
	expect(r).toMatchObject({ kind: "failed", code: "connect_failed", detail: "data/test.sqlite: no such file (a read-only connection does not create it)" });
});

it("stops between statements when cancelled", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const abort = new AbortController();
	abort.abort();
	expect(await d.run(bound("SELECT 1; SELECT 2", "sqlite"), opts({ signal: abort.signal }))).toMatchObject({ kind: "cancelled", reason: "user" });
});

it("explains with EXPLAIN QUERY PLAN as a tree", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const [s] = bound("SELECT b.title FROM books b JOIN authors a ON a.id = b.author_id WHERE a.name = {{n}}", "sqlite", { n: "Borges" });
	const e = done(await d.explain(s, opts()));
	const labels = e.plan.flatMap(function walk(n): string[] {
		return [n.label, ...n.children.flatMap(walk)];
	});
	expect(labels.join("\n")).toMatch(/SCAN|SEARCH/);
	expect(labels.some((l) => /\bb\b|books/.test(l))).toBe(true);
});

it("introspects tables, views, columns with types, nullability and keys", async () => {
	const d = createSqliteDriver(sqlJs, memoryFile(seed), { readonly: true });
	const s = done(await d.schema());
	expect(s.tables.map((t) => `${t.kind} ${t.name}`)).toEqual(["table authors", "table books", "table kinds", "view titles"]);
	expect(s.tables.find((t) => t.name === "books")?.columns).toEqual([
		{ name: "id", type: "INTEGER", nullable: false, primaryKey: true },
		{ name: "title", type: "TEXT", nullable: false, primaryKey: false },
		{ name: "author_id", type: "INTEGER", nullable: true, primaryKey: false, references: "authors.id" },
	]);
});
