import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

/**
 * scripts/release.mjs on the built tree (`npm test` builds first; --no-build so this test never
 * rewrites main.js under the other suites): versions agree, sizes within budget, the three files
 * copied and nothing else, dist/cli.js untouched; over a budget it copies nothing and exits 1.
 */
const root = resolve(__dirname, "../../..");
const script = join(root, "scripts/release.mjs");
const run = promisify(execFile);
jest.setTimeout(120_000);

let out: string;
beforeAll(() => {
	if (!existsSync(join(root, "main.js"))) throw new Error("main.js is missing: run `npm run build` first");
	out = mkdtempSync(join(tmpdir(), "rb-release-"));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

it("copies main.js, manifest.json and styles.css and prints their sizes", async () => {
	const cli = join(root, "dist/cli.js");
	const cliBefore = existsSync(cli) ? statSync(cli).mtimeMs : null;
	const dest = join(out, "ok");
	const { stdout } = await run(process.execPath, [script, "--no-build", "--out", dest], { cwd: root });
	expect(readdirSync(dest).sort()).toEqual(["main.js", "manifest.json", "styles.css"]);
	for (const f of ["main.js", "manifest.json", "styles.css"]) {
		expect(readFileSync(join(dest, f)).equals(readFileSync(join(root, f)))).toBe(true);
		expect(stdout).toMatch(new RegExp(`${f.replace(".", "\\.")}\\s+[\\d.]+ KiB\\s+budget`));
	}
	const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as { version: string };
	expect(stdout).toContain(`Runnable Blocks ${manifest.version}`);
	expect(existsSync(cli) ? statSync(cli).mtimeMs : null).toBe(cliBefore);
});

it("fails and copies nothing when a file is over its budget", async () => {
	const dest = join(out, "over");
	const err = await run(process.execPath, [script, "--no-build", "--out", dest, "--no-api-check", "--budget", "styles.css=10"], { cwd: root }).then(
		() => null,
		(e: { code: number; stderr: string }) => e,
	);
	expect(err?.code).toBe(1);
	expect(err?.stderr).toMatch(/styles\.css is [\d.]+ KiB, over its budget of 0\.0 KiB/);
	expect(existsSync(dest)).toBe(false);
});
