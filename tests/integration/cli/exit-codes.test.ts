/**
 * The CLI as users meet it (issue 12, point 6): real `node bin/runnable-blocks.js` processes
 * against the local test server, every exit code, what a terminal and a pipe each get, and no
 * JavaScript stack for anything a user can cause.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { version } from "../../../package.json";
import type { ParsedBlockJson } from "../../../src/cli/commands/parse";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startTestServer, type TestServer } from "../../support/servers";
import { CLI, expectBuiltCli, runCli } from "../../support/cli-process";

const ROOT = resolve(__dirname, "../../..");
const BUNDLE = join(ROOT, "dist", "cli.js");

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;
let reports: string;

interface Ran {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs the CLI in a child process with stdout and stderr piped. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
	return runCli(args, { cwd: vault, env: { NO_COLOR: "", FORCE_COLOR: "", TMPDIR: reports, ...env } });
}

/**
 * Runs the CLI on a real pseudo-terminal (util-linux `script`): what a user at a terminal sees.
 * Asynchronous, as every child here: the test server lives in this process and must keep serving.
 */
function onTerminal(args: string[], env: Record<string, string> = {}): Promise<Ran> {
	const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
	return new Promise((done) => {
		execFile("script", ["-qec", command, "/dev/null"], { cwd: vault, env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
			done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
		});
	});
}

function note(name: string, ...blocks: string[]): string {
	const path = join(vault, name);
	writeFileSync(path, `# ${name}\n\n${blocks.join("\n\n")}\n`);
	return path;
}

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");

/** The notes several tests share, written before any runs. */
function writeNotes(): void {
	note("ok.md", fence("alias=ok", "GET {{base}}/json"));
	note("statuses.md", fence("alias=missing", "GET {{base}}/status/404"), fence("alias=down", "GET {{base}}/status/503"));
	note(
		"failing.md",
		fence("alias=login", "POST http://127.0.0.1:9/login"), // lines 3-5
		fence("alias=me", "GET {{base}}/json?t={{login.response.body.$.token}}"), // 7-9
		fence("alias=orders", "GET {{base}}/json?me={{me.response.status}}"), // 11-13
		fence("", "  G@T {{base}}/json"), // 15-17
		fence("alias=slow timeout=300", "GET {{base}}/slow-headers?delay=3000"), // 19-21
		fence("alias=fine", "GET {{base}}/json?fine=1"), // 23-25
	);
}

const ESC = "\u001b";
/** Text in one ANSI colour or style, as the CLI writes it. */
const sgr = (code: number, text: string) => `${ESC}[${code}m${text}${ESC}[0m`;

/** A stack frame as Node prints them: never shown for what a user did. */
const STACK = /^\s+at .+[:(]/m;

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-exit-"));
	reports = join(vault, "reports");
	mkdirSync(reports);
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "user.toml"),
		[
			"[general]",
			'environment = "local"',
			"timeout = 5000",
			"",
			"[environments.local]",
			`origin = "${server.url}"`,
			'base = "{{origin}}"',
			'api = "{{base}}/json?via={{hop}}"',
			'hop = "api"',
			"",
			"[environments.loop]",
			'base = "{{a}}"',
			'a = "http://{{b}}"',
			'b = "{{base}}"',
			"",
		].join("\n"),
	);
	writeNotes();
});

afterAll(async () => {
	await server.close();
	rmSync(vault, { recursive: true, force: true });
});

