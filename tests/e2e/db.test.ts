import { eventually } from "./support/eventually";
import { launchPluginHost, type PluginHost } from "./support/host";

jest.setTimeout(120_000);

/**
 * db blocks in Chromium with the production main.js: SQLite through sql.js in a Web Worker
 * started from the bundled source (this page is not the desktop app, so only SQLite runs), the
 * results table virtualised, copy, errors underlined, EXPLAIN as a plan tree, and Stop
 * terminating a runaway query while the page stays responsive.
 */
let host: PluginHost;

const TOML = [
	"[connections.mem]",
	'type = "sqlite"',
	'path = "data/scratch.sqlite"',
	"readonly = false",
	"max_rows = 100000",
	"",
	"[connections.shop]",
	'type = "sqlite"',
	'path = "data/shop.sqlite"',
	"readonly = false",
	"max_rows = 3",
	"",
].join("\n");

const fence = (info: string, sql: string) => `\`\`\`db ${info}\n${sql}\n\`\`\``;
const NOTE = [
	fence("connection=mem alias=big", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000)\nSELECT x AS id, 'name ' || x AS name, x * 1.5 AS price, CASE WHEN x % 7 = 0 THEN NULL ELSE 'v' || x END AS maybe FROM c"),
	fence("connection=shop alias=setup", "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, note TEXT);\nINSERT INTO books (title, note) VALUES ('Dune', NULL), ('Say \"hi\", then go', 'a|b'), ('Emma', ''), ('Kindred', 'x');\nSELECT id, title, note FROM books ORDER BY id"),
	fence("connection=shop alias=read", "SELECT id, title FROM books ORDER BY id"),
	fence("connection=shop alias=bad", "SELECT id\nFROM books WHERE id = = 1"),
	fence("connection=shop alias=plan", "SELECT b.title, c.title FROM books b JOIN books c ON c.id = b.id WHERE b.note = 'a|b'"),
	fence("connection=mem alias=forever", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"),
	fence("connection=mem alias=timed timeout=300", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"),
].join("\n\n");

beforeAll(async () => {
	host = await launchPluginHost({ userToml: TOML });
	await host.api((h, md) => h.renderReading(md, "db.md"), NOTE);
});

afterAll(async () => {
	await host?.close();
});

const blockOf = (alias: string) => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) });
const panel = (alias: string) => blockOf(alias).locator(".rb-db-panel");

/** Clicks a button of the panel and waits for that run (a new start time) to end. */
async function runWith(alias: string, button = ".rb-run"): Promise<string> {
	const before = (await panel(alias).getAttribute("data-started-at")) ?? "";
	await panel(alias).locator(button).click();
	await host.page.waitForFunction(
		([a, previous]) => {
			const el = [...document.querySelectorAll(".rb-block")].find((b) => b.querySelector(".rb-alias")?.textContent === `alias ${a}`);
			const p = el?.querySelector(".rb-db-panel");
			const state = p?.getAttribute("data-state");
			return p?.getAttribute("data-started-at") !== previous && (state === "done" || state === "failed" || state === "cancelled");
		},
		[alias, before],
	);
	return (await panel(alias).getAttribute("data-state")) ?? "";
}

/** What the results table did to its DOM while watched: nodes added, and rows refilled per render. */
type DomWatch = { __dom: { added: number; refilled: number[] }; __mo?: MutationObserver };

