import { builtinModules } from "node:module";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import { Client } from "pg";
import { createConnection } from "mysql2/promise";
import { startMariadb, startPostgres, type DbServer } from "../support/db-servers";
import { clickRun, launchDesktopHost, panelOf, run, stateOf, text, texts, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(120_000);

/**
 * db blocks from the Run and Explain buttons of a note in Reading view, in the desktop host
 * (production main.js, node:vm, jsdom, Platform.isDesktopApp): a SQLite file of the vault (jsdom
 * has no Web Worker, so sql.js runs on the main thread: the fallback) and a throwaway PostgreSQL
 * through the bundled `pg`, required only when the first postgres block runs.
 */
let host: DesktopHost;
let pg: DbServer;
let maria: DbServer;
let SQL: SqlJsStatic;
let doc: Document;
const NOTE = "data/db.md";
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

const fence = (info: string, sql: string) => `\`\`\`db ${info}\n${sql}\n\`\`\``;

/** A SQLite file with two books, as bytes (made by sql.js in the test's own realm). */
function shopBytes(): ArrayBuffer {
	const db = new SQL.Database();
	db.run("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL, isbn TEXT); INSERT INTO books VALUES (1, 'Dune', 9.5, NULL), (2, 'Emma', 4.25, '978-0');");
	const bytes = db.export();
	db.close();
	return bytes.slice().buffer;
}

/** The rows of a vault SQLite file as the test reads it back. */
function rowsOf(path: string, sql: string): unknown[][] {
	const bytes = host.page.binaries.get(path);
	if (!bytes) throw new Error(`${path} is not in the vault`);
	const db = new SQL.Database(new Uint8Array(bytes));
	try {
		return db.exec(sql)[0]?.values ?? [];
	} finally {
		db.close();
	}
}

beforeAll(async () => {
	[SQL, pg, maria] = await Promise.all([initSqlJs(), startPostgres(), startMariadb()]);
	const my = await createConnection({ host: maria.host, port: maria.port, user: maria.user, password: maria.password, database: maria.database, charset: "utf8mb4" });
	// A latin1 column: the server converts it to the connection's utf8mb4, so the plugin's mysql2 (without iconv-lite's tables) reads it.
	await my.query("CREATE TABLE people (id BIGINT PRIMARY KEY, name VARCHAR(40) CHARACTER SET utf8mb4, city VARCHAR(40) CHARACTER SET latin1, born DATE NULL)");
	await my.query("INSERT INTO people VALUES (9007199254740993, 'Zoë 日本', 'Zürich', '1990-05-01'), (2, 'Ana', 'Évora', NULL)");
	await my.end();
	const admin = new Client({ host: pg.host, port: pg.port, user: pg.user, password: pg.password, database: pg.database });
	await admin.connect();
	await admin.query("CREATE TABLE items (id bigint PRIMARY KEY, price numeric(12,2), ok boolean, doc jsonb, note text); INSERT INTO items VALUES (9007199254740993, 12.30, true, '{\"a\": [1, 2]}', NULL), (2, 0.10, false, '[]', 'x');");
	await admin.end();
	host = await launchDesktopHost();
	doc = host.document;
	host.page.secrets.set("pg-pw", pg.password);
	host.page.secrets.set("pg-wrong", "not-the-password");
	host.page.secrets.set("maria-pw", maria.password);
	host.page.binaries.set("data/shop.sqlite", shopBytes());
	host.page.binaries.set("data/rw.sqlite", shopBytes());
	const toml = [
		"[connections.shop]",
		'type = "sqlite"',
		'path = "data/shop.sqlite"',
		"",
		"[connections.rw]",
		'type = "sqlite"',
		'path = "data/rw.sqlite"',
		"readonly = false",
		"",
		"[connections.pg]",
		'type = "postgres"',
		`host = "${pg.host}"`,
		`port = ${pg.port}`,
		`database = "${pg.database}"`,
		`user = "${pg.user}"`,
		'password = { secret = "pg-pw" }',
		"",
		"[connections.pgwrong]",
		'type = "postgres"',
		`host = "${pg.host}"`,
		`port = ${pg.port}`,
		`database = "${pg.database}"`,
		`user = "${pg.user}"`,
		'password = { secret = "pg-wrong" }',
		"",
		"[connections.maria]",
		'type = "mysql"',
		`host = "${maria.host}"`,
		`port = ${maria.port}`,
		`database = "${maria.database}"`,
		`user = "${maria.user}"`,
		'password = { secret = "maria-pw" }',
		"",
	].join("\n");
	await host.page.writeFile(USER_TOML, toml);
	await expect(host.loadPlugin()).resolves.toEqual(["http", "db", "textdiff", "http-response"]);
	host.page.renderReading(
		[
			fence("connection=shop alias=lite", "SELECT id, title, price, isbn FROM books ORDER BY id"),
			fence("connection=shop alias=refused", "INSERT INTO books (title) VALUES ('Nope')"),
			fence("connection=rw alias=write", "INSERT INTO books (title, price) VALUES ('Kindred', 7);\nSELECT count(*) AS n FROM books"),
			fence("connection=pg alias=types", "SELECT id, price, ok, doc, note FROM items ORDER BY id DESC"),
			fence("connection=pg alias=plan", "SELECT * FROM items WHERE note = 'x'"),
			fence("connection=pg alias=sleep", "SELECT pg_sleep(600)"),
			fence("connection=pg alias=syntax", "SELECT id\nFROM items WHERE WHERE id = 1"),
			fence("connection=pgwrong alias=denied", "SELECT 1"),
			fence("connection=maria alias=people", "SELECT id, name, city, born FROM people ORDER BY id DESC"),
			fence("connection=maria alias=mysyntax", "SELECT id FROM people WHERE WHERE id = 1"),
		].join("\n\n"),
		NOTE,
	);
}, 120_000);

afterAll(async () => {
	await host?.close();
	await Promise.all([pg?.stop(), maria?.stop()]);
});

/** How many pg_sleep(600) statements the server is running now (the asking one aside). */
async function sleepers(): Promise<number> {
	const c = new Client({ host: pg.host, port: pg.port, user: pg.user, password: pg.password, database: pg.database });
	await c.connect();
	try {
		const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND state = 'active' AND pid <> pg_backend_pid()");
		return (r.rows[0] as { n: number }).n;
	} finally {
		await c.end();
	}
}

/** Polls until the server runs `n` of them: what the page sends reaches the server a moment later. */
async function sleepersReach(n: number): Promise<void> {
	let seen = await sleepers();
	for (const deadline = Date.now() + 60_000; seen !== n; seen = await sleepers()) {
		if (Date.now() > deadline) throw new Error(`the server runs ${seen} pg_sleep(600), not ${n}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

const cells = (alias: string) => texts(panelOf(doc, alias), ".rb-db-row:not(.rb-hidden) .rb-db-cell");

describe("db blocks in the desktop host", () => {
	it("runs a SQLite block of the vault on the main thread where no worker exists, with columns, types and NULL", async () => {
		expect((host.window as unknown as { Worker?: unknown }).Worker).toBeUndefined();
		await expect(run(doc, "lite")).resolves.toBe("done");
		const panel = panelOf(doc, "lite");
		expect(texts(panel, ".rb-db-col-name")).toEqual(["id", "title", "price", "isbn"]);
		expect(texts(panel, ".rb-db-col-type")).toEqual(["INTEGER", "TEXT", "REAL", "TEXT"]);
		expect(cells("lite")).toEqual(["1", "Dune", "9.5", "NULL", "2", "Emma", "4.25", "978-0"]);
		expect(texts(panel, ".rb-db-null")).toEqual(["NULL"]);
		expect(text(panel, ".rb-db-rowcount")).toBe("2 rows");
		expect(text(panel, ".rb-db-connection")).toBe("shop");
	});

	it("a read-only connection refuses a write with SQLite's message, and the file is unchanged", async () => {
		await expect(run(doc, "refused")).resolves.toBe("failed");
		expect(text(panelOf(doc, "refused"), ".rb-error-message")).toBe("attempt to write a readonly database");
		expect(rowsOf("data/shop.sqlite", "SELECT count(*) FROM books")).toEqual([[2]]);
	});

	it("a writable connection saves its changes back to the vault file (through a temp file, then a rename)", async () => {
		await expect(run(doc, "write")).resolves.toBe("done");
		expect(cells("write")).toEqual(["3"]);
		expect(texts(panelOf(doc, "write"), ".rb-db-statements li")).toEqual(["INSERT: 1 row", "SELECT: 1 row"]);
		expect(rowsOf("data/rw.sqlite", "SELECT title, price FROM books WHERE id = 3")).toEqual([["Kindred", 7]]);
		expect([...host.page.binaries.keys()].filter((k) => k.includes(".tmp"))).toEqual([]);
	});

	it("a note of db blocks never requires Node's http: its idle preparation and its runs make no HTTP transport", () => {
		host.idle();
		expect(host.required.filter((n) => /^(node:)?https?$/.test(n))).toEqual([]);
	});

	it("loaded without pg; the first postgres block requires it (and Node's net) and shows each type exactly", async () => {
		const net = () => host.required.filter((n) => n === "net" || n === "node:net");
		expect(net()).toEqual([]);
		await expect(run(doc, "types")).resolves.toBe("done");
		expect(net().length).toBeGreaterThan(0);
		expect(host.required.filter((n) => !builtinModules.includes(n.replace(/^node:/, "")) && n !== "obsidian" && !n.startsWith("@codemirror/") && !n.startsWith("@lezer/"))).toEqual([]);
		const panel = panelOf(doc, "types");
		expect(texts(panel, ".rb-db-col-type")).toEqual(["int8", "numeric", "bool", "jsonb", "text"]);
		expect(cells("types")).toEqual(["9007199254740993", "12.30", "true", '{"a":[1,2]}', "NULL", "2", "0.10", "false", "[]", "x"]);
	});

	it("Explain shows PostgreSQL's plan as a tree with costs and rows, its costliest node highlighted", async () => {
		const panel = panelOf(doc, "plan");
		let changed = false;
		const observer = new (doc.defaultView as unknown as typeof globalThis).MutationObserver(() => (changed = true));
		observer.observe(panel, { attributes: true, attributeFilter: ["data-started-at"] });
		panel.querySelector<HTMLButtonElement>(".rb-db-explain")?.click();
		await waitFor("the plan", () => changed && panel.dataset.state === "done");
		observer.disconnect();
		expect(texts(panel, ".rb-db-plan-label")).toEqual(["Seq Scan on items"]);
		expect(text(panel, ".rb-db-plan-cost")).toMatch(/^cost [\d.,]+$/);
		expect(text(panel, ".rb-db-plan-rows")).toMatch(/^rows \d+$/);
		expect(texts(panel, ".rb-db-plan-hot > .rb-db-plan-line .rb-db-plan-label")).toEqual(["Seq Scan on items"]);
	});

	it("Stop cancels pg_sleep(600) through the engine's own cancel, long before it would end", async () => {
		await clickRun(doc, "sleep");
		await stateOf(doc, "sleep", "running");
		await sleepersReach(1);
		// The sleep outlasts this test many times over: only a cancel ends the run within it.
		await clickRun(doc, "sleep", false, 60_000);
		await stateOf(doc, "sleep", "cancelled");
		expect(text(panelOf(doc, "sleep"), ".rb-error")).toBe("[cancelled]");
		// Cancelled on the server too (pg_cancel_backend), not only dropped by the page.
		await sleepersReach(0);
	});

	it("a syntax error shows the engine's message and SQLSTATE, the spot underlined in the block", async () => {
		await expect(run(doc, "syntax")).resolves.toBe("failed");
		const panel = panelOf(doc, "syntax");
		expect(text(panel, ".rb-error-message")).toBe('syntax error at or near "WHERE"');
		expect(text(panel, ".rb-error-detail")).toMatch(/^42601 · line \d+, column 18$/);
		const block = panel.closest(".rb-block") as HTMLElement;
		expect(text(block, ".rb-db-source .rb-db-error-at")).toBe("WHERE");
		expect(text(block, ".rb-db-source")).toBe("SELECT id\nFROM items WHERE WHERE id = 1");
	});

	it("a wrong password says so, and no password appears anywhere on the page", async () => {
		await expect(run(doc, "denied")).resolves.toBe("failed");
		expect(text(panelOf(doc, "denied"), ".rb-error-message")).toBe("Authentication failed");
		expect(doc.body.textContent).not.toContain("not-the-password");
		expect(doc.body.textContent).not.toContain(pg.password);
	});

	it("a MariaDB block runs through the bundled mysql2 (its legacy-charset tables left out): exact bigint, UTF-8 and latin1 text, NULL", async () => {
		await expect(run(doc, "people")).resolves.toBe("done");
		expect(cells("people")).toEqual(["9007199254740993", "Zoë 日本", "Zürich", "1990-05-01", "2", "Ana", "Évora", "NULL"]);
		expect(text(panelOf(doc, "people"), ".rb-db-connection")).toBe("maria");
	});

	it("a MariaDB syntax error shows the engine's message and code", async () => {
		await expect(run(doc, "mysyntax")).resolves.toBe("failed");
		const panel = panelOf(doc, "mysyntax");
		expect(text(panel, ".rb-error-message")).toMatch(/You have an error in your SQL syntax/);
		expect(panel.textContent).toContain("ER_PARSE_ERROR");
	});
});