describe("exit 0: everything finished", () => {
	it("runs a note", async () => {
		const r = await cli(["run", join(vault, "ok.md")]);
		expect(r).toMatchObject({ code: 0, stderr: "" });
		expect(r.stdout).toMatch(/^✓ ok {2}GET http:\/\/127\.0\.0\.1:\d+\/json {2}→ 200 OK {2}\d+ ms {2}\d+ B\n$/);
	});

	it("a 4xx or 5xx response is a finished run without --fail-on-status", async () => {
		const r = await cli(["run", join(vault, "statuses.md")]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("→ 404 Not Found");
		expect(r.stdout).toContain("→ 503 Service Unavailable");
		expect(r.stdout).toContain("2 blocks: 2 done, 0 cached, 0 cancelled, 0 failed");
	});

	it("prints the version, the usage, and each command's help", async () => {
		expect(await cli(["--version"])).toEqual({ code: 0, stdout: `runnable-blocks ${version}\n`, stderr: "" });
		const help = await cli(["help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain("runnable-blocks --version");
		expect(help.stdout).toMatch(/Exit codes: 0 .*1 .*2 .*3 /);
		for (const args of [["help", "run"], ["run", "--help"], ["run", "note.md", "-h"]]) {
			const r = await cli(args);
			expect(r.code).toBe(0);
			expect(r.stdout).toMatch(/^usage: runnable-blocks run <note\.md \| folder \| glob>/);
			expect(r.stdout).toContain("--fail-on-status");
			expect(r.stdout).toContain("NO_COLOR");
		}
		expect((await cli(["export", "--help"])).stdout).toMatch(/^usage: runnable-blocks export/);
		expect((await cli(["help", "parse"])).stdout).toContain("2 a block has errors");
	});

	it("resolves environment values that hold references, one level per hop", async () => {
		const r = await cli(["run", note("env.md", fence("alias=env", "GET {{api}}&x=1")), "--json"]);
		expect(r.code).toBe(0);
		const [result] = JSON.parse(r.stdout) as RunResultJson[];
		expect(result.state).toBe("done");
		expect(server.requests.at(-1)?.url).toBe("/json?via=api&x=1");
	});

	it("--json rounds timings to 0.1 ms", async () => {
		const r = await cli(["run", join(vault, "ok.md"), "--json", "--no-cache"]);
		const [result] = JSON.parse(r.stdout) as RunResultJson[];
		const numbers = Object.values(result.timing ?? {}).filter((v): v is number => typeof v === "number");
		expect(numbers.length).toBeGreaterThan(0);
		for (const n of numbers) expect(Math.round(n * 10) / 10).toBe(n);
	});

	it("never rewrites the note: a non-canonical fence line stays as written", async () => {
		const path = note("order.md", fence("mode=raw timeout=4000 alias=order", "GET {{base}}/json"));
		const before = readFileSync(path);
		expect((await cli(["run", path])).code).toBe(0);
		expect((await cli(["parse", path])).code).toBe(0);
		expect((await cli(["export", path, "--alias", "order", "--format", "curl"])).code).toBe(0);
		expect(readFileSync(path).equals(before)).toBe(true);
	});
});

describe("exit 1: a block failed", () => {
	it("keeps going past an invalid block, reports each failure once, and runs the rest", async () => {
		const before = server.requests.length;
		const r = await cli(["run", join(vault, "failing.md")]);
		expect(r.code).toBe(1);
		const lines = r.stdout.split("\n");
		expect(lines.filter((l) => l.includes("Failed to connect"))).toHaveLength(1);
		expect(lines.filter((l) => l.includes("skipped: depends on login, which failed")).map((l) => l.split("  ")[0])).toEqual(["✗ me", "✗ orders"]);
		expect(r.stdout).toMatch(/^✗ line 15 {2}G@T \{\{base\}\}\/json {2}\S*failing\.md:16:3: Invalid method "G@T": use one of GET, POST/m);
		expect(r.stdout).toMatch(/^⊘ slow .*Request cancelled \(timeout 300 ms\)$/m);
		expect(r.stdout).toMatch(/^✓ fine .*→ 200 OK/m);
		expect(r.stdout).toContain("6 blocks: 1 done, 0 cached, 1 cancelled, 1 failed, 1 invalid, 2 skipped");
		// Sent: the slow request and the fine one; nothing for the skipped or the invalid block.
		expect(server.requests.slice(before).map((q) => q.url)).toEqual(["/slow-headers?delay=3000", "/json?fine=1"]);
		expect(r.stderr).not.toMatch(STACK);
	});

	it("says the same in --json, with the timeout in the error's detail", async () => {
		const r = await cli(["run", join(vault, "failing.md"), "--json"]);
		expect(r.code).toBe(1);
		const results = JSON.parse(r.stdout) as RunResultJson[];
		expect(results.map((x) => [x.alias, x.state, x.error?.code])).toEqual([
			["login", "failed", "connect_failed"],
			["me", "failed", "dependency_failed"],
			["orders", "failed", "dependency_failed"],
			[null, "failed", "invalid_block"],
			["slow", "cancelled", "timeout"],
			["fine", "done", undefined],
		]);
		expect(results[4].error).toEqual({ code: "timeout", message: "Request cancelled", detail: "timeout 300 ms" });
	});

	it("--fail-on-status turns a 4xx or 5xx response into exit 1", async () => {
		const r = await cli(["run", join(vault, "statuses.md"), "--fail-on-status"]);
		expect(r.code).toBe(1);
		expect((await cli(["run", join(vault, "ok.md"), "--fail-on-status"])).code).toBe(0);
	});

	it("an environment whose values refer to each other in a cycle is an error naming the chain", async () => {
		const r = await cli(["run", join(vault, "ok.md"), "--env", "loop", "--json"]);
		expect(r.code).toBe(1);
		const [result] = JSON.parse(r.stdout) as RunResultJson[];
		expect(result.error?.code).toBe("unresolved_reference");
		expect(result.error?.message).toContain("cycle: base → a → b → base");
	});

	it("a built-in out of range is an error naming it, never a crash or a garbage value", async () => {
		const before = server.requests.length;
		const path = note("builtins.md", fence("alias=when", "GET {{base}}/json?at={{$datetime iso8601 99999999 d}}"), fence("alias=ts", "GET {{base}}/json?ts={{$timestamp 99999999 d}}"));
		const r = await cli(["run", path]);
		expect(r.code).toBe(1);
		expect(r.stdout).toContain("Invalid built-in {{$datetime iso8601 99999999 d}}: the offset 99999999 d goes past the years 0001-9999");
		expect(r.stdout).toContain("Invalid built-in {{$timestamp 99999999 d}}");
		expect(r.stdout + r.stderr).not.toMatch(/RangeError|Invalid Date|NaN|internal error/);
		expect(server.requests.length).toBe(before);
	});
});

describe("exit 2: usage, parse and export errors, one line, no stack", () => {
	it.each([
		[["run"], /^runnable-blocks: run takes a note, or folders and globs of notes/],
		[["run", "needs.md", "--bogus"], /^runnable-blocks: Unknown option '--bogus'/],
		[["help", "frobnicate"], /^runnable-blocks: no command "frobnicate"/],
		[["export", "needs.md", "--alias", "me", "--format", "curl"], /^running login first for the values me references\nrunnable-blocks: cannot export me: Unresolved reference/],
		[["export", "needs.md", "--alias", "nobody", "--format", "curl"], /^runnable-blocks: no http, sse or websocket block with alias "nobody"/],
		[["export", "needs.md", "--alias", "me", "--format", "wget"], /^runnable-blocks: --format must be one of curl/],
		[["export", "invalid.md", "--alias", "bad", "--format", "curl"], /^runnable-blocks: cannot export bad: invalid\.md:4:1: Invalid method "G@T"/],
		[["export", "missing.md", "--alias", "x", "--format", "curl"], /^runnable-blocks: missing\.md: cannot read the note \(ENOENT\)/],
		[["parse", "invalid.md"], /^$/],
	])("%j", async (args, message) => {
		note("invalid.md", fence("alias=bad", "G@T {{base}}/json"));
		note("needs.md", fence("alias=login", "POST http://127.0.0.1:9/login"), fence("alias=me", "GET {{base}}/json?t={{login.response.body.$.token}}"));
		const r = await cli(args);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(message);
		expect(r.stderr).not.toMatch(STACK);
		expect(r.stderr).not.toContain("runnable-blocks: internal error");
	});

	it("parse --json reports `# @name` as the alias, source name", async () => {
		const path = note("named.md", ["```http", "# @name login", "POST {{base}}/auth", "```"].join("\n"), fence("alias=me", "GET {{base}}/me"));
		const r = await cli(["parse", path, "--json"]);
		expect(r.code).toBe(0);
		expect((JSON.parse(r.stdout) as ParsedBlockJson[]).map((b) => [b.alias, b.aliasSource])).toEqual([
			["login", "name"],
			["me", "info"],
		]);
	});
});

describe("exit 3: our own bug", () => {
	// spawnSync is fine here: this child talks to no server of ours.
	it("prints one line with the path of a written report, which holds the stack", () => {
		// A bug stand-in: JSON.stringify throws inside `parse --json`, which no user input can cause.
		const script = `JSON.stringify = () => { throw new TypeError("boom"); }; process.argv = [process.argv[0], "cli", "parse", ${JSON.stringify(join(vault, "ok.md"))}, "--json"]; require(${JSON.stringify(BUNDLE)}).runCli();`;
		const r = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, TMPDIR: reports }, encoding: "utf8" });
		expect(r.status).toBe(3);
		const m = /^runnable-blocks: internal error: boom \(report: (.+)\)\n$/.exec(r.stderr);
		expect(m).not.toBeNull();
		const report = readFileSync((m as RegExpExecArray)[1], "utf8");
		expect(report).toContain(`runnable-blocks ${version} internal error`);
		expect(report).toMatch(/TypeError: boom\n\s+at /);
		expect(readdirSync(reports).length).toBeGreaterThan(0);
	});

	it("says the same for a throw outside the command's promise (a timer or socket callback)", () => {
		const script = `setTimeout(() => { throw new Error("late boom"); }, 10); process.argv = [process.argv[0], "cli", "parse", ${JSON.stringify(join(vault, "ok.md"))}]; require(${JSON.stringify(BUNDLE)}).runCli();`;
		const r = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, TMPDIR: reports }, encoding: "utf8" });
		expect(r.status).toBe(3);
		expect(r.stderr).toMatch(/^runnable-blocks: internal error: late boom \(report: .+\)\n$/);
		expect(r.stderr).not.toMatch(STACK);
	});
});

