import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseNote } from "../../../../src/blocks";
import { blockPassed, interruptible, runCommand, targetsOf, type RunOptions } from "../../../../src/cli/commands/run";
import type { RunResultJson } from "../../../../src/cli/result-json";
import { PLAIN } from "../../../../src/cli/terminal";
import { UsageError } from "../../../../src/cli/usage";
import type { Transport } from "../../../../src/runner/transport";
import { captured } from "../../../support/cli-output";
import { useTempDir, useTestServer } from "../../../support/per-test";

const server = useTestServer();
// No .obsidian above a temporary folder: no vault, no user.toml, no history written.
const dir = useTempDir("rb-run-");

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");

function note(...blocks: string[]): string {
	const path = join(dir(), "note.md");
	writeFileSync(path, `# Note\n\n${blocks.join("\n\n")}\n`);
	return path;
}

async function run(file: string, opts: Partial<RunOptions> = {}) {
	const { text, out, err } = captured();
	const outcome = await runCommand({ file, aliases: [], json: false, noCache: true, failOnStatus: false, terminal: PLAIN, ...opts }, out, err);
	return { ...outcome, ...text };
}

const states = (r: { runs: Array<{ block: { alias: string | null }; result: { state: string } }> }) => r.runs.map((x) => [x.block.alias, x.result.state]);

describe("targetsOf", () => {
	const blocks = parseNote(["```http alias=a", "GET http://127.0.0.1/a", "```", "```js", "1", "```", "```http alias=b", "GET http://127.0.0.1/b", "```", "```http", "GET http://127.0.0.1/c", "```"].join("\n"));

	it("takes every runnable block top-down when no alias is named", () => {
		expect(targetsOf(blocks, []).map((b) => b.alias)).toEqual(["a", "b", null]);
	});

	it("takes the named aliases in the order given", () => {
		expect(targetsOf(blocks, ["b", "a"]).map((b) => b.alias)).toEqual(["b", "a"]);
	});

	it("refuses an unknown alias with a usage error that lists the aliases there are", () => {
		expect(() => targetsOf(blocks, ["a", "nope"])).toThrow(new UsageError('no runnable block with alias "nope" (aliases: a, b)'));
		expect(() => targetsOf(parseNote(fence("", "GET http://127.0.0.1/x")), ["x"])).toThrow(new UsageError('no runnable block with alias "x"'));
	});
});

