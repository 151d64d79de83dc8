import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { suiteCommand, type SuiteOptions } from "../../../../src/cli/commands/suite";
import { main } from "../../../../src/cli/main";
import { readReportData } from "../../../../src/cli/report/html-report";
import { PLAIN } from "../../../../src/cli/terminal";
import { refusedPort, startTestServer, type TestServer } from "../../../support/servers";

let server: TestServer;
let dir: string;

beforeAll(async () => {
	server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-suite-"));
	server.requests.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function note(path: string, ...urls: string[]): void {
	mkdirSync(dirname(join(dir, path)), { recursive: true });
	writeFileSync(join(dir, path), urls.map((u, i) => `\`\`\`http alias=b${i + 1}\nGET ${u}\n\`\`\`\n`).join("\n"));
}

/** Waits for a condition the test cannot be told about directly (a request reaching the server). */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

const seen = (path: string) => server.requests.some((r) => r.url.startsWith(path));

async function suite(opts: Partial<SuiteOptions>): Promise<{ code: number; out: string; err: string }> {
	let out = "";
	let err = "";
	const code = await suiteCommand({ paths: ["."], noCache: true, failOnStatus: false, terminal: PLAIN, parallel: 1, bail: false, cwd: dir, ...opts }, (s) => (out += s), (s) => (err += s));
	return { code, out, err };
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
	let out = "";
	let err = "";
	const code = await main(args, (s) => (out += s), (s) => (err += s));
	return { code, out, err };
}

describe("run <folder>: a suite", () => {
	it("runs notes at once and prints each note's output together, in path order", async () => {
		note("a.md", `${server.url}/held?id=a`);
		note("b.md", `${server.url}/json?note=b`);
		const run = suite({ parallel: 2 });
		// b is sent and answered while a is still waiting for its answer: they ran at once.
		await until(() => seen("/held") && seen("/json?note=b"));
		server.release("a");
		const { code, out } = await run;
		expect(code).toBe(0);
		expect(out.indexOf("── a.md")).toBeLessThan(out.indexOf("/held"));
		expect(out.indexOf("/held")).toBeLessThan(out.indexOf("── b.md"));
		expect(out).toContain("2 notes, 2 blocks: 2 passed, 0 failed, 0 cancelled, 0 skipped, 0 invalid\n");
	});

	it("with --bail, stops at the first failure: later notes are not run, exit 1", async () => {
		note("a.md", `http://127.0.0.1:${await refusedPort()}/down`);
		note("b.md", `${server.url}/json`);
		const junit = join(dir, "junit.xml");
		const { code, out } = await suite({ bail: true, junit });
		expect(code).toBe(1);
		expect(server.requests).toHaveLength(0);
		expect(out).toContain("1 not run");
		expect(readFileSync(junit, "utf8")).toContain('<skipped message="not run: --bail stopped the run at the first failure"/>');
	});

	it("with --max-requests, sends no more than that in the whole run and exits 4", async () => {
		note("a.md", `${server.url}/json?a=1`, `${server.url}/json?a=2`);
		note("b.md", `${server.url}/json?b=1`);
		const { code, out, err } = await suite({ maxRequests: 1 });
		expect(server.requests.map((r) => r.url)).toEqual(["/json?a=1"]);
		expect(out).toContain("not sent: the run's limit of 1 requests (--max-requests) was reached");
		expect(err).toContain("stopped early (--max-requests reached)");
		expect(code).toBe(4);
	});

	it("at the --deadline, cancels what runs and starts nothing more, exit 4", async () => {
		note("a.md", `${server.url}/held?id=deadline`);
		note("b.md", `${server.url}/json`);
		let fire!: () => void;
		const report = join(dir, "r.html");
		const run = suite({ deadlineMs: 60_000, report, setTimer: (f) => ((fire = f), { clear: () => undefined }) });
		await until(() => seen("/held"));
		fire();
		const { code } = await run;
		expect(code).toBe(4);
		expect(seen("/json")).toBe(false);
		const data = readReportData(readFileSync(report, "utf8"));
		expect(data?.parts[0].stopped).toBe("deadline");
		expect(data?.parts[0].notes.map((n) => [n.path, n.status, n.blocks.map((b) => b.status)])).toEqual([
			["a.md", "failed", ["cancelled"]],
			["b.md", "not-run", ["not-run"]],
		]);
		server.release("deadline");
	});

	it("writes durations on its own clock, keeping the entries of --durations it did not measure", async () => {
		note("a.md", `${server.url}/json`);
		const durations = join(dir, "d.json");
		writeFileSync(durations, JSON.stringify({ version: 1, durations: { "a.md": 1, "gone.md": 7 } }));
		let t = 1000;
		await suite({ durations, durationsOut: durations, now: () => (t += 50) });
		expect(JSON.parse(readFileSync(durations, "utf8"))).toEqual({ version: 1, durations: { "a.md": 50, "gone.md": 7 } });
	});

	it("runs the other notes when one cannot run at all (its vault's settings do not parse), then exits 2", async () => {
		note("a.md", `${server.url}/json?a`);
		note("broken/b.md", `${server.url}/json?b`);
		mkdirSync(join(dir, "broken/.obsidian/plugins/runnable-blocks"), { recursive: true });
		writeFileSync(join(dir, "broken/.obsidian/plugins/runnable-blocks/user.toml"), "[general\n");
		note("c.md", `${server.url}/json?c`);
		const { code, err } = await suite({});
		expect(code).toBe(2);
		expect(server.requests.map((r) => r.url)).toEqual(["/json?a", "/json?c"]);
		expect(err).toContain("user.toml");
	});
});

describe("a suite's exit code: the first that applies", () => {
	it("is 2 for a note that could not run over 4 for a limit over 1 for a failure", async () => {
		note("a.md", `http://127.0.0.1:${await refusedPort()}/down`);
		note("c.md", `${server.url}/json?c=1`, `${server.url}/json?c=2`);
		expect((await suite({})).code).toBe(1);
		expect((await suite({ maxRequests: 2 })).code).toBe(4);
		note("broken/b.md", `${server.url}/json?b`);
		mkdirSync(join(dir, "broken/.obsidian/plugins/runnable-blocks"), { recursive: true });
		writeFileSync(join(dir, "broken/.obsidian/plugins/runnable-blocks/user.toml"), "[general\n");
		expect((await suite({ maxRequests: 2 })).code).toBe(2);
	});
});

describe("run's arguments for a suite", () => {
	const cwd = process.cwd();
	afterEach(() => process.chdir(cwd));

	it("runs only this shard's notes", async () => {
		for (const n of ["a", "b", "c"]) note(`${n}.md`, `${server.url}/json?${n}`);
		process.chdir(dir);
		const { code } = await cli("run", ".", "--shard", "2/2", "--junit", "j.xml");
		expect(code).toBe(0);
		expect(server.requests.map((r) => r.url)).toEqual(["/json?b"]);
		expect(readFileSync(join(dir, "j.xml"), "utf8")).toContain('<testsuite name="b.md"');
	});

	it.each([
		[["--parallel", "0"], '--parallel takes a whole number of at least 1, not "0"'],
		[["--shard", "3/2"], "--shard takes i/n with 1 ≤ i ≤ n (like --shard 2/4), not \"3/2\""],
		[["--deadline", "soon"], '--deadline takes a duration like 90s, 5m, 1h30m or 500ms, not "soon"'],
		[["--max-requests", "many"], '--max-requests takes a whole number of at least 0, not "many"'],
		[["--json"], "--json prints one note's results: a suite writes --junit FILE and --report FILE instead"],
		[["--alias", "x"], "--alias names blocks of one note: run a suite without it, or one note with it"],
	])("refuses %j with exit 2: %s", async (args, message) => {
		note("a.md", `${server.url}/json`);
		const { code, err } = await cli("run", relative(cwd, dir) || ".", ...args);
		expect(err).toBe(`runnable-blocks: ${message}\n`);
		expect(code).toBe(2);
		expect(server.requests).toHaveLength(0);
	});

	it("runs one note given a suite option as a suite of one", async () => {
		note("a.md", `${server.url}/json`);
		const junit = join(dir, "one.xml");
		const { code, out } = await cli("run", join(dir, "a.md"), "--bail", "--junit", junit);
		expect(code).toBe(0);
		expect(out).toContain("1 note, 1 block: 1 passed");
		expect(existsSync(junit)).toBe(true);
	});
});