describe("terminal and pipe", () => {
	const json = () => note("preview.md", fence("alias=items", "GET {{base}}/json"), fence("alias=missing", "GET {{base}}/status/404"));

	it("a pipe gets plain lines: no colour, no preview", async () => {
		const r = await cli(["run", json()]);
		expect(r.stdout).not.toContain(ESC);
		expect(r.stdout).not.toContain("│");
	});

	it("a terminal gets status, time, size, a pretty JSON preview and colour", async () => {
		const r = await onTerminal(["run", json()]);
		expect(r.code).toBe(0);
		const text = r.stdout.replace(/\r/g, "").replace(/\d+ (ms|B)\b/g, "N $1");
		expect(text).toContain(`${sgr(32, "→ 200 OK")}  ${sgr(2, "N ms")}  ${sgr(2, "N B")}`);
		expect(text).toContain(sgr(33, "→ 404 Not Found"));
		expect(text).toContain(`  ${sgr(2, "│")}   "ok": true,\n`);
		expect(text).toContain(`  ${sgr(2, "│")}     {\n`);
	});

	it("NO_COLOR keeps the preview and drops the colour", async () => {
		const r = await onTerminal(["run", json()], { NO_COLOR: "1" });
		const text = r.stdout.replace(/\r/g, "");
		for (const code of [1, 2, 31, 32, 33, 36]) expect(text).not.toContain(`${ESC}[${code}m`);
		expect(text).toContain('  │   "ok": true,');
		expect(text).toContain("→ 200 OK");
	});
});

