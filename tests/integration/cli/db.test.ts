import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import initSqlJs from "sql.js";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startPostgres, type DbServer } from "../../support/db-servers";
import { runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let vault: string;
let pg: DbServer;

function cli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
	return runCli(args, { cwd, env: { RUNNABLE_BLOCKS_SECRET_PG_PW: pg.password, ...env } });
}

const note = (name: string, text: string) => {
	writeFileSync(join(vault, name), text);
	return join(vault, name);
};

beforeAll(async () => {
	pg = await startPostgres();
	vault = mkdtempSync(join(tmpdir(), "rb-db-vault-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	mkdirSync(join(vault, "data"));
	const SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, big INTEGER, cover BLOB); INSERT INTO books VALUES (1, 'Dune', 9007199254740993, X'cafe'), (2, 'Emma', NULL, NULL);");
	writeFileSync(join(vault, "data", "shop.sqlite"), db.export());
	writeFileSync(
		join(dir, "user.toml"),
		`[connections.shop]\ntype = "sqlite"\npath = "data/shop.sqlite"\n\n[connections.shop_rw]\ntype = "sqlite"\npath = "data/shop.sqlite"\nreadonly = false\n\n` +
			`[connections.pg]\ntype = "postgres"\nhost = "127.0.0.1"\nport = ${pg.port}\ndatabase = "${pg.database}"\nuser = "${pg.user}"\npassword = { secret = "pg-pw" }\n`,
	);
});

afterAll(async () => {
	await pg?.stop();
	if (vault) rmSync(vault, { recursive: true, force: true });
});

it("runs db blocks with --json: columns with types, rows, rowCount, timing; references chain between them", async () => {
	const file = note(
		"chain.md",
		"```db connection=shop alias=first\nSELECT id, title, big, cover FROM books ORDER BY id\n```\n\n```db connection=pg alias=echo\nSELECT {{first.response.body.$[0].title}}::text AS title, {{first.response.rowCount}}::int AS n\n```\n",
	);
	const { code, stdout, stderr } = await cli(["run", file, "--json"]);
	expect(stderr).toBe("");
	expect(code).toBe(0);
	const [first, echo] = JSON.parse(stdout) as RunResultJson[];
	expect(first.state).toBe("done");
	expect(first.db).toMatchObject({
		connection: "shop",
		columns: [
			{ name: "id", type: "INTEGER" },
			{ name: "title", type: "TEXT" },
			{ name: "big", type: "INTEGER" },
			{ name: "cover", type: "BLOB" },
		],
		rows: [
			{ id: 1, title: "Dune", big: "9007199254740993", cover: "\\xcafe" },
			{ id: 2, title: "Emma", big: null, cover: null },
		],
		rowCount: 2,
		statements: [{ kind: "select", rowCount: 2 }],
	});
	expect(typeof first.timing?.total).toBe("number");
	expect(echo.db).toMatchObject({ rows: [{ title: "Dune", n: 2 }], columns: [{ name: "title", type: "text" }, { name: "n", type: "int4" }] });
	// History: connection, statement kinds and row count; never a value or the SQL.
	const SQL = await initSqlJs();
	const history = new SQL.Database(readFileSync(join(vault, ".obsidian", "plugins", "runnable-blocks", "history.sqlite")));
	const rows = history.exec("SELECT alias, method, url, status, outcome, transport, row_count FROM block_run_history WHERE file_path = 'chain.md' ORDER BY id")[0].values;
	expect(rows).toEqual([
		["first", "SELECT", "db:shop", null, "done", "sqlite", 2],
		["echo", "SELECT", "db:pg", null, "done", "postgres", 1],
	]);
	const all = JSON.stringify(history.exec("SELECT * FROM block_run_history"));
	expect(all).not.toMatch(/Dune|books|9007199254740993/);
	history.close();
});

it("refuses a write on a read-only SQLite connection and leaves the file as it was; a writable one saves it", async () => {
	const before = readFileSync(join(vault, "data", "shop.sqlite"));
	const ro = await cli(["run", note("ro.md", "```db connection=shop\nINSERT INTO books (title) VALUES ('x');\n```\n"), "--json"]);
	expect(ro.code).toBe(1);
	const [r] = JSON.parse(ro.stdout) as RunResultJson[];
	expect(r.error).toMatchObject({ code: "sql_error", message: "attempt to write a readonly database" });
	expect(readFileSync(join(vault, "data", "shop.sqlite")).equals(before)).toBe(true);
	const rw = await cli(["run", note("rw.md", "```db connection=shop_rw alias=w\nINSERT INTO books (title) VALUES ({{title}});\n```\n"), "--json"], {});
	// {{title}} is no variable: nothing ran, nothing was written.
	expect(rw.code).toBe(1);
	expect((JSON.parse(rw.stdout) as RunResultJson[])[0].error?.code).toBe("unresolved_reference");
	const ok = await cli(["run", note("rw2.md", "```db connection=shop_rw\nINSERT INTO books (title) VALUES ('Kindred');\nSELECT count(*) AS n FROM books;\n```\n"), "--json"]);
	const [w] = JSON.parse(ok.stdout) as RunResultJson[];
	expect(w.db).toMatchObject({ rows: [{ n: 3 }], statements: [{ kind: "insert", rowCount: 1 }, { kind: "select", rowCount: 1 }] });
	const SQL = await initSqlJs();
	const saved = new SQL.Database(readFileSync(join(vault, "data", "shop.sqlite")));
	expect(saved.exec("SELECT title FROM books WHERE id = 3")[0].values).toEqual([["Kindred"]]);
	saved.close();
});

it("places SQL errors at their note line and column, and refuses an identifier reference", async () => {
	const bad = await cli(["run", note("bad.md", "# x\n\n```db connection=pg\nSELECT 1;\nSELECT * FROM nowhere\n```\n"), "--json"]);
	const [b] = JSON.parse(bad.stdout) as RunResultJson[];
	expect(b.error).toMatchObject({ code: "sql_error", message: 'relation "nowhere" does not exist' });
	expect(b.db).toMatchObject({ errorAt: { line: 5, column: 15 }, engineCode: "42P01" });
	const human = await cli(["run", join(vault, "bad.md")]);
	expect(human.stdout).toMatch(/relation "nowhere" does not exist/);
	const ident = await cli(["run", note("ident.md", "```db connection=shop\nSELECT * FROM {{table}}\n```\n"), "--json"]);
	const [i] = JSON.parse(ident.stdout) as RunResultJson[];
	expect(i.error?.code).toBe("identifier_reference");
	expect(i.error?.message).toMatch(/Write the name literally/);
	expect(i.db).toMatchObject({ errorAt: { line: 2, column: 15 } });
});

it("cancels a query past its timeout with the design's message", async () => {
	const { code, stdout } = await cli(["run", note("slow.md", "```db connection=pg timeout=300\nSELECT pg_sleep(30)\n```\n"), "--json"]);
	expect(code).toBe(1);
	const [r] = JSON.parse(stdout) as RunResultJson[];
	expect(r.state).toBe("cancelled");
	expect(r.error).toMatchObject({ code: "timeout", message: "Query cancelled (timeout 300 ms)" });
});

it("says a wrong password is wrong without printing it", async () => {
	const wrong = "wrong-pw-55e0";
	const out = await cli(["run", note("pw.md", "```db connection=pg\nSELECT 1\n```\n")], { RUNNABLE_BLOCKS_SECRET_PG_PW: wrong });
	expect(out.code).toBe(1);
	expect(out.stdout).toMatch(/Authentication failed/);
	expect(out.stdout + out.stderr).not.toContain(wrong);
});

it("prints a connection's schema with types, nullability and keys", async () => {
	const { code, stdout } = await cli(["db", "schema", "shop"], {}, vault);
	expect(code).toBe(0);
	expect(stdout).toBe("table books\n  id     INTEGER  not null, primary key\n  title  TEXT     not null\n  big    INTEGER\n  cover  BLOB\n");
	const unknown = await cli(["db", "schema", "nope"], {}, vault);
	expect(unknown.code).toBe(2);
	expect(unknown.stderr).toMatch(/no connection "nope" \(defined: shop, shop_rw, pg, history\)/);
});
