/** The schema cache against a real MariaDB (a throwaway instance on 127.0.0.1): typed columns for completion and hover. */
import * as mysql from "mysql2/promise";
import { sqlObjectAt, sqlSuggestions } from "../../../../src/blocks/sql-assist";
import { DbDrivers } from "../../../../src/runner/db/connect";
import { SchemaCache } from "../../../../src/runner/db/schema-cache";
import type { Connection } from "../../../../src/settings/connections";
import { startMariadb, type DbServer } from "../../../support/db-servers";

jest.setTimeout(60000);

let server: DbServer;
let drivers: DbDrivers;
let cache: SchemaCache;

beforeAll(async () => {
	server = await startMariadb();
	const admin = await mysql.createConnection({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database, multipleStatements: true });
	await admin.query(`CREATE TABLE authors (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL);
		CREATE TABLE books (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(200) NOT NULL, author_id INT, price DECIMAL(8,2), FOREIGN KEY (author_id) REFERENCES authors(id));`);
	await admin.end();
	const connections: Record<string, Connection> = { shop: { type: "mysql", host: server.host, port: server.port, database: server.database, user: server.user, password: { secret: "my" }, readonly: true } };
	drivers = new DbDrivers({ sqlJs: () => Promise.reject(new Error("no sqlite here")), sqliteFile: () => ({ path: "", read: () => Promise.resolve(null), write: () => Promise.resolve() }), mysql: () => mysql, readSecret: () => server.password });
	cache = new SchemaCache(() => ({ connections, drivers }));
}, 90000);

afterAll(async () => {
	await drivers?.closeAll();
	await server?.stop();
});

it("completion and hover over MariaDB's schema carry the engine's column types, nullability and keys", async () => {
	const state = await cache.get("shop");
	if (state.kind !== "done") throw new Error(JSON.stringify(state));
	expect(state.tables.map((t) => t.name)).toEqual(["authors", "books"]);
	const sql = "SELECT b. FROM books b JOIN authors a ON a.id = b.author_id";
	expect(sqlSuggestions(sql, 9, "mysql", state.tables)?.options.map((o) => `${o.label} ${o.detail}`)).toEqual(["id bigint(20)", "title varchar(200)", "author_id int(11)", "price decimal(8,2)"]);
	const hover = sqlObjectAt(sql, sql.indexOf("author_id") + 2, "mysql", state.tables);
	expect(hover?.kind === "column" && hover.column).toEqual({ name: "author_id", type: "int(11)", nullable: true, primaryKey: false, references: "authors.id" });
});
