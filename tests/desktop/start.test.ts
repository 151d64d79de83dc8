/**
 * The start budget as behaviour (docs/architecture.md, "Start", "Text modules"): loading main.js as
 * Obsidian does evaluates none of the modules it carries as text, the core comes when the layout is
 * ready, and a feature's first use evaluates its own, once.
 */
import { createRequire } from "node:module";
import type * as Http from "node:http";
import { startTestServer, type TestServer } from "../support/servers";
import { launchDesktopHost, run, watchTextModules, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/** The next task of the host's window: what it runs after the current one. */
const nextTask = () => new Promise((resolve) => host.window.setTimeout(resolve, 0));

let host: DesktopHost;
let server: TestServer;
/** Text modules main.js compiled (each to be evaluated), in order. */
let evaluated: string[];

beforeAll(async () => {
	server = await startTestServer();
	host = await launchDesktopHost();
	evaluated = watchTextModules(host);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("text modules", () => {
	it("are neither compiled nor evaluated while the plugin loads: the core waits for the layout, then takes a task per step", async () => {
		host.page.holdLayout();
		await expect(host.loadPlugin()).resolves.toEqual(["http", "db", "textdiff", "http-response"]);
		expect(evaluated).toEqual([]);
		host.page.readyLayout();
		// This task reads the core's code out of main.js; the next compiles it, the one after evaluates it, the last registers.
		expect(evaluated).toEqual([]);
		await nextTask();
		expect(evaluated).toEqual(["src/ui/plugin-core.ts"]);
		await nextTask();
		expect(host.page.commandName("commit-all-changes")).toBeNull();
		await nextTask();
		expect(host.page.commandName("commit-all-changes")).toBe("Commit all changes");
		expect(evaluated).toEqual(["src/ui/plugin-core.ts"]);
		evaluated.splice(0);
	});

	it("are evaluated on first use, each once", async () => {
		host.page.renderReading(`\`\`\`http alias=first\nGET ${server.url}/json\n\`\`\`\n\n\`\`\`http alias=second\nGET ${server.url}/json?again\n\`\`\``, "api/first.md");
		// The http views (what they highlight JSON with, the English texts of the parts compiled on first use), nothing else.
		expect(evaluated).toEqual(["src/ui/http/http-block-view.ts", "@lezer/json", "src/ui/locales/en-on-use.ts"]);
		// What the first request waited for: the node transport sends with Node's http module, the one this require gives.
		const http = createRequire(__filename)("node:http") as typeof Http;
		const request = http.request.bind(http);
		const whenSent: string[][] = [];
		const spy = jest.spyOn(http, "request").mockImplementation((...args: Parameters<typeof request>) => (whenSent.push(evaluated.slice(3)), request(...args)));
		try {
			await expect(run(host.document, "first")).resolves.toBe("done");
		} finally {
			spy.mockRestore();
		}
		// A plain GET pays for its engine and its transport before it leaves: no db drivers, no signer, no hashes, no history.
		expect(new Set(whenSent[0])).toEqual(new Set(["src/runner/http/node-transport.ts", "src/runner/http/raw-head.ts", "src/runner/http/run-http.ts", "src/runner/run-note.ts"]));
		await expect(run(host.document, "second")).resolves.toBe("done");
		// The cache key's hashes came with the first run (once its request had left); nothing was evaluated twice.
		expect(evaluated).toContain("src/runner/hash-functions.ts");
		expect(new Set(evaluated).size).toBe(evaluated.length);
		// A response without cookies, no db block, no diff: none of their heavy parts (sql.js came for run history).
		for (const heavy of ["pg", "mysql2/promise", "tough-cookie", "@codemirror/merge", "@codemirror/lang-sql"]) expect(evaluated).not.toContain(heavy);
	});
});

describe("the core's steps", () => {
	it("give way to a block shown between them: the core starts at once, and the steps left compile nothing again", async () => {
		const other = await launchDesktopHost();
		try {
			const compiled = watchTextModules(other);
			other.page.holdLayout();
			await other.loadPlugin();
			other.page.readyLayout();
			// The first step has read the core's code; a block shown now needs the core before the next task.
			other.page.renderReading("```http alias=early\nGET https://x.test/\n```", "early.md");
			expect(compiled).toEqual(["src/ui/plugin-core.ts", "src/ui/http/http-block-view.ts", "@lezer/json", "src/ui/locales/en-on-use.ts"]);
			expect(other.page.commandName("commit-all-changes")).toBe("Commit all changes");
			for (let i = 0; i < 4; i++) await new Promise((resolve) => other.window.setTimeout(resolve, 0));
			expect(compiled.filter((id) => id === "src/ui/plugin-core.ts")).toHaveLength(1);
		} finally {
			await other.close();
		}
	});
});
