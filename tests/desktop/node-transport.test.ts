import { builtinModules } from "node:module";
import initSqlJs from "sql.js";
import { startTestServer, type TestServer } from "../support/servers";
import { clickRun, launchDesktopHost, panelOf, run, showTab, stateOf, text, texts, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/**
 * Blocks run from the Run button of a note rendered in Reading view, in the desktop host
 * (production main.js, node:vm, jsdom, Platform.isDesktopApp): the node transport against
 * the test server on 127.0.0.1, asserted through the panel's DOM and the server's recordings.
 */
let host: DesktopHost;
let server: TestServer;
let doc: Document;
let base: string;
const NOTE = "api/desktop.md";
const HISTORY = ".obsidian/plugins/runnable-blocks/history.sqlite";
const TOO_LARGE = 100 * 1024 * 1024 + 1;

beforeAll(async () => {
	server = await startTestServer();
	// A host name rather than the address, so the run has a dns phase (localhost is 127.0.0.1).
	base = server.url.replace("127.0.0.1", "localhost");
	host = await launchDesktopHost();
	doc = host.document;
	await expect(host.loadPlugin()).resolves.toEqual(["http", "db", "textdiff", "http-response"]);
	const blocks: Array<[string, string]> = [
		["held", "GET /held?id=first"],
		["again", "GET /json"],
		["cancel", "GET /held?id=cancel"],
		["slow timeout=200", "GET /held?id=timeout"],
		["huge", `GET /huge?bytes=${TOO_LARGE}`],
		["head", `HEAD /huge?bytes=${TOO_LARGE}`],
		["gzip", "GET /gzip"],
		["posted", "POST /echo\n\nhello"],
	];
	host.page.renderReading(blocks.map(([info, req]) => `\`\`\`http alias=${info}\n${req.replace(" /", ` ${base}/`)}\n\`\`\``).join("\n\n"), NOTE);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

/** The Node builtins main.js has required so far. */
const builtins = () => host.required.filter((n) => builtinModules.includes(n.replace(/^node:/, "")));

/** The body as the panel shows it (virtualised lines). */
const bodyText = (alias: string) => texts(panelOf(doc, alias), ".rb-vtext-line").join("\n");

describe("the node transport in the desktop host", () => {
	it("loaded main.js without requiring a Node builtin; the first idle moment prepares the run (http only), and the run requires nothing more", async () => {
		expect(builtins()).toEqual([]);
		// The blocks on screen asked for one idle moment per kind (one kind here).
		expect(host.idle()).toBe(1);
		expect(builtins()).toEqual(["http"]);
		await clickRun(doc, "held");
		expect(builtins()).toEqual(["http"]);
	});

	it("shows status and headers while the body is still held by the server, then the body", async () => {
		const panel = await stateOf(doc, "held", "streaming");
		expect(text(panel, ".rb-transport")).toBe("node");
		expect(text(panel, ".rb-status")).toBe("200 OK");
		expect(text(panel, ".rb-progress")).toMatch(/^Receiving/);
		expect(panel.querySelector(".rb-body")).toBeNull();
		showTab(doc, "held", "headers");
		expect(text(panel, ".rb-tab-content")).toContain("text/plain");
		showTab(doc, "held", "body");
		// Nothing has ended the response yet: only the test's release does.
		expect(server.closedEarly()).toEqual([]);
		server.release("first");
		await stateOf(doc, "held", "done");
		expect(bodyText("held")).toBe("first part;second part");
	});

	it("times dns, connect and ttfb on a new connection and reuses it for the next run", async () => {
		const panel = showTab(doc, "held", "timing");
		expect(texts(panel, ".rb-timing-label")).toEqual(["dns", "connect", "ttfb", "total"]);
		expect(text(panel, ".rb-timing")).not.toContain("connection reused");
		const connections = server.connections();
		await expect(run(doc, "again")).resolves.toBe("done");
		const again = showTab(doc, "again", "timing");
		expect(texts(again, ".rb-timing-label")).toEqual(["ttfb", "total"]);
		expect(text(again, ".rb-timing")).toContain("connection reused");
		expect(server.connections()).toBe(connections);
		expect(server.requests.filter((r) => r.url === "/json")).toHaveLength(1);
	});

	it("Stop mid-body ends [cancelled], keeps no partial bytes and hangs up on the server", async () => {
		await clickRun(doc, "cancel");
		const panel = await stateOf(doc, "cancel", "streaming");
		await waitFor("the first part to arrive", () => /Receiving… [1-9]/.test(text(panel, ".rb-progress") ?? ""));
		await clickRun(doc, "cancel");
		await stateOf(doc, "cancel", "cancelled");
		expect(text(panel, ".rb-error")).toBe("[cancelled]");
		expect(panel.querySelector(".rb-body")).toBeNull();
		expect(text(panel, ".rb-tab-content")).not.toContain("first part");
		await waitFor("the server to see the hang-up", () => server.closedEarly().includes("/held?id=cancel"));
	});

	it("a timeout=200 block says Request cancelled and hangs up", async () => {
		// The server holds this response until the test releases it, which it never does: only a timeout
		// ends the run, and within this wait only the block's own (the default is 30 s).
		await expect(run(doc, "slow", 20_000)).resolves.toBe("cancelled");
		const panel = panelOf(doc, "slow");
		expect(text(panel, ".rb-status")).toBe("200 OK");
		expect(text(panel, ".rb-error")).toBe("Request cancelled");
		expect(panel.querySelector(".rb-body")).toBeNull();
		await waitFor("the server to see the hang-up", () => server.closedEarly().includes("/held?id=timeout"));
	});

	it("a 100 MB + 1 byte body ends [body_too_large], memory stays bounded and the server stops being read", async () => {
		const writtenBefore = server.bytesWritten();
		const before = process.memoryUsage();
		let peakRss = 0;
		let peakBuffers = 0;
		const sample = setInterval(() => {
			const m = process.memoryUsage();
			peakRss = Math.max(peakRss, m.rss - before.rss);
			peakBuffers = Math.max(peakBuffers, m.arrayBuffers - before.arrayBuffers);
		}, 5);
		try {
			await expect(run(doc, "huge", 20_000)).resolves.toBe("failed");
		} finally {
			clearInterval(sample);
		}
		const panel = panelOf(doc, "huge");
		expect(text(panel, ".rb-error")).toBe("[body_too_large]");
		expect(panel.querySelector(".rb-body")).toBeNull();
		expect(peakRss).toBeLessThan(60 * 1024 * 1024);
		expect(peakBuffers).toBeLessThan(60 * 1024 * 1024);
		await waitFor("the server to see the hang-up", () => server.closedEarly().includes(`/huge?bytes=${TOO_LARGE}`));
		const written = server.bytesWritten();
		await new Promise((r) => setTimeout(r, 200));
		expect(server.bytesWritten()).toBe(written);
		expect(written - writtenBefore).toBeLessThan(TOO_LARGE / 4);
	});

	it("a HEAD whose Content-Length passes the cap is fine: it has no body", async () => {
		await expect(run(doc, "head")).resolves.toBe("done");
		expect(text(panelOf(doc, "head"), ".rb-status")).toBe("200 OK");
		expect(text(panelOf(doc, "head"), ".rb-error")).toBeNull();
	});

	it("decodes a gzip body (zlib required for it, not before)", async () => {
		expect(builtins()).not.toContain("zlib");
		await expect(run(doc, "gzip")).resolves.toBe("done");
		expect(builtins()).toContain("zlib");
		expect(JSON.parse(bodyText("gzip"))).toEqual({ encoded: "gzip", text: "x".repeat(1000) });
		const sent = server.requests.find((r) => r.url === "/gzip");
		expect(sent?.headers.find(([n]) => n.toLowerCase() === "accept-encoding")?.[1]).toContain("gzip");
		const panel = showTab(doc, "gzip", "headers");
		expect(text(panel, ".rb-tab-content")).toMatch(/content-encoding\s*gzip/i);
	});

	it("writes every run to history.sqlite through the vault adapter, the last one flushed on unload", async () => {
		const expected = [
			["held", "GET", "done", 200, null],
			["again", "GET", "done", 200, null],
			["cancel", "GET", "cancelled", 200, "cancelled"],
			["slow", "GET", "cancelled", 200, "timeout"],
			["huge", "GET", "failed", 200, "body_too_large"],
			["head", "HEAD", "done", 200, null],
			["gzip", "GET", "done", 200, null],
			["posted", "POST", "done", 200, null],
		];
		const stored = () => {
			const data = host.page.binaries.get(HISTORY);
			return data ? rows(new Uint8Array(data)) : [];
		};
		// The runs so far, written by the debounced write (~1 s after the first unsaved run)…
		await waitFor("the debounced write", () => stored().length === expected.length - 1, 3_000);
		await expect(run(doc, "posted")).resolves.toBe("done");
		// …while the row of a run just made waits for the next one…
		expect(stored().length).toBeLessThan(expected.length);
		// …and unloading the plugin writes it at once.
		host.page.unloadPlugin();
		const all = await waitFor("history.sqlite with every run", () => (stored().length === expected.length ? stored() : undefined), 600);
		expect(all.map((r) => [r.alias, r.method, r.outcome, r.status, r.error_code])).toEqual(expected);
		expect(new Set(all.map((r) => r.file_path))).toEqual(new Set([NOTE]));
		expect(new Set(all.map((r) => r.transport))).toEqual(new Set(["node"]));
		expect(all.find((r) => r.alias === "gzip")?.url).toBe(`${base}/gzip`);
		// No "run history is unavailable" or any other notice on the way.
		expect(host.page.notices).toEqual([]);
	});
});

type Row = { file_path: string; alias: string; method: string; url: string; status: number | null; outcome: string; error_code: string | null; transport: string };
let SQL: Awaited<ReturnType<typeof initSqlJs>>;
beforeAll(async () => {
	SQL = await initSqlJs();
});

/** The history rows in a history.sqlite file, oldest first (sql.js from node_modules). */
function rows(bytes: Uint8Array): Row[] {
	const db = new SQL.Database(bytes);
	try {
		const [result] = db.exec("SELECT file_path, alias, method, url, status, outcome, error_code, transport FROM block_run_history ORDER BY id");
		return (result?.values ?? []).map((v) => Object.fromEntries(result.columns.map((c, i) => [c, v[i]])) as Row);
	} finally {
		db.close();
	}
}
