/** `runnable-blocks import` as a user runs it: the built CLI in a child process. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let dir: string;

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { env: { NO_COLOR: "1" } });
}

beforeAll(() => {
	expectBuiltCli();
	dir = mkdtempSync(join(tmpdir(), "rb-import-"));
	writeFileSync(join(dir, "api.http"), "@base = http://127.0.0.1:9\n\n### Ping\nGET {{base}}/ping\n\n###\nPOST {{base}}/x\nContent-Type: text/plain\n\nhello\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("prints the note, and parse reads it back with one block per request", async () => {
	const r = await cli(["import", join(dir, "api.http")]);
	expect(r.code).toBe(0);
	expect(r.stdout).toBe("# api\n\n```http\n@base = http://127.0.0.1:9\n```\n\n## Ping\n\n```http\nGET {{base}}/ping\n```\n\n```http\nPOST {{base}}/x\nContent-Type: text/plain\n\nhello\n```\n");
	writeFileSync(join(dir, "api.md"), r.stdout);
	const parsed = await cli(["parse", join(dir, "api.md"), "--json"]);
	expect(parsed.code).toBe(0);
	expect((JSON.parse(parsed.stdout) as Array<{ method: string | null; url: string }>).map((b) => [b.method, b.url])).toEqual([
		[null, ""],
		["GET", "{{base}}/ping"],
		["POST", "{{base}}/x"],
	]);
});

it("-o writes a new file and never overwrites one", async () => {
	const target = join(dir, "out.md");
	await expect(cli(["import", join(dir, "api.http"), "-o", target])).resolves.toMatchObject({ code: 0, stdout: "" });
	expect(readFileSync(target, "utf8")).toContain("## Ping");
	const again = await cli(["import", join(dir, "api.http"), "-o", target]);
	expect(again.code).toBe(2);
	expect(again.stderr).toBe(`runnable-blocks: ${target} exists: choose a new file\n`);
});

it("a file that cannot be read is one line, exit 2", async () => {
	const r = await cli(["import", join(dir, "missing.http")]);
	expect(r).toEqual({ code: 2, stdout: "", stderr: `runnable-blocks: ${join(dir, "missing.http")}: cannot read it (ENOENT)\n` });
});
