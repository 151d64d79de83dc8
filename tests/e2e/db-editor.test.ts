/**
 * db blocks in the editor, in real Chromium with the production main.js: completion of tables and
 * of columns with their types, hover facts, highlighting, /DB Query with its connection rows, Mod+K
 * over the schema and "Test connection" in settings. The schema comes from a real SQLite file of
 * the vault, read through the plugin's db port.
 */
import initSqlJs from "sql.js";
import { eventually } from "./support/eventually";
import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(120_000);

let host: Host;
const SHOP = `CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
	CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price NUMERIC, author_id INTEGER REFERENCES authors(id));
	CREATE VIEW titles AS SELECT title FROM books;
	INSERT INTO authors VALUES (1, 'Le Guin');`;

beforeAll(async () => {
	const SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec(SHOP);
	const bytes = [...db.export()];
	db.close();
	host = await launchPluginHost({
		userToml: () =>
			[
				"# connections for the editor tests",
				"[connections.shop]",
				'type = "sqlite"',
				'path = "data/shop.sqlite"',
				"",
				"[connections.gone]",
				'type = "sqlite"',
				'path = "data/missing.sqlite"',
				"",
				"[keymap]",
				'"search.blocks" = "Mod+K"',
				"",
			].join("\n"),
	});
	await host.api((h, b) => void h.binaries.set("data/shop.sqlite", new Uint8Array(b).buffer), bytes);
});

afterAll(async () => {
	await host?.close();
});

const options = () => host.page.locator(".cm-tooltip-autocomplete li");
const text = () => host.api((h) => h.editorText());
/** Enter on the completion list: CodeMirror ignores it for interactionDelay (75 ms) after the list changed. */
async function accept(): Promise<void> {
	await host.page.waitForTimeout(150);
	await host.page.keyboard.press("Enter");
}

/** Opens a note with an empty db block and puts the cursor on its empty SQL line. */
async function editBlock(): Promise<void> {
	await host.api((h) => h.openEditor("Intro\n\n```db connection=shop\n\n```\n"));
	await host.page.locator(".cm-content").click();
	await host.page.keyboard.press("Control+Home");
	for (let i = 0; i < 3; i++) await host.page.keyboard.press("ArrowDown");
}

describe("completion in a db block", () => {
	it("typing a table name suggests it; Enter completes it", async () => {
		await editBlock();
		await host.page.keyboard.type("SELECT * FROM bo");
		await eventually(async () => expect(await options().allTextContents()).toEqual([expect.stringMatching(/^books/)]));
		await accept();
		await expect(text()).resolves.toContain("SELECT * FROM books\n```");
	});

	it("after `alias.` and in a column position, columns are offered with their types", async () => {
		await editBlock();
		await host.page.keyboard.type("SELECT * FROM books b WHERE b.");
		await eventually(async () => expect(await options().count()).toBe(4));
		const items = await options().evaluateAll((els) => els.map((el) => `${el.querySelector(".cm-completionLabel")?.textContent}:${el.querySelector(".cm-completionDetail")?.textContent}`));
		expect(items).toEqual(["author_id:INTEGER", "id:INTEGER", "price:NUMERIC", "title:TEXT"]);
		await host.page.keyboard.type("pr");
		await eventually(async () => expect(await options().allTextContents()).toEqual(["priceNUMERIC"]));
		await accept();
		await host.page.keyboard.type(" > 1 AND ti");
		await eventually(async () => expect(await options().first().textContent()).toBe("titleTEXT"));
		await accept();
		await expect(text()).resolves.toContain("SELECT * FROM books b WHERE b.price > 1 AND title\n");
	});

	it("nothing is offered in a string or outside db blocks", async () => {
		await editBlock();
		await host.page.keyboard.type("SELECT * FROM books WHERE title = 'bo");
		await host.page.waitForTimeout(300);
		await expect(options().count()).resolves.toBe(0);
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("\nbo");
		await host.page.waitForTimeout(300);
		await expect(options().count()).resolves.toBe(0);
	});

	it("hovering a column shows its type, nullability and key; SQL is highlighted", async () => {
		await host.api((h) => h.openEditor("```db connection=shop\nSELECT id, title FROM books\n```\n"));
		await expect(host.page.locator(".rb-sql-keyword", { hasText: "SELECT" }).count()).resolves.toBe(1);
		const at = await host.page.locator(".cm-line", { hasText: "SELECT id" }).evaluate((line) => {
			const range = document.createRange();
			const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
			for (let n = walker.nextNode(); n; n = walker.nextNode()) {
				const i = (n.textContent ?? "").indexOf("id,");
				if (i === -1) continue;
				range.setStart(n, i);
				range.setEnd(n, i + 1);
				const r = range.getBoundingClientRect();
				return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
			}
			return null;
		});
		if (!at) throw new Error("no `id,` on the line");
		await host.page.mouse.move(at.x, at.y);
		const hover = host.page.locator(".rb-sql-hover");
		await hover.waitFor();
		await expect(hover.textContent()).resolves.toBe("books.idINTEGERnot null · primary key");
	});
});

