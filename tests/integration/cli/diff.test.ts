/**
 * `runnable-blocks diff` as a user runs it: the built CLI in a child process, exit codes as
 * `diff` has them (0 equal, 1 different, 2 trouble) and no JavaScript stack.
 */
import { join, resolve } from "node:path";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

const ROOT = resolve(__dirname, "../../..");
const NOTE = join(ROOT, "tests", "fixtures", "notes", "diff-sample.md");

jest.setTimeout(60_000);

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
	return runCli(args, { env: { NO_COLOR: "", FORCE_COLOR: "", ...env } });
}

beforeAll(() => {
	expectBuiltCli();
});

describe("runnable-blocks diff (built CLI)", () => {
	it("exits 1 and prints the unified diff when the panes differ", async () => {
		const r = await cli(["diff", NOTE, "--alias", "config"]);
		expect(r).toEqual({ code: 1, stdout: expect.stringContaining("@@ -1,3 +1,4 @@\n") as unknown, stderr: "" });
		expect(r.stdout.split("\n").filter((l) => /^[-+][^-+]/.test(l))).toEqual(["-port = 80", "+port = 8080", "+tls = true"]);
	});

	it("exits 0 and prints nothing when they are equal", async () => {
		await expect(cli(["diff", NOTE, "--alias", "same"])).resolves.toEqual({ code: 0, stdout: "", stderr: "" });
	});

	it("exits 2 with one line, no stack, for a usage error or a block that is not a diff", async () => {
		for (const args of [["diff", NOTE], ["diff", NOTE, "--alias", "api"], ["diff", NOTE, "--alias", "broken"], ["diff", NOTE, "--alias", "config", "--bogus"]]) {
			const r = await cli(args);
			expect(r.code).toBe(2);
			expect(r.stdout).toBe("");
			expect(r.stderr.trim().split("\n")).toHaveLength(1);
			expect(r.stderr).toMatch(/^runnable-blocks: /);
		}
	});

	it("colours the lines when colour is forced, and never when NO_COLOR is set", async () => {
		const forced = await cli(["diff", NOTE, "--alias", "config"], { FORCE_COLOR: "1" });
		expect(forced.stdout).toContain("\u001b[32m+tls = true\u001b[0m");
		expect(forced.stderr).toBe("2 changes, +2 \u22121 lines\n");
		const plain = await cli(["diff", NOTE, "--alias", "config"], { FORCE_COLOR: "1", NO_COLOR: "1" });
		expect(plain.stdout).not.toContain("\u001b[");
	});
});
