/**
 * `?? ` assertions through the real CLI (issue 14, point 2): ✓/✗ lines, exit 1 on a failed one,
 * `assertions` in `--json`, and a `--junit` report read back by junit2json, a maintained JUnit
 * reader (ESM-only, so it runs in a node child of its own). File variables and origin-form URLs
 * with a Host header run too, as a note pasted from a `.http` file writes them.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startTestServer, type TestServer } from "../../support/servers";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

const ROOT = resolve(__dirname, "../../..");

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { cwd: vault, env: { NO_COLOR: "1" } });
}

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-assert-"));
	mkdirSync(join(vault, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
	const host = new URL(server.url).host;
	writeFileSync(
		join(vault, "api.md"),
		[
			"# API",
			"",
			"```http",
			`@host = ${server.url}`,
			"@item = 2",
			"```",
			"",
			"```http alias=list",
			"GET /json?item={{item}}",
			"?? status == 200",
			"?? header content-type includes json",
			"?? body $.items.length > 1",
			"?? body $.items[0].name == one",
			"?? duration < 60000",
			"```",
			"",
			"```http alias=wrong",
			"GET /json HTTP/1.1",
			`Host: ${host}`,
			"",
			"?? status == 404",
			"?? body $.nothing exists",
			"?? status === 200",
			"```",
			"",
		].join("\n"),
	);
});

afterAll(async () => {
	await server.close();
	rmSync(vault, { recursive: true, force: true });
});

it("prints ✓ and ✗ per assertion and exits 1 when one fails", async () => {
	const r = await cli(["run", "api.md"]);
	expect(r.code).toBe(1);
	expect(r.stdout).toContain("  ✓ status == 200\n");
	expect(r.stdout).toContain("  ✓ body $.items.length > 1\n");
	expect(r.stdout).toMatch(/ {2}✗ status == 404 {2}api\.md:21: expected == 404, got 200\n/);
	expect(r.stdout).toMatch(/ {2}✗ status === 200 {2}api\.md:23: unknown operator "==="/);
	expect(r.stderr).not.toMatch(/^\s+at /m);
	// The file variables and the Host header made the URLs: both requests reached the server.
	expect(server.requests.map((q) => q.url)).toEqual(expect.arrayContaining(["/json?item=2", "/json"]));
});

it("exits 0 when every assertion passes, and lists them in --json", async () => {
	const r = await cli(["run", "api.md", "--alias", "list", "--json"]);
	expect(r.code).toBe(0);
	const [list] = JSON.parse(r.stdout) as RunResultJson[];
	expect(list.assertions?.[4].actual).toMatch(/^\d+$/);
	expect(list.assertions?.map((a) => (a.text.startsWith("duration") ? { ...a, actual: "ms" } : a))).toEqual([
		{ line: 10, text: "status == 200", ok: true, actual: "200" },
		{ line: 11, text: "header content-type includes json", ok: true, actual: "application/json" },
		{ line: 12, text: "body $.items.length > 1", ok: true, actual: "2" },
		{ line: 13, text: "body $.items[0].name == one", ok: true, actual: "one" },
		{ line: 14, text: "duration < 60000", ok: true, actual: "ms" },
	]);
});

it("writes a JUnit report that a JUnit reader parses, one test case per assertion", async () => {
	const file = join(vault, "report.xml");
	const r = await cli(["run", "api.md", "--junit", file]);
	expect(r.code).toBe(1);
	const script = `import("junit2json").then(async ({ parse }) => process.stdout.write(JSON.stringify(await parse(require("fs").readFileSync(${JSON.stringify(file)}, "utf8")))))`;
	const parsed = await new Promise<string>((done, fail) => execFile(process.execPath, ["-e", script], { cwd: ROOT }, (e, out, errOut) => (e ? fail(new Error(errOut)) : done(out))));
	const report = JSON.parse(parsed) as { tests: number; failures: number; testsuite: Array<{ name: string; tests: number; failures: number; testcase: Array<{ name: string; failure?: Array<{ message: string }> }> }> };
	expect(report).toMatchObject({ tests: 8, failures: 3, errors: 0 });
	expect(report.testsuite.map((s) => [s.name, s.tests, s.failures])).toEqual([
		["api.md list", 5, 0],
		["api.md wrong", 3, 3],
	]);
	const wrong = report.testsuite[1].testcase;
	expect(wrong[0]).toMatchObject({ name: "line 21: status == 404", failure: [{ message: "expected == 404, got 200" }] });
	expect(readFileSync(file, "utf8")).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
});
