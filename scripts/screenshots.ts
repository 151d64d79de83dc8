/**
 * The README screenshots (docs/images/*.png), made the same way every time: the production
 * main.js in the Chromium test host on a fixed port, Playwright's fake clock paused at a fixed
 * date, and each response released after a fixed amount of fake time, so the URL, the time
 * chip and every pixel repeat. Usage: npm run screenshots (builds first); `-- vcs` (or `blocks`)
 * makes only the version-control panel's (or only the blocks') images.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

/** Git as a fixed person at a fixed time, with no user or system config: the same hashes every run. */
function gitAt(cwd: string, minutes: number, ...args: string[]): string {
	const date = new Date(CLOCK.getTime() - minutes * 60_000).toISOString();
	const env = { ...process.env, GIT_AUTHOR_NAME: "Ada Writer", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada Writer", GIT_COMMITTER_EMAIL: "ada@example.com", GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
	return execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function write(root: string, path: string, text: string): void {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
}

/**
 * A demo vault repository: a few commits pushed to a bare remote, one more not yet pushed, and a
 * change of every kind (staged, edited, untracked), so the panel shows all its parts.
 */
function demoRepository(vault: string, remote: string): void {
	gitAt(remote, 0, "init", "--quiet", "--bare", "--initial-branch=main");
	gitAt(vault, 0, "init", "--quiet", "--initial-branch=main");
	write(vault, ".gitignore", ".obsidian/\n");
	write(vault, "Projects/Bookshop API.md", "# Bookshop API\n");
	write(vault, "Daily/2026-01-14.md", "- call the printer\n");
	gitAt(vault, 300, "add", "--all");
	gitAt(vault, 300, "commit", "--quiet", "-m", "Vault update 2026-01-15 04:30: Bookshop API, 2026-01-14");
	write(vault, "Reading list.md", "- Dune\n");
	gitAt(vault, 200, "add", "--all");
	gitAt(vault, 200, "commit", "--quiet", "-m", "Reading list");
	gitAt(vault, 200, "remote", "add", "origin", remote);
	gitAt(vault, 200, "push", "--quiet", "-u", "origin", "main");
	write(vault, "Projects/Bookshop API.md", "# Bookshop API\n\nGET /api/book\n");
	gitAt(vault, 60, "commit", "--quiet", "-am", "Bookshop API: the book endpoint");
	write(vault, "Meetings/Kick-off.md", "# Kick-off\n");
	gitAt(vault, 10, "add", "Meetings/Kick-off.md");
	write(vault, "Reading list.md", "- Dune\n- Solaris\n");
	write(vault, "Daily/2026-01-14.md", "- call the printer ✓\n");
	write(vault, "Daily/2026-01-15.md", "- release notes\n");
	write(vault, "Ideas/Offline sync.md", "Queue writes while offline.\n");
}

/** docs/images/vcs-panel-{light,dark}.png: the version-control panel over the demo repository. */
async function vcsScreenshots(): Promise<void> {
	const remote = mkdtempSync(join(tmpdir(), "rb-screenshot-remote-"));
	const host = await launchHost({ port: PORT + 1, clock: CLOCK, desktopBridge: true });
	try {
		const { page } = host;
		demoRepository(host.vaultDir, remote);
		await host.api((h, dir) => h.useDesktopBridge(dir), host.vaultDir);
		await host.api((h) => h.loadPlugin());
		await page.clock.pauseAt(new Date(CLOCK.getTime() + 60_000));
		await host.api((h) => h.runCommand("open-version-control"));
		await until("the panel's changes", async () => (await page.locator(".rb-vcs-file").count()) === 5 && (await page.locator(".rb-vcs-commit-row").count()) === 3);
		// The placeholder and the list's frame wait on (fake) timers.
		await page.clock.runFor(1000);
		await page.locator(".rb-vcs-message").blur();
		// The width of Obsidian's right sidebar, and the padding its views get.
		await page.addStyleTag({ content: "#sidebar { width: 380px; } .rb-vcs { padding: 8px 12px; }" });
		for (const theme of ["light", "dark"] as const) {
			await host.api((h, t) => h.setTheme(t), theme);
			await page.clock.runFor(100);
			const path = join(OUT, `vcs-panel-${theme}.png`);
			await page.locator(".rb-vcs").first().screenshot({ path, animations: "disabled", caret: "hide" });
			console.log(`wrote ${path}`);
		}
	} finally {
		await host.close();
		rmSync(remote, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	// Chromium and git read the zone from here: the commit box's date is the same on every machine.
	process.env.TZ = "UTC";
	mkdirSync(OUT, { recursive: true });
	const only = process.argv[2];
	if (only !== "blocks") await vcsScreenshots();
	if (only === "vcs") return;
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
