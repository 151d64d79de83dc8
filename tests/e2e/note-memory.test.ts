/**
 * Notes that remember, in the Chromium host with the production main.js (issue 28): `# @property`
 * values go into the note's front matter through processFrontMatter after a successful run, with
 * their types, as Obsidian's metadata cache reads them back; a failed run leaves the note as it
 * was; `{{this.x}}` reads them in a later block. `# @poll` repeats a block until its assertions
 * pass, `max` or Stop; its waits run on Playwright's clock, moved forward by the test (no sleeps).
 */
import { launchPluginHost, type PluginHost } from "./support/host";

jest.setTimeout(120_000);

let host: PluginHost;

const panelOf = (alias: string) => host.page.locator("#reading .rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) }).locator(".rb-panel");
const FINAL = ["done", "cached", "failed", "cancelled"];

/** Clicks Run on block `alias`; returns once a new run has started (the attribute moved). */
async function start(alias: string): Promise<void> {
	const panel = panelOf(alias);
	const before = (await panel.getAttribute("data-started-at")) ?? "";
	await panel.locator(".rb-run").click();
	await host.page.waitForFunction(([el, b]) => (el as HTMLElement).dataset.startedAt !== b, [await panel.elementHandle(), before] as const);
}

/** Waits until block `alias`'s run is final (a poll: its last attempt, no wait left); returns its state. */
async function ended(alias: string): Promise<string> {
	const panel = panelOf(alias);
	await host.page.waitForFunction(
		([el, final]) => final.includes((el as HTMLElement).dataset.state ?? "") && !(el as HTMLElement).querySelector(".rb-poll-waiting"),
		[await panel.elementHandle(), FINAL] as const,
	);
	return (await panel.getAttribute("data-state")) ?? "";
}

async function run(alias: string): Promise<string> {
	await start(alias);
	return ended(alias);
}

const calls = (path: string) => host.hits.filter((p) => p === path).length;
const note = (path: string) => host.api((h, p) => h.files.get(p) ?? "", path);

beforeAll(async () => {
	// Playwright's clock: time flows as usual, and a poll's wait ends when the test moves it forward.
	host = await launchPluginHost({ clock: new Date("2026-03-01T09:00:00Z") });
});

afterAll(async () => {
	await host?.close();
});

describe("# @property in Obsidian", () => {
	const book = (url: string, front: string) =>
		[
			...(front ? ["---", front, "---"] : []),
			"# Book",
			"",
			"```http alias=book",
			"# @property price = {{$.price}}",
			"# @property title = {{$.title}}",
			"# @property available = {{$.available}}",
			"# @property tags = {{$.tags}}",
			`GET ${url}/api/book`,
			"",
			"?? status == 200",
			"```",
			"",
			"```http alias=search",
			`GET ${url}/api/json?region={{this.region}}&title={{this.title}}&price={{this.price}}&tags={{this.tags}}`,
			"```",
			"",
		].join("\n");

	it("writes numbers, strings, booleans and lists into the front matter, the rest of the note kept", async () => {
		const text = book(host.url, "region: eu");
		await host.api((h, md) => h.renderReading(md, "book.md"), text);
		expect(await run("book")).toBe("done");
		await host.until((h) => h.frontMatter("book.md")?.price !== undefined);
		expect(await host.api((h) => h.frontMatter("book.md"))).toEqual({ region: "eu", price: 9.99, title: "Dune", available: true, tags: ["sf", "classic"] });
		const after = await note("book.md");
		expect(after.slice(after.indexOf("\n---\n") + 5)).toBe(text.slice(text.indexOf("\n---\n") + 5));
	});

	it("reads them back with {{this.x}} in a later block", async () => {
		await host.api((h) => h.renderReading(h.files.get("book.md") ?? "", "book.md"));
		expect(await run("search")).toBe("done");
		await panelOf("search").locator(".rb-tab", { hasText: "Raw" }).click();
		await expect(panelOf("search").textContent()).resolves.toContain("/api/json?region=eu&title=Dune&price=9.99&tags=[%22sf%22,%22classic%22] HTTP/1.1");
	});

	it("gives a note without front matter one, which Obsidian's metadata cache reads", async () => {
		const text = book(host.url, "");
		await host.api((h, md) => h.renderReading(md, "plain.md"), text);
		expect(await host.api((h) => h.frontMatter("plain.md"))).toBeNull();
		// The same GET as the first test's: served from the cache, which sets properties too.
		expect(["done", "cached"]).toContain(await run("book"));
		await host.until((h) => h.frontMatter("plain.md") !== null);
		expect(await host.api((h) => h.frontMatter("plain.md"))).toEqual({ price: 9.99, title: "Dune", available: true, tags: ["sf", "classic"] });
		const after = await note("plain.md");
		expect(after.startsWith("---\n")).toBe(true);
		expect(after.endsWith(`---\n${text}`)).toBe(true);
	});

	// A value that resolves whatever the response: only the run's outcome keeps it out of the note.
	it.each([
		["an assertion that fails", "/api/book", "?? status == 201", "done"],
		["a request that cannot connect", "http://127.0.0.1:1/nothing", "?? status == 200", "failed"],
	])("leaves the note byte-identical after %s", async (_what, target, assertion, state) => {
		const url = target.startsWith("http") ? target : `${host.url}${target}`;
		const text = ["---", "region: eu", "---", "```http alias=broken", "# @property checked = yes", `GET ${url}`, "", assertion, "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md, "broken.md"), text);
		// The properties are written as the run ends, before its panel shows the end.
		expect([state, "cached"]).toContain(await run("broken"));
		expect(await note("broken.md")).toBe(text);
	});
});

describe("# @poll in Obsidian", () => {
	const wait = panelOf;

	/** Waits for the poll of `alias` to be waiting after `count` calls of `path`, then moves the clock past the wait. */
	async function nextAttempt(alias: string, path: string, count: number): Promise<void> {
		await host.page.waitForFunction(([el]) => !!(el as HTMLElement).querySelector(".rb-poll-waiting"), [await wait(alias).elementHandle()] as const);
		expect(calls(path)).toBe(count);
		await host.page.clock.fastForward("30:00");
	}

	it("repeats until the assertions pass: exactly 4 requests when the server is ready on the 4th", async () => {
		const before = calls("/api/counter");
		const text = ["```http alias=job", "# @poll every=30m max=10", `GET ${host.url}/api/counter`, "", `?? body $.run == ${before + 4}`, "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md, "poll.md"), text);
		await start("job");
		for (let k = 1; k <= 3; k++) await nextAttempt("job", "/api/counter", before + k);
		expect(await ended("job")).toBe("done");
		expect(calls("/api/counter")).toBe(before + 4);
		await expect(panelOf("job").locator(".rb-poll-attempt").innerText()).resolves.toBe("Attempt 4 of 10");
		await host.until((h) => h.notices.some((n) => n.includes("assertions passed on attempt 4 of 10")));
	});

	it("stops at max", async () => {
		const before = calls("/api/status/503");
		const text = ["```http alias=never", "# @poll every=30m max=3", `GET ${host.url}/api/status/503`, "", "?? status == 200", "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md, "poll.md"), text);
		await start("never");
		for (let k = 1; k <= 2; k++) await nextAttempt("never", "/api/status/503", before + k);
		expect(await ended("never")).toBe("done");
		expect(calls("/api/status/503")).toBe(before + 3);
		await expect(panelOf("never").locator(".rb-poll-attempt").innerText()).resolves.toBe("Attempt 3 of 3");
		await host.until((h) => h.notices.some((n) => n.includes("still failing after 3 attempts")));
	});

	it("sends nothing more once Stop is pressed during the wait", async () => {
		const before = calls("/api/status/503");
		const text = ["```http alias=stopped", "# @poll every=30m max=10", `GET ${host.url}/api/status/503`, "", "?? status == 200", "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md, "poll.md"), text);
		await start("stopped");
		await host.page.waitForFunction(([el]) => !!(el as HTMLElement).querySelector(".rb-poll-waiting"), [await wait("stopped").elementHandle()] as const);
		await panelOf("stopped").locator(".rb-run").click();
		await host.until((h) => h.notices.some((n) => n.includes("polling stopped after attempt 1 of 10")));
		// Past two more waits: a timer left behind would have sent by now.
		await host.page.clock.fastForward("30:00");
		await host.page.clock.fastForward("30:00");
		expect(await ended("stopped")).toBe("done");
		expect(calls("/api/status/503")).toBe(before + 1);
		await expect(panelOf("stopped").locator(".rb-poll-stopped").count()).resolves.toBe(1);
	});

	it("refuses a POST without unsafe before sending it, and says why in the block", async () => {
		const before = calls("/api/json");
		const text = ["```http alias=create", "# @poll every=30m max=5", `POST ${host.url}/api/json`, "", '{"a": 1}', "", "?? status == 200", "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md, "poll.md"), text);
		await panelOf("create").locator(".rb-run").click();
		expect(await ended("create")).toBe("failed");
		await expect(panelOf("create").locator(".rb-error-message").innerText()).resolves.toBe("@poll does not repeat POST without unsafe: each attempt would send it again");
		expect(calls("/api/json")).toBe(before);
	});
});