describe("memory", () => {
	it("a 100 MB body without --json is kept as bytes, not decoded: peak RSS well under body × 2 + the idle CLI", async () => {
		// The child reports its own peak RSS (KiB) as it exits; --require runs this before the CLI.
		const hook = join(vault, "rss-hook.js");
		const out = join(vault, "rss.txt");
		writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));`);
		const path = note("huge.md", fence("alias=huge timeout=60000", "GET {{base}}/huge?bytes=100000000"));
		const r = await cli(["run", path], { NODE_OPTIONS: `--require ${hook}` });
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("→ 200 OK");
		const peakMiB = Number(readFileSync(out, "utf8")) / 1024;
		// Measured: ~180 MiB (about 50 of them the idle CLI); decoding the body as well took ~275 MiB.
		expect(peakMiB).toBeGreaterThan(95);
		expect(peakMiB).toBeLessThan(240);
	});
});

describe("the demo server", () => {
	it("is loaded only by the demo command: the bundle evaluates it inside runDemo alone", () => {
		const bundle = readFileSync(BUNDLE, "utf8");
		const calls = [...bundle.matchAll(/require_server\(\)/g)].map((m) => m.index);
		expect(calls).toHaveLength(1);
		const demo = bundle.indexOf("async function runDemo(");
		expect(demo).toBeGreaterThan(-1);
		const end = bundle.indexOf("\n}\n", demo);
		expect(calls[0]).toBeGreaterThan(demo);
		expect(calls[0]).toBeLessThan(end);
	});
});