describe("/DB Query", () => {
	it("lists one row per connection and New connection…; the template names the connection and its first table", async () => {
		await host.api((h) => h.openEditor("Intro\n\n"));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("/db");
		const rows = host.page.locator(".suggestion-container .suggestion-item");
		await eventually(async () => expect(await rows.allTextContents()).toEqual(["DB Query shop", "DB Query gone", "DB Query history", "DB Query New connection…"]));
		await host.page.keyboard.press("Enter");
		await eventually(async () => expect(await text()).toBe("Intro\n\n```db connection=shop\nSELECT * FROM authors LIMIT 100;\n```\n"));
		await expect(host.api((h) => h.editorCursorLine())).resolves.toBe(3);
	});

	it("New connection… adds it to user.toml and inserts a query of its first table", async () => {
		await host.api((h) => h.openEditor("Intro\n\n"));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("/db new");
		await host.page.locator(".suggestion-container .suggestion-item", { hasText: "New connection…" }).waitFor();
		await host.page.keyboard.press("Enter");
		const inputs = host.page.locator(".modal input[type=text]");
		await inputs.nth(0).fill("shop2");
		await inputs.nth(1).fill("data/shop.sqlite");
		await host.page.locator(".modal button", { hasText: "Add" }).click();
		await eventually(async () => expect(await text()).toBe("Intro\n\n```db connection=shop2\nSELECT * FROM authors LIMIT 100;\n```\n"));
		const toml = await host.api((h) => h.files.get(".obsidian/plugins/runnable-blocks/user.toml") ?? "");
		expect(toml).toContain('[connections.shop2]\ntype = "sqlite"\npath = "data/shop.sqlite"\nreadonly = true');
	});
});

describe("Mod+K over the schema", () => {
	it("a schema read while the list is open joins it, without another keystroke", async () => {
		const SQL = await initSqlJs();
		const bytesOf = (sql: string) => {
			const db = new SQL.Database();
			db.exec(sql);
			const out = [...db.export()];
			db.close();
			return out;
		};
		// The database gains a table, on a slow disk: a read of it ends 2 s after it starts.
		await host.api((h, b) => {
			h.binaries.set("data/shop.sqlite", new Uint8Array(b).buffer);
			h.slowReads.set("data/shop.sqlite", 2000);
		}, bytesOf(`${SHOP}; CREATE TABLE ledger (id INTEGER PRIMARY KEY, booked_at TEXT);`));
		const results = host.page.locator(".modal .prompt-results");
		try {
			await host.api((h) => h.openEditor("```db connection=shop\nSELECT 1\n```\n"));
			await host.page.locator(".cm-line", { hasText: "SELECT" }).click();
			await host.page.keyboard.press("Control+K");
			await host.page.locator(".modal .prompt-input").waitFor();
			await host.page.keyboard.type("ledger booked");
			// Open without it: no read of the new file has ended yet.
			await expect(results.textContent()).resolves.not.toContain("ledger");
			await host.api((h) => h.runCommand("refresh-db-schemas"));
			await eventually(async () => expect(await results.locator(".suggestion-item").first().textContent()).toBe("column ledger.booked_at TEXT · shop"), 10_000);
			await expect(host.page.locator(".modal .prompt-input").inputValue()).resolves.toBe("ledger booked");
		} finally {
			await host.page.keyboard.press("Escape");
			await host.api((h, b) => {
				h.slowReads.clear();
				h.binaries.set("data/shop.sqlite", new Uint8Array(b).buffer);
			}, bytesOf(SHOP));
			await host.api((h) => h.runCommand("refresh-db-schemas"));
		}
	});

	it("finds a column by table and name, and choosing it inserts table.column at the cursor", async () => {
		await host.api((h) => h.openEditor("```db connection=shop\nSELECT  FROM books\n```\n"));
		await host.page.locator(".cm-line", { hasText: "SELECT" }).click();
		await host.page.keyboard.press("Home");
		for (let i = 0; i < 7; i++) await host.page.keyboard.press("ArrowRight");
		await host.page.keyboard.press("Control+K");
		// Typed once the list is open, as a user sees it (Mod+K waits up to 500 ms for schemas first).
		await host.page.locator(".modal .prompt-input").waitFor();
		await host.page.keyboard.type("books title");
		const first = host.page.locator(".modal .suggestion-item").first();
		await eventually(async () => expect(await first.textContent()).toBe("column books.title TEXT · shop"));
		await host.page.keyboard.press("Enter");
		await expect(text()).resolves.toContain("SELECT books.title FROM books");
	});
});

describe("connections in settings", () => {
	it("Test connection reads the schema through the driver and says what it found, or why it failed", async () => {
		await host.api((h) => h.openSettings());
		await host.page.locator('[data-connection="shop"] button', { hasText: "Test connection" }).click();
		await expect(host.page.locator('[data-connection="shop"] .rb-connection-test.is-ok').textContent()).resolves.toBe("Connected: 2 tables, 1 views");
		await host.page.locator('[data-connection="gone"] button', { hasText: "Test connection" }).click();
		await expect(host.page.locator('[data-connection="gone"] .rb-connection-test.is-failed').textContent()).resolves.toMatch(/^Failed: .*data\/missing\.sqlite: no such file/);
	});

	it("editing a field patches user.toml in place, comments kept", async () => {
		await host.api((h) => h.openSettings());
		const path = host.page.locator('.rb-connection-field input[data-key="path"]').nth(1);
		await path.fill("data/shop.sqlite");
		await path.dispatchEvent("change");
		await eventually(async () => {
			const toml = await host.api((h) => h.files.get(".obsidian/plugins/runnable-blocks/user.toml") ?? "");
			expect(toml).toContain('[connections.gone]\ntype = "sqlite"\npath = "data/shop.sqlite"');
			expect(toml).toContain("# connections for the editor tests");
		});
	});
});
