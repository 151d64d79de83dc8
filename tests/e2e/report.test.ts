/**
 * The suite's HTML report in real Chromium (issue 30): written by the built CLI over a small
 * vault (two shards, then merge-reports), opened from disk with the network cut off. It renders
 * its summary and a waterfall with a visible bar for every block, and response text that looks
 * like markup stays text.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { CLI } from "../support/cli-process";

const HOSTILE = '<img src="/evil/img" onerror="window.__pwned = 1"></td><script>window.__pwned = 2</script>';

jest.setTimeout(90_000);

let dir: string;
let server: Server;
let browser: Browser;

function cli(args: string[]): Promise<number> {
	return new Promise((done) => {
		execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "" }, timeout: 60_000 }, (error) => done(error ? (typeof error.code === "number" ? error.code : -1) : 0));
	});
}

beforeAll(async () => {
	server = createServer((req, res) => {
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end(JSON.stringify({ name: HOSTILE, path: req.url }));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-report-"));
	mkdirSync(join(dir, "notes"));
	for (let n = 0; n < 4; n++) {
		const blocks = Array.from({ length: 5 }, (_, b) => `\`\`\`http alias=b${b}\nGET ${base}/n${n}/b${b}\n${n === 3 && b === 4 ? '?? body $.name == "expected"' : "?? status == 200"}\n\`\`\``);
		writeFileSync(join(dir, "notes", `n${n}.md`), blocks.join("\n\n") + "\n");
	}
	for (const i of [1, 2]) await cli(["run", "notes", "--shard", `${i}/2`, "--report", `shard-${i}/report.html`]);
	expect(await cli(["merge-reports", "--report", "report.html", "shard-1/report.html", "shard-2/report.html"])).toBe(0);
	browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
});

afterAll(async () => {
	await browser?.close();
	await new Promise((r) => server.close(r));
	rmSync(dir, { recursive: true, force: true });
});

describe("the HTML report in Chromium", () => {
	it("renders offline: a summary, a waterfall bar for every block, the failed assertion, and markup from responses as text", async () => {
		const context = await browser.newContext({ offline: true });
		const requested: string[] = [];
		await context.route("**/*", (route) => {
			requested.push(route.request().url());
			return route.request().url().startsWith("file:") ? route.continue() : route.abort();
		});
		const page = await context.newPage();
		const errors: string[] = [];
		page.on("pageerror", (e) => errors.push(e.message));
		const url = pathToFileURL(join(dir, "report.html")).href;
		await page.goto(url);
		await page.waitForSelector(".waterfall .bar");

		expect(errors).toEqual([]);
		expect(requested.filter((u) => u !== url)).toEqual([]);
		await expect(page.textContent("#summary")).resolves.toContain("4 notes, 20 blocks");
		expect(await page.locator('#summary [data-status="passed"]').textContent()).toBe("19 passed");
		expect(await page.locator('#summary [data-status="failed"]').textContent()).toBe("1 failed");

		// One waterfall per shard, every block a bar the eye can see.
		expect(await page.locator(".waterfall").count()).toBe(2);
		const bars = page.locator(".waterfall .bar");
		expect(await bars.count()).toBe(20);
		const boxes = await bars.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ w: r.width, h: r.height })));
		expect(boxes.every((b) => b.w >= 1 && b.h >= 1)).toBe(true);
		expect(await page.locator('.waterfall .bar[data-block="notes/n3.md#b4"]').getAttribute("class")).toBe("bar failed");

		// The failing note is open with its assertion; the hostile text is shown, not run.
		const failed = page.locator('details.note[data-status="failed"]');
		expect(await failed.getAttribute("open")).not.toBeNull();
		await expect(failed.locator("li.failed").textContent()).resolves.toContain(`body $.name == "expected"`);
		await expect(failed.locator("li.failed").textContent()).resolves.toContain(HOSTILE);
		expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
		expect(await page.locator("#report img, #report script").count()).toBe(0);

		// "Only notes with failures" hides the notes that passed.
		await page.check("label.filter input");
		expect(await page.locator("details.note:visible").count()).toBe(1);
		await context.close();
	});
});
