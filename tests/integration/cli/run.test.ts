import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startBookshopApi, type BookshopApi } from "../../../examples/bookshop-api/server.cjs";
import type { RunResultJson } from "../../../src/cli/result-json";
import { HistoryStore } from "../../../src/runner/history-store";
import { nodeStorage } from "../../../src/cli/node-storage";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

const run = promisify(execFile);

jest.setTimeout(60_000);

let api: BookshopApi;
let vault: string;

beforeAll(async () => {
	expectBuiltCli();
	api = await startBookshopApi();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-vault-"));
	cpSync(resolve(__dirname, "../../../examples/vault"), vault, { recursive: true, filter: (src) => !src.includes("history.sqlite") && !src.endsWith("main.js") });
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "user.toml"),
		`# test settings\n[general]\nenvironment = "demo"\ntimeout = 5000\n\n[environments.demo]\nbase_url = "${api.url}"\nusername = "demo"\npassword = { secret = "demo-password" }\n\n[environments.other]\nbase_url = "http://127.0.0.1:9"\nusername = "x"\n`,
	);
});

afterAll(async () => {
	await api.close();
	rmSync(vault, { recursive: true, force: true });
});

/** Runs the CLI; an `env` entry set to undefined is left out of the child's environment. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
	return runCli(args, { env: { RUNNABLE_BLOCKS_SECRET_DEMO_PASSWORD: "demo", ...env } });
}

describe("runnable-blocks run", () => {
	it("runs every block of a note with chaining and prints the documented JSON", async () => {
		const { code, stdout } = await cli(["run", join(vault, "2 Bookshop API.md"), "--json"]);
		expect(code).toBe(0);
		const results = JSON.parse(stdout) as RunResultJson[];
		expect(results.map((r) => [r.alias, r.state, r.status])).toEqual([
			["login", "done", 200],
			["me", "done", 200],
			["books", "done", 200],
			["created", "done", 201],
			["fetched", "done", 200],
			["renamed", "done", 200],
			["removed", "done", 204],
			["catalogue", "done", 200],
			["cover", "done", 200],
			["about", "done", 200],
		]);
		const created = results[3];
		expect(JSON.parse(created.body ?? "")).toMatchObject({ title: "A Wizard of Earthsea" });
		expect(created.headers.find(([n]) => n === "Location")?.[1]).toMatch(/^\/books\/\d+$/);
		expect(results[8].bodyBase64).toBeDefined();
		expect(Buffer.from(results[8].bodyBase64 ?? "", "base64").subarray(1, 4).toString()).toBe("PNG");
		expect(results[0].timing?.total).toBeGreaterThan(0);
		expect(results[0].line).toBe(5);
	});

	it("runs one alias with its dependencies, and writes history into the vault", async () => {
		const { code, stdout } = await cli(["run", join(vault, "2 Bookshop API.md"), "--alias", "me", "--json"]);
		expect(code).toBe(0);
		expect((JSON.parse(stdout) as RunResultJson[]).map((r) => [r.alias, r.dependency])).toEqual([
			["login", true],
			["me", false],
		]);
		const history = await HistoryStore.open(nodeStorage, join(vault, ".obsidian", "plugins", "runnable-blocks", "history.sqlite"));
		const rows = history.list("2 Bookshop API.md", "me");
		expect(rows.length).toBeGreaterThan(0);
		expect(rows[0]).toMatchObject({ method: "GET", status: 200, outcome: "done" });
		await history.close();
	});

	it("exits 1 when a block fails or is cancelled, with readable lines", async () => {
		const { code, stdout } = await cli(["run", join(vault, "3 Timeouts and failures.md"), "--alias", "slow", "--alias", "nowhere"]);
		expect(code).toBe(1);
		expect(stdout).toContain("Request cancelled");
		expect(stdout).toContain("Failed to connect");
		expect(stdout).toMatch(/2 blocks: 0 done, 0 cached, 1 cancelled, 1 failed/);
	});

	it("switches environment with --env", async () => {
		const { code, stdout } = await cli(["run", join(vault, "1 Getting started.md"), "--alias", "search", "--env", "other", "--json"]);
		expect(code).toBe(1);
		expect((JSON.parse(stdout) as RunResultJson[])[0].error).toMatchObject({ code: "connect_failed", message: "Failed to connect" });
	});

	it("puts --var values over the environment's, a secret's among them: set for the run and masked in history", async () => {
		const other = await cli(["run", join(vault, "1 Getting started.md"), "--alias", "search", "--env", "other", "--var", `base_url=${api.url}`, "--json"]);
		expect(other.code).toBe(0);
		expect((JSON.parse(other.stdout) as RunResultJson[])[0].status).toBe(200);
		writeFileSync(join(vault, "Var secret.md"), "```http alias=asked\nGET {{base_url}}/search?q={{password}}\n```\n");
		const secret = await cli(["run", join(vault, "Var secret.md"), "--var", "password=dune"], { RUNNABLE_BLOCKS_SECRET_DEMO_PASSWORD: undefined });
		expect(secret.code).toBe(0);
		expect(secret.stderr).not.toContain("is not set");
		const history = await HistoryStore.open(nodeStorage, join(vault, ".obsidian", "plugins", "runnable-blocks", "history.sqlite"));
		const [row] = history.list("Var secret.md", "asked");
		await history.close();
		expect(row).toMatchObject({ status: 200, outcome: "done" });
		expect(row.url).not.toContain("dune");
		expect(decodeURIComponent(row.url)).toMatch(/q=•••$/);
		// A suite (--bail makes one note a suite) hands the values to each note it runs.
		const suite = await cli(["run", join(vault, "Var secret.md"), "--bail", "--var", "password=dune"], { RUNNABLE_BLOCKS_SECRET_DEMO_PASSWORD: undefined });
		expect(suite.code).toBe(0);
		expect(suite.stderr).not.toContain("is not set");
	});

	it("answers a # @prompt with --var, and without a terminal fails the block naming the --var that would", async () => {
		writeFileSync(join(vault, "Prompted.md"), "```http alias=asked\n# @prompt q What to search\nGET {{base_url}}/search?q={{q}}\n```\n");
		const answered = await cli(["run", join(vault, "Prompted.md"), "--var", "q=dune", "--json"]);
		expect(answered.code).toBe(0);
		expect((JSON.parse(answered.stdout) as RunResultJson[])[0]).toMatchObject({ state: "done", status: 200 });
		const unanswered = await cli(["run", join(vault, "Prompted.md"), "--json"]);
		expect(unanswered.code).toBe(1);
		expect((JSON.parse(unanswered.stdout) as RunResultJson[])[0]).toMatchObject({ state: "failed", error: { code: "prompt_not_answered", message: "{{q}} is asked by # @prompt, and there is no terminal to ask on: give it with --var q=VALUE" } });
	});

	it("sends a block that asks to be confirmed (# @note) with --yes, and without a terminal fails it naming --yes", async () => {
		writeFileSync(join(vault, "Noted.md"), "```http alias=careful\n# @note Are you sure?\nGET {{base_url}}/search?q=x\n```\n");
		const refused = await cli(["run", join(vault, "Noted.md"), "--json"]);
		expect(refused.code).toBe(1);
		expect((JSON.parse(refused.stdout) as RunResultJson[])[0]).toMatchObject({ state: "failed", error: { code: "prompt_not_answered", message: "careful asks to be confirmed (# @note: Are you sure?), and there is no terminal to ask on: pass --yes to send it" } });
		const sent = await cli(["run", join(vault, "Noted.md"), "--yes", "--json"]);
		expect(sent.code).toBe(0);
		expect((JSON.parse(sent.stdout) as RunResultJson[])[0]).toMatchObject({ state: "done", status: 200 });
	});

	it("reads {{$dotenv NAME}} from the .env beside the note, for run and export", async () => {
		mkdirSync(join(vault, "dotenv"), { recursive: true });
		writeFileSync(join(vault, "dotenv", ".env"), "# kept out of the notes\nQUERY=dune\n");
		writeFileSync(join(vault, "dotenv", "Search.md"), "```http alias=found\nGET {{base_url}}/search?q={{$dotenv QUERY}}\n```\n");
		const ran = await cli(["run", join(vault, "dotenv", "Search.md"), "--json"]);
		expect(ran.code).toBe(0);
		expect((JSON.parse(ran.stdout) as RunResultJson[])[0]).toMatchObject({ state: "done", status: 200 });
		const exported = await cli(["export", join(vault, "dotenv", "Search.md"), "--alias", "found", "--format", "http"]);
		expect(exported.stdout).toBe(`### found\n# @name found\nGET ${api.url}/search?q=dune\n`);
	});

	it.each([
		[["run"], /run takes a note, or folders and globs of notes/],
		[["run", "missing.md"], /cannot read the note/],
		[["run", "NOTE", "--alias", "ghost"], /no runnable block with alias "ghost"/],
		[["run", "NOTE", "--env", "mars"], /no environment "mars" \(defined: demo, other\)/],
		[["run", "NOTE", "--var", "base_url"], /--var takes NAME=VALUE, not "base_url"/],
	])("exits 2 for %j", async (args, message) => {
		const { code, stderr } = await cli(args.map((a) => (a === "NOTE" ? join(vault, "2 Bookshop API.md") : a)));
		expect(code).toBe(2);
		expect(stderr).toMatch(message);
	});

	// Issue 12 changed this: an invalid block no longer refuses the note (was exit 2, nothing run);
	// it is reported with file:line:column, the other blocks run, and the exit code is 1.
	it("reports an invalid block with file:line:column, runs the others, and exits 1", async () => {
		const note = join(vault, "broken.md");
		writeFileSync(note, "```http alias=x timeout=soon\nGET {{base_url}}/me\n```\n\n```http alias=y\nGET {{base_url}}/search?q=dune\n```\n");
		const { code, stdout } = await cli(["run", note]);
		expect(stdout).toMatch(/broken\.md:1:17: timeout "soon" is invalid/);
		expect(stdout).toMatch(/^✓ y {2}GET .*\/search\?q=dune {2}→ 200 OK/m);
		expect(code).toBe(1);
	});

	it("says so when a note has no block to run, and exits 0", async () => {
		const note = join(vault, "prose.md");
		writeFileSync(note, "# Notes\n\nNothing to run here.\n\n```js\nconsole.log(1)\n```\n");
		const human = await cli(["run", note]);
		expect(human).toMatchObject({ code: 0, stdout: "" });
		expect(human.stderr).toBe(`runnable-blocks: ${note} has no block to run (http or db)\n`);
		const json = await cli(["run", note, "--json"]);
		expect(json.code).toBe(0);
		expect(JSON.parse(json.stdout)).toEqual([]);
		expect(json.stderr).toMatch(/has no block to run/);
	});

	it("warns about an unset secret only when a block of the run reads it: itself, through a variable, or through a block it needs", async () => {
		const unset = { RUNNABLE_BLOCKS_SECRET_DEMO_PASSWORD: undefined };
		const warning = 'secret "demo-password" is not set: export RUNNABLE_BLOCKS_SECRET_DEMO_PASSWORD to use it\n';
		const unrelated = await cli(["run", join(vault, "1 Getting started.md"), "--alias", "search"], unset);
		expect(unrelated.code).toBe(0);
		expect(unrelated.stderr).toBe("");
		// me reads login's token, and login reads {{password}}.
		const dependency = await cli(["run", join(vault, "2 Bookshop API.md"), "--alias", "me"], unset);
		expect(dependency.stderr).toContain(warning);
		const note = join(vault, "secret-variable.md");
		writeFileSync(note, "```http\n@pw = {{password}}\n```\n\n```http alias=uses\nGET {{base_url}}/search?q={{pw}}\n```\n\n```http alias=other\nGET {{base_url}}/search?q=x\n```\n");
		const through = await cli(["run", note, "--alias", "uses"], unset);
		expect(through.stderr).toBe(warning);
		const not = await cli(["run", note, "--alias", "other"], unset);
		expect(not.stderr).toBe("");
	});

	it("exits 2 with file:line:column when user.toml does not parse, and leaves it alone", async () => {
		const config = join(vault, "bad.toml");
		writeFileSync(config, "[general\n");
		const { code, stderr } = await cli(["run", join(vault, "1 Getting started.md"), "--config", config]);
		expect(code).toBe(2);
		expect(stderr).toMatch(/bad\.toml:1:\d+: /);
	});
});

describe("runnable-blocks export", () => {
	it("runs the aliases a block needs, says so on stderr, and prints a snippet that works", async () => {
		const { code, stdout, stderr } = await cli(["export", join(vault, "2 Bookshop API.md"), "--alias", "me", "--format", "curl"]);
		expect(code).toBe(0);
		expect(stderr).toContain("running login first");
		expect(stdout).toMatch(/^curl http:\/\/127\.0\.0\.1:\d+\/me -H 'Authorization: Bearer [0-9a-f]{32}' --location\n$/);
		const { stdout: body } = await run("/bin/sh", ["-c", stdout.trim()]);
		expect(JSON.parse(body)).toEqual({ username: "demo", roles: ["reader", "editor"] });
	});

	it("names a < file body by its absolute path (beside the note, else from the vault root) and refuses <@", async () => {
		mkdirSync(join(vault, "files"), { recursive: true });
		writeFileSync(join(vault, "files", "beside.json"), "{}");
		writeFileSync(join(vault, "root.json"), "{}");
		writeFileSync(join(vault, "files", "upload.md"), "```http alias=up\nPOST http://127.0.0.1:1/x\n\n< beside.json\n```\n```http alias=top\nPOST http://127.0.0.1:1/x\n\n< root.json\n```\n```http alias=inner\nPOST http://127.0.0.1:1/x\n\n<@ beside.json\n```\n");
		const up = await cli(["export", join(vault, "files", "upload.md"), "--alias", "up", "--format", "curl"]);
		expect(up.stdout).toContain(`--data-binary @${join(vault, "files", "beside.json")}`);
		const top = await cli(["export", join(vault, "files", "upload.md"), "--alias", "top", "--format", "python"]);
		expect(top.stdout).toContain(`Path(${JSON.stringify(join(vault, "root.json"))}).read_bytes()`);
		const inner = await cli(["export", join(vault, "files", "upload.md"), "--alias", "inner", "--format", "curl"]);
		expect(inner.code).toBe(2);
		expect(inner.stderr).toBe('runnable-blocks: cannot export inner: "<@ beside.json" resolves references inside the file, which a snippet cannot do: copy as .http, or run the block\n');
	});

	it("prints a .http file and refuses unknown formats", async () => {
		const http = await cli(["export", join(vault, "1 Getting started.md"), "--alias", "search", "--format", "http"]);
		expect(http.stdout).toBe(`### search\n# @name search\nGET ${api.url}/search?q=dune&page=1\n`);
		const overridden = await cli(["export", join(vault, "1 Getting started.md"), "--alias", "search", "--format", "http", "--var", "base_url=http://127.0.0.1:1234"]);
		expect(overridden.stdout).toBe("### search\n# @name search\nGET http://127.0.0.1:1234/search?q=dune&page=1\n");
		const bad = await cli(["export", join(vault, "1 Getting started.md"), "--alias", "search", "--format", "wget"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/--format must be one of curl, fetch, python, httpie, http/);
	});
});

describe("runnable-blocks demo", () => {
	it("starts the bundled API, runs the example vault and prints a summary, exit 0", async () => {
		const { code, stdout } = await cli(["demo"]);
		expect(stdout).toMatch(/Runnable Blocks demo — bookshop API on http:\/\/127\.0\.0\.1:\d+/);
		expect(stdout).toContain("▶ 2 Bookshop API.md");
		expect(stdout).toContain("[cancelled]");
		expect(stdout).toContain("Request cancelled");
		expect(stdout).toMatch(/Demo: \d+ blocks run, \d+ finished, 3 ended as expected .*, 0 unexpected\./);
		expect(code).toBe(0);
	});
});
