import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startConcurrencyServer } from "../../support/concurrency-server";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let vault: string;

beforeAll(() => {
	expectBuiltCli();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-parallel-"));
	mkdirSync(join(vault, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
});
afterAll(() => rmSync(vault, { recursive: true, force: true }));

/** A vault whose user.toml says `parallel`, and a note of independent GETs against `base`. */
function note(base: string, parallel: number, aliases: string[]): string {
	writeFileSync(join(vault, ".obsidian", "plugins", "runnable-blocks", "user.toml"), `[general]\nparallel = ${parallel}\n`);
	const file = join(vault, `parallel-${parallel}.md`);
	// The block timeout only bounds a run that never gathers: nothing waits for it to pass.
	writeFileSync(file, aliases.map((a) => `\`\`\`http alias=${a} timeout=20000\nGET ${base}/${a}\n\`\`\``).join("\n\n"));
	return file;
}

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { env: { NO_COLOR: "1" }, timeoutMs: 45_000 });
}

describe("runnable-blocks run with [general] parallel", () => {
	it("has the 4 independent blocks of a note in flight at once against a 50 ms server, and prints them in the note's order", async () => {
		const server = await startConcurrencyServer({ gather: 4, latencyMs: 50 });
		try {
			const { code, stdout } = await cli(["run", note(server.url, 4, ["a", "b", "c", "d"])]);
			expect(code).toBe(0);
			expect(server.maxInFlight()).toBe(4);
			expect(stdout.split("\n").filter((l) => l.startsWith("✓")).map((l) => l.split("  ")[0])).toEqual(["✓ a", "✓ b", "✓ c", "✓ d"]);
			expect(stdout).toContain("4 blocks: 4 done");
		} finally {
			await server.close();
		}
	});

	it("keeps the note's order in --json, and runs one block at a time with parallel = 1", async () => {
		const server = await startConcurrencyServer({ latencyMs: 50 });
		try {
			const { code, stdout } = await cli(["run", note(server.url, 1, ["a", "b", "c", "d"]), "--json"]);
			expect(code).toBe(0);
			expect((JSON.parse(stdout) as RunResultJson[]).map((r) => [r.alias, r.state])).toEqual(["a", "b", "c", "d"].map((a) => [a, "done"]));
			expect(server.maxInFlight()).toBe(1);
			expect(server.arrived).toEqual(["/a", "/b", "/c", "/d"]);
		} finally {
			await server.close();
		}
	});
});
