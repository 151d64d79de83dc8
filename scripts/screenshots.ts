/**
 * The README screenshots (docs/images/*.png), made the same way every time: the production
 * main.js in the Chromium test host on a fixed port, Playwright's fake clock paused at a fixed
 * date, and each response released after a fixed amount of fake time, so the URL, the time
 * chip and every pixel repeat. Usage: npm run screenshots (builds first).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launchHost, type Host } from "../tests/e2e/support/host";

const PORT = 47613;
const CLOCK = new Date("2026-01-15T09:30:00Z");
/** What the time chip shows: fake milliseconds between the request and its answer. */
const RESPONSE_MS = 84;
const OUT = join(process.cwd(), "docs", "images");


const note = (base: string) => ["```http alias=book", `GET ${base}/api/book`, "Accept: application/json", "```"].join("\n");

/** A textdiff block as the README shows it: a JSON response before and after, one key changed, one added. */
const DIFF = [
	"```textdiff alias=book-v2 language=json",
	"{",
	'  "id": 42,',
	'  "title": "Dune",',
	'  "price": 9.99,',
	'  "tags": ["sf", "classic"]',
	"}",
	"=== right ===",
	"{",
	'  "id": 42,',
	'  "title": "Dune",',
	'  "price": 12.5,',
	'  "tags": ["sf", "classic"],',
	'  "isbn": "978-0441013593"',
	"}",
	"```",
].join("\n");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
	for (let i = 0; i < 400; i++) {
		if (await check()) return;
		await sleep(25);
	}
	throw new Error(`timed out waiting for ${what}`);
}

/** Runs the first block: the answer is held until exactly RESPONSE_MS of fake time have passed. */
async function runHeld(host: Host): Promise<void> {
	const { page } = host;
	const panel = page.locator(".rb-panel").first();
	host.holdAnswers();
	const asked = host.hits.length;
	await panel.locator(".rb-run").click();
	await until("the request", async () => host.hits.slice(asked).includes("/api/book"));
	await page.clock.runFor(RESPONSE_MS);
	host.releaseAnswers();
	await until("the response", async () => (await panel.getAttribute("data-state")) === "done");
	// Lets the body view's frames and timers run (fake time: nothing here depends on real time).
	await page.clock.runFor(1000);
}

async function main(): Promise<void> {
	mkdirSync(OUT, { recursive: true });
	const host = await launchHost({ port: PORT, clock: CLOCK });
	try {
		const { page } = host;
		await host.api((h) => h.loadPlugin());
		await page.clock.pauseAt(new Date(CLOCK.getTime() + 60_000));
		await host.api((h, md) => h.renderReading(md), note(host.url));
		await runHeld(host);
		for (const theme of ["light", "dark"] as const) {
			await host.api((h, t) => h.setTheme(t), theme);
			const path = join(OUT, `panel-${theme}.png`);
			await page.locator(".rb-block").first().screenshot({ path, animations: "disabled", caret: "hide" });
			console.log(`wrote ${path}`);
		}
		await host.api((h, md) => h.renderReading(md), DIFF);
		await page.clock.runFor(1000);
		for (const theme of ["light", "dark"] as const) {
			await host.api((h, t) => h.setTheme(t), theme);
			await page.clock.runFor(100);
			const path = join(OUT, `diff-${theme}.png`);
			await page.locator(".rb-textdiff").first().screenshot({ path, animations: "disabled", caret: "hide" });
			console.log(`wrote ${path}`);
		}
	} finally {
		await host.close();
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
