/**
 * The spec of src/cli/main.ts: which command an invocation reaches, its exit code, and that every
 * usage problem is one `runnable-blocks: …` line on stderr. The commands' own behaviour is in
 * tests/unit/cli/commands/; the process entry (`runCli`, real stdio, crash reports) in
 * tests/integration/cli/exit-codes.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { version } from "../../../package.json";
import { main } from "../../../src/cli/main";
import { commandHelp, COMMANDS, USAGE } from "../../../src/cli/usage";
import { cli } from "../../support/cli-output";
import { useTempDir, useTestServer } from "../../support/per-test";

const server = useTestServer();
const dir = useTempDir("rb-main-");

/** A note with one block per URL, at `path` under the test's folder. */
function note(path: string, ...urls: string[]): string {
	const file = join(dir(), path);
	mkdirSync(join(file, ".."), { recursive: true });
	writeFileSync(file, urls.map((u, i) => `\`\`\`http alias=b${i + 1}\nGET ${u}\n\`\`\`\n`).join("\n"));
	return file;
}

describe("version and help", () => {
	it.each([["--version"], ["-V"], ["version"]])("%s prints the version: exit 0", async (arg) => {
		await expect(cli([arg])).resolves.toEqual({ code: 0, out: `runnable-blocks ${version}\n`, err: "" });
	});

	it("prints the usage and exits 2 when no command is given", async () => {
		await expect(cli([])).resolves.toEqual({ code: 2, out: USAGE + "\n", err: "" });
	});

	it.each([["help"], ["--help"], ["-h"]])("%s prints the usage: exit 0", async (arg) => {
		await expect(cli([arg])).resolves.toEqual({ code: 0, out: USAGE + "\n", err: "" });
	});

	it.each(Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>)("help %s and the command's --help print its help: exit 0", async (command) => {
		await expect(cli(["help", command])).resolves.toEqual({ code: 0, out: commandHelp(command) + "\n", err: "" });
		await expect(cli([command, "--help"])).resolves.toEqual({ code: 0, out: commandHelp(command) + "\n", err: "" });
	});

	it("prints a command's help for -h anywhere among its arguments, without running it", async () => {
		const file = note("a.md", `${server().url}/json`);
		await expect(cli(["run", file, "--json", "-h"])).resolves.toEqual({ code: 0, out: commandHelp("run") + "\n", err: "" });
		expect(server().requests).toEqual([]);
	});

	it("refuses help for a command there is not, with the usage", async () => {
		await expect(cli(["help", "nope"])).resolves.toEqual({ code: 2, out: "", err: `runnable-blocks: no command "nope"\n${USAGE}\n` });
	});
});

describe("usage errors: one line on stderr, exit 2, nothing run", () => {
	it("names an unknown command, with the usage", async () => {
		await expect(cli(["frobnicate"])).resolves.toEqual({ code: 2, out: "", err: `runnable-blocks: unknown command "frobnicate"\n${USAGE}\n` });
	});

	it.each([
		[["parse"], "parse takes exactly one note: runnable-blocks parse <note.md> [--json]"],
		[["parse", "a.md", "b.md"], "parse takes exactly one note: runnable-blocks parse <note.md> [--json]"],
		[["export", "a.md", "--alias", "x"], "export takes one note, --alias and --format: runnable-blocks export <note.md> --alias NAME --format FORMAT [--env NAME] (runnable-blocks help export lists the formats)"],
		[["import"], "import takes one file: runnable-blocks import <file.http> [-o note.md] [--config user.toml]"],
		[["diff", "a.md"], "diff takes one note and --alias: runnable-blocks diff <note.md> --alias NAME"],
		[["demo", "now"], "demo takes no arguments"],
		[["run"], `run takes a note, or folders and globs of notes: ${COMMANDS.run.synopsis}`],
		[["run", "a.md", "--pin", "--check-pins"], "--pin and --check-pins exclude each other: pin the responses, or check them against their pins"],
		[["run", "a.md", "b.md", "--alias", "x"], "--alias names blocks of one note: run a suite without it, or one note with it"],
		[["run", "a.md", "b.md", "--json"], "--json prints one note's results: a suite writes --junit FILE and --report FILE instead"],
		[["run", "a.md", "--parallel", "0"], '--parallel takes a whole number of at least 1, not "0"'],
		[["run", "a.md", "--parallel", "2.5"], '--parallel takes a whole number of at least 1, not "2.5"'],
		[["run", "a.md", "--max-requests=-1"], '--max-requests takes a whole number of at least 0, not "-1"'],
	])("%j", async (args, message) => {
		await expect(cli(args)).resolves.toEqual({ code: 2, out: "", err: `runnable-blocks: ${message}\n` });
		expect(server().requests).toEqual([]);
	});

	it("turns an option node:util does not know into the same line", async () => {
		const { code, out, err } = await cli(["parse", "a.md", "--bogus"]);
		expect([code, out]).toEqual([2, ""]);
		expect(err).toMatch(/^runnable-blocks: Unknown option '--bogus'/);
		expect(err.trim().split("\n")).toHaveLength(1);
	});

	it("reports a note it cannot read as a one-note run does", async () => {
		const missing = join(dir(), "missing.md");
		await expect(cli(["run", missing])).resolves.toEqual({ code: 2, out: "", err: `runnable-blocks: ${missing}: cannot read the note (ENOENT)\n` });
	});
});

describe("run: one note, or a suite", () => {
	it("runs one note as one note: its block lines and no suite summary", async () => {
		const { code, out } = await cli(["run", note("a.md", `${server().url}/json?n=1`)]);
		expect(code).toBe(0);
		expect(out).toMatch(/^✓ b1 {2}GET http:\/\/127\.0\.0\.1:\d+\/json\?n=1 {2}→ 200 OK/);
		expect(out).not.toMatch(/^── |passed/m);
	});

	it.each([
		["a folder", (): string[] => [dir()]],
		["a glob", (): string[] => [join(dir(), "*.md")]],
		["one note with a suite option", (): string[] => [join(dir(), "a.md"), "--parallel", "1"]],
	])("runs %s as a suite", async (_, args) => {
		note("a.md", `${server().url}/json?n=1`);
		const { code, out } = await cli(["run", ...args()]);
		expect(code).toBe(0);
		expect(out).toMatch(/^── .*a\.md\n✓ b1 /);
		expect(out).toContain("\n1 note, 1 block: 1 passed, 0 failed");
		expect(server().requests.map((r) => r.url)).toEqual(["/json?n=1"]);
	});

	it("passes --fail-on-status through to the run: exit 1 on a 5xx", async () => {
		const file = note("a.md", `${server().url}/status/500`);
		expect((await cli(["run", file])).code).toBe(0);
		expect((await cli(["run", file, "--fail-on-status"])).code).toBe(1);
	});
});

describe("what is not a usage problem", () => {
	it("rejects with a bug of ours instead of printing it as a usage line (runCli reports it, exit 3)", async () => {
		const bug = new TypeError("stdout is gone");
		let err = "";
		await expect(
			main(
				["--version"],
				() => {
					throw bug;
				},
				(s) => (err += s),
			),
		).rejects.toBe(bug);
		expect(err).toBe("");
	});
});