describe("db blocks in Chromium (sql.js in a worker)", () => {
	it("registers the db renderer with the plugin's others", () => {
		expect(host.processors).toEqual(expect.arrayContaining(["http", "db", "textdiff", "http-response"]));
	});

	it("runs in a Web Worker started from a Blob URL: the page never fetched sql.js or its wasm", async () => {
		await host.page.evaluate(() => {
			const w = window as unknown as { __workers: number; Worker: typeof Worker };
			w.__workers = 0;
			const Original = w.Worker;
			w.Worker = class extends Original {
				constructor(url: string | URL, options?: WorkerOptions) {
					super(url, options);
					w.__workers++;
					if (!String(url).startsWith("blob:")) throw new Error(`worker from ${String(url)}`);
				}
			};
		});
		await expect(runWith("read")).resolves.toBe("failed"); // no table yet: the engine's error, from the worker
		// Two: the query's, and the one that keeps run history (it opens after the run records its row).
		await host.page.waitForFunction(() => (window as unknown as { __workers: number }).__workers >= 2);
		await expect(host.page.evaluate(() => (window as unknown as { __workers: number }).__workers)).resolves.toBe(2);
		await expect(panel("read").locator(".rb-error-message").textContent()).resolves.toBe("no such table: books");
		expect(host.hits.filter((h) => /wasm|sql/i.test(h))).toEqual([]);
	});

	it("100,000 rows: scrolling keeps a bounded window of recycled rows in the DOM, and a frame rewrites at most that window", async () => {
		await expect(runWith("big")).resolves.toBe("done");
		const p = panel("big");
		await expect(p.locator(".rb-db-rowcount").textContent()).resolves.toBe("100,000 rows");
		await expect(p.locator(".rb-db-col-name").allTextContents()).resolves.toEqual(["id", "name", "price", "maybe"]);
		await expect(p.locator(".rb-db-col-type").allTextContents()).resolves.toEqual(["INTEGER", "TEXT", "REAL", "TEXT"]);
		const firstRows = await p.locator(".rb-db-row:not(.rb-hidden)").count();
		expect(firstRows).toBeGreaterThan(10);
		expect(firstRows).toBeLessThan(200);
		// Row 7 (id 7) has NULL in "maybe", shown as a marked cell, not as text "null" or empty.
		const seventh = p.locator('.rb-db-row[aria-rowindex="8"]');
		await expect(seventh.locator(".rb-db-null").textContent()).resolves.toBe("NULL");

		// What keeps scrolling smooth, checked by what the table does rather than by the clock (a busy
		// machine stretches every task; bench/scroll measures the longest task against a floor).
		const table = p.locator(".rb-db-table");
		await table.hover();
		// A wheel scrolls smoothly over several frames: settled once the position holds for three frames
		// (the table renders in the frame of the scroll, so it has rendered by then).
		const settle = () =>
			table.evaluate(
				(el) =>
					new Promise<void>((resolve) => {
						let last = -1;
						let still = 0;
						const tick = () => {
							still = el.scrollTop === last ? still + 1 : 0;
							last = el.scrollTop;
							if (still >= 3) resolve();
							else requestAnimationFrame(tick);
						};
						requestAnimationFrame(tick);
					}),
			);
		// Away from the top the window holds its full overscan: the pool of rows has grown to its size.
		await table.evaluate((el) => (el.scrollTop = 12_000));
		await settle();
		// The table renders in an animation frame, so each render reaches the observer as one batch of
		// records: per batch, the rows it refilled (each refill sets aria-rowindex) and the nodes it added.
		await table.evaluate((el) => {
			const w = window as unknown as DomWatch;
			w.__dom = { added: 0, refilled: [] };
			w.__mo = new MutationObserver((records) => {
				let refilled = 0;
				for (const r of records) {
					w.__dom.added += r.addedNodes.length;
					if (r.attributeName === "aria-rowindex") refilled++;
				}
				w.__dom.refilled.push(refilled);
			});
			w.__mo.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-rowindex"] });
		});
		const watched = () => host.page.evaluate(() => (window as unknown as DomWatch).__dom);
		for (let i = 0; i < 40; i++) await host.page.mouse.wheel(0, 4000);
		// A jump to the end (the scrollbar dragged down), then scrolling back up a little.
		await table.evaluate((el) => (el.scrollTop = el.scrollHeight));
		await host.page.waitForFunction(() => document.querySelector('.rb-db-row[aria-rowindex="100001"]') !== null);
		for (let i = 0; i < 20; i++) await host.page.mouse.wheel(0, -3000);
		await settle();
		const ids = await p.locator(".rb-db-row:not(.rb-hidden) .rb-db-rownum").allTextContents();
		expect(Number(ids[0])).toBeGreaterThan(90_000);
		// A scroll of one row stays inside the overscan: the rows there already cover it, nothing is
		// rewritten. From a place set by the script (instant: no smooth scroll still under way).
		await table.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
		await settle();
		const before = await watched();
		const nudge = await table.evaluate((el) => {
			const from = el.scrollTop;
			el.scrollTop = from + 24;
			return el.scrollTop - from;
		});
		expect(nudge).toBeGreaterThan(0);
		await settle();
		const after = await watched();
		await host.page.evaluate(() => (window as unknown as DomWatch).__mo?.disconnect());

		// Rows are recycled: the DOM holds the pool (the window's size) and no more, scrolling adds
		// no rows, and a frame rewrites at most the window, whatever the row count.
		const pool = await p.locator(".rb-db-row").count();
		expect(pool).toBeLessThan(200);
		expect(after.added).toBeLessThan(20);
		// Renders were seen (the jumps to the end and to the middle at least), none beyond the window.
		expect(after.refilled.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
		expect(Math.max(...after.refilled)).toBeLessThanOrEqual(pool);
		expect(after).toEqual(before);
	});

	it("writes on a writable connection are saved back to the vault file; each statement's row count is listed", async () => {
		await expect(runWith("setup")).resolves.toBe("done");
		const p = panel("setup");
		await expect(p.locator(".rb-db-statements li").allTextContents()).resolves.toEqual(["DDL: 0 rows", "INSERT: 4 rows", "SELECT: 4 rows"]);
		const size = await host.api((h) => h.binaries.get("data/shop.sqlite")?.byteLength ?? 0);
		expect(size).toBeGreaterThan(0);
		await expect(runWith("read")).resolves.toBe("done");
	});

	it("past max_rows: 'N of M rows' and Load more fetches the next page", async () => {
		const p = panel("read");
		await expect(p.locator(".rb-db-rowcount").textContent()).resolves.toBe("3 of 4 rows");
		expect(await p.locator(".rb-db-row:not(.rb-hidden)").count()).toBe(3);
		await expect(p.locator(".rb-db-load-more").textContent()).resolves.toBe("Load 1 more");
		await expect(runWith("read", ".rb-db-load-more")).resolves.toBe("done");
		await expect(p.locator(".rb-db-rowcount").textContent()).resolves.toBe("4 rows");
		expect(await p.locator(".rb-db-row:not(.rb-hidden)").count()).toBe(4);
		expect(await p.locator(".rb-db-load-more").count()).toBe(0);
	});

	it("copies the rows as CSV from the panel menu", async () => {
		await panel("setup").locator(".rb-gear").click();
		await host.page.locator(".menu-item", { hasText: "Copy as CSV" }).click();
		await host.page.waitForFunction(() => /Copied|clipboard/i.test(document.querySelector("#notices")?.textContent ?? ""));
		// The rows on screen (max_rows = 3 of the 4).
		await expect(host.page.locator("#notices").textContent()).resolves.toContain("Copied 3 rows as CSV");
		await expect(host.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('id,title,note\r\n1,Dune,\r\n2,"Say ""hi"", then go",a|b\r\n3,Emma,""\r\n');
	});

	it("a syntax error shows the engine's message and code, and underlines the spot in the block", async () => {
		await expect(runWith("bad")).resolves.toBe("failed");
		const block = blockOf("bad");
		await expect(block.locator(".rb-error-message").textContent()).resolves.toBe('near "=": syntax error');
		// SQLite names the token, not its place: the "=" it stopped on (the second) is the one underlined.
		const line = NOTE.split("\n").indexOf("FROM books WHERE id = = 1") + 1;
		await expect(block.locator(".rb-error-detail").textContent()).resolves.toBe(`SQLITE_ERROR · line ${line}, column 23`);
		await expect(block.locator(".rb-db-source .rb-db-error-at").textContent()).resolves.toBe("=");
		await expect(block.locator(".rb-db-source").textContent()).resolves.toBe("SELECT id\nFROM books WHERE id = = 1");
		await expect(block.locator(".rb-db-error-where").textContent()).resolves.toBe(`Line ${line}, column 23`);
	});

	it("Explain shows the plan as a tree with the full scan highlighted", async () => {
		await expect(runWith("plan", ".rb-db-explain")).resolves.toBe("done");
		const p = panel("plan");
		const labels = await p.locator(".rb-db-plan-label").allTextContents();
		// A scan of b (no index on note), then c looked up by its primary key: the scan is the costly step.
		expect(labels).toEqual([expect.stringMatching(/^SCAN b\b/), expect.stringMatching(/^SEARCH c USING INTEGER PRIMARY KEY/)]);
		await expect(p.locator(".rb-db-plan-hot > .rb-db-plan-line .rb-db-plan-label").textContent()).resolves.toMatch(/^SCAN b\b/);
		expect(await p.locator(".rb-db-plan-hot").count()).toBe(1);
	});

	it("Stop ends a runaway query at once by terminating its worker, the page stays responsive, and the next run works", async () => {
		await panel("forever").locator(".rb-run").click();
		await host.page.waitForFunction(() => [...document.querySelectorAll(".rb-db-panel")].some((p) => p.getAttribute("data-state") === "running"));
		// Let it run: the main thread keeps painting frames meanwhile (a statement on the page's own
		// thread would paint none until it ended). How long each task takes is bench/'s to measure.
		const frames = await host.page.evaluate(() => new Promise<number>((resolve) => {
			let n = 0;
			const tick = () => (++n < 20 ? requestAnimationFrame(tick) : resolve(n));
			requestAnimationFrame(tick);
		}));
		expect(frames).toBe(20);
		await panel("forever").locator(".rb-run").click();
		await host.page.waitForFunction(() => [...document.querySelectorAll(".rb-db-panel")].some((p) => p.getAttribute("data-state") === "cancelled"));
		await expect(panel("forever").locator(".rb-error").textContent()).resolves.toBe("[cancelled]");
		// Said once, in the badge: the panel's body does not repeat it.
		expect((await panel("forever").textContent())?.split("[cancelled]")).toHaveLength(2);
		await expect(runWith("read")).resolves.toBe("done");
	});

	it("a timeout ends a runaway statement the same way: Query cancelled (timeout N ms)", async () => {
		await expect(runWith("timed")).resolves.toBe("cancelled");
		await expect(panel("timed").locator(".rb-error").textContent()).resolves.toBe("Query cancelled (timeout 300 ms)");
		expect((await panel("timed").textContent())?.split("Query cancelled")).toHaveLength(2);
		await expect(runWith("read")).resolves.toBe("done");
	});

	it("in the editor: a failed run's error spot is underlined in the SQL, and Mod+Shift+E in a db block explains it", async () => {
		await host.api((h, md) => h.openEditor(md, "db.md"), NOTE);
		// The session of the note already holds the failed run of "bad": the editor underlines it at once.
		await host.page.waitForFunction(() => document.querySelector("#editor .cm-content .rb-db-error-at")?.textContent === "=");
		await expect(host.page.locator("#editor .cm-line", { has: host.page.locator(".rb-db-error-at") }).textContent()).resolves.toBe("FROM books WHERE id = = 1");
		// A note of one db block; the cursor on its SQL line.
		await host.api((h, md) => h.openEditor(md, "plan.md"), fence("connection=shop alias=plan", "SELECT title FROM books WHERE note = 'x'"));
		const editorPanel = host.page.locator("#editor .rb-db-panel");
		// A click on the SQL line itself, then a wait for the cursor there (a click on the fence line
		// and ArrowDown once left the cursor on line 0 in CI).
		await host.page.locator("#editor .cm-line", { hasText: "SELECT title" }).click();
		await eventually(async () => expect(await host.api((h) => h.editorCursorLine())).toBe(1));
		await host.page.keyboard.press("Control+Shift+E");
		await host.page.waitForFunction(() => document.querySelector("#editor .rb-db-panel")?.getAttribute("data-state") === "done");
		await expect(editorPanel.locator(".rb-db-plan-hot .rb-db-plan-label").textContent()).resolves.toMatch(/^SCAN books/);
		await expect(host.api((h) => h.fellThrough)).resolves.not.toContain("Mod-Shift-e");
	});
});