describe("runCommand", () => {
	it("runs every block of the note and prints a line each and a summary: exit 0", async () => {
		const r = await run(note(fence("alias=one", `GET ${server().url}/json?n=1`), fence("alias=two", `GET ${server().url}/status/404`)));
		expect(r.code).toBe(0);
		expect(states(r)).toEqual([
			["one", "done"],
			["two", "done"],
		]);
		expect(server().requests.map((q) => q.url)).toEqual(["/json?n=1", "/status/404"]);
		expect(r.out).toMatch(/^✓ one {2}GET http:\/\/127\.0\.0\.1:\d+\/json\?n=1 {2}→ 200 OK/);
		expect(r.out).toContain("→ 404 Not Found");
		expect(r.out).toContain("2 blocks: 2 done, 0 cached, 0 cancelled, 0 failed");
		expect(r.err).toBe("");
	});

	it("leaves the summary to the caller when asked (a suite prints one for all its notes)", async () => {
		const r = await run(note(fence("", `GET ${server().url}/json?n=1`), fence("", `GET ${server().url}/json?n=2`)), { summary: false });
		expect(r.code).toBe(0);
		expect(r.out).not.toContain("2 blocks:");
	});

	it("exits 1 for a 4xx/5xx response only with --fail-on-status", async () => {
		const file = note(fence("", `GET ${server().url}/status/503`));
		expect((await run(file)).code).toBe(0);
		expect((await run(file, { failOnStatus: true })).code).toBe(1);
	});

	it("exits 1 when a block fails, and still runs the blocks after it", async () => {
		const r = await run(note(fence("alias=bad", "GET http://127.0.0.1:9/down"), fence("alias=good", `GET ${server().url}/json`)));
		expect(r.code).toBe(1);
		expect(states(r)).toEqual([
			["bad", "failed"],
			["good", "done"],
		]);
	});

	it("exits 1 when an assertion fails though the request finished", async () => {
		const r = await run(note(fence("", `GET ${server().url}/json`, "?? status == 201")));
		expect(states(r)).toEqual([[null, "done"]]);
		expect(r.code).toBe(1);
	});

	it("prints the results as JSON with --json, and no per-block lines", async () => {
		const r = await run(note(fence("alias=one", `GET ${server().url}/json`)), { json: true });
		expect(r.code).toBe(0);
		const results = JSON.parse(r.out) as RunResultJson[];
		expect(results.map((x) => [x.alias, x.state, x.status])).toEqual([["one", "done", 200]]);
	});

	it("runs only the named aliases", async () => {
		const r = await run(note(fence("alias=one", `GET ${server().url}/json?n=1`), fence("alias=two", `GET ${server().url}/json?n=2`)), { aliases: ["two"] });
		expect(server().requests.map((q) => q.url)).toEqual(["/json?n=2"]);
		expect(states(r)).toEqual([["two", "done"]]);
	});

	it("says so on stderr when the note has no block to run", async () => {
		const file = note("```js\n1\n```");
		const r = await run(file);
		expect(r.err).toBe(`runnable-blocks: ${file} has no block to run (http or db)\n`);
		expect([r.code, r.runs]).toEqual([0, []]);
	});

	it("refuses a note it cannot read with a usage error", async () => {
		const file = join(dir(), "missing.md");
		await expect(run(file)).rejects.toThrow(new UsageError(`${file}: cannot read the note (ENOENT)`));
	});

	it("layers the overrides over the environment (the demo's base_url)", async () => {
		const r = await run(note(fence("", "GET {{base_url}}/json?via=override")), { overrides: { base_url: server().url } });
		expect(r.code).toBe(0);
		expect(server().requests.map((q) => q.url)).toEqual(["/json?via=override"]);
	});

	it("cancels a block after the time cancelAfter gives it: exit 1, the next block still runs", async () => {
		const r = await run(note(fence("alias=held", `GET ${server().url}/held?id=never`), fence("alias=after", `GET ${server().url}/json`)), { cancelAfter: (b) => (b.alias === "held" ? 20 : undefined) });
		expect(states(r)).toEqual([
			["held", "cancelled"],
			["after", "done"],
		]);
		expect(r.code).toBe(1);
	});

	it("sends nothing once stopped from outside, and keeps the run's own exit code", async () => {
		const r = await run(note(fence("", `GET ${server().url}/json`)), { stop: AbortSignal.abort() });
		expect(server().requests).toEqual([]);
		expect(r.code).toBe(1);
		expect(states(r)).toEqual([[null, "failed"]]);
	});

	it("sends through the guarded transport and tells each block's end", async () => {
		const sent: string[] = [];
		const ended: Array<string | null> = [];
		const guard = (t: Transport): Transport => ({ ...t, send: (req, o) => (sent.push(req.url), t.send(req, o)) });
		await run(note(fence("alias=one", `GET ${server().url}/json?n=1`), fence("alias=two", `GET ${server().url}/json?n=2`)), { guardTransport: guard, onBlockDone: (b) => ended.push(b.alias) });
		expect(sent).toEqual([`${server().url}/json?n=1`, `${server().url}/json?n=2`]);
		expect(ended).toEqual(["one", "two"]);
	});

	it("writes a JUnit report where asked", async () => {
		const junit = join(dir(), "junit.xml");
		await run(note(fence("alias=one", `GET ${server().url}/json`)), { junit });
		expect(readFileSync(junit, "utf8")).toMatch(/<testcase name="one runs" classname="[^"]*note\.md"/);
	});

	it("says why a JUnit report could not be written, and keeps the run's results and exit code", async () => {
		const junit = join(dir(), "no-such-folder", "junit.xml");
		const r = await run(note(fence("alias=one", `GET ${server().url}/json`)), { junit });
		// Jest's realm makes Node's own errors fail `instanceof Error`, so the text here may start with "Error: ".
		expect(r.err.replace(": Error: ", ": ")).toBe(`runnable-blocks: could not write the JUnit report ${junit}: ENOENT: no such file or directory, open '${junit}'\n`);
		expect([r.code, states(r)]).toEqual([0, [["one", "done"]]]);
	});
});

describe("blockPassed", () => {
	it.each([
		["done", true],
		["cached", true],
		["failed", false],
		["cancelled", false],
	] as const)("a run that ended %s passes: %s", (state, passed) => {
		expect(blockPassed({ state }, true)).toBe(passed);
	});
});

describe("interruptible", () => {
	it("aborts on the first signal and exits as the shell does, 128 + the signal's number", () => {
		const before = process.listenerCount("SIGTERM");
		const run = interruptible(["SIGTERM"]);
		expect(process.listenerCount("SIGTERM")).toBe(before + 1);
		expect([run.signal.aborted, run.code()]).toEqual([false, null]);
		process.emit("SIGTERM", "SIGTERM");
		expect([run.signal.aborted, run.code()]).toEqual([true, 143]);
		run.dispose();
		expect(process.listenerCount("SIGTERM")).toBe(before);
	});

	it("aborts on an outside stop without a signal's exit code", () => {
		const stop = new AbortController();
		const run = interruptible([], stop.signal);
		stop.abort();
		expect([run.signal.aborted, run.code()]).toEqual([true, null]);
		run.dispose();
		expect(interruptible([], AbortSignal.abort()).signal.aborted).toBe(true);
	});
});
