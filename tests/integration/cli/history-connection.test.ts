/**
 * `runnable-blocks run` of a note with a ```db connection=history block: the rows the run's own
 * requests wrote (native SQLite and sql.js), what an earlier process wrote, a write refused, and
 * `db schema history`. Needs dist/cli.js (`npm run build`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startTestServer, type TestServer } from "../../support/servers";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
	vault = mkdtempSync(join(tmpdir(), "rb-cli-history-"));
	mkdirSync(join(vault, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
	return runCli(args, { cwd: vault, env });
}

const note = (name: string, text: string) => {
	writeFileSync(join(vault, name), text);
	return join(vault, name);
};

const latencyNote = (base: string) =>
	["```http alias=ping", `GET ${base}/json`, "```", "", "```db connection=history alias=latency", "SELECT alias, status, outcome, transport FROM block_run_history WHERE file_path = 'API.md' ORDER BY id", "```", ""].join("\n");

describe.each([
	["native SQLite", {}],
	["sql.js", { RUNNABLE_BLOCKS_HISTORY_DRIVER: "sqljs" }],
])("runnable-blocks run with a db block over history (%s)", (_name, env: Record<string, string>) => {
	it("reads the runs of this process and of the earlier ones", async () => {
		const file = note("API.md", latencyNote(server.url));
		const first = await cli(["run", file, "--json"], env);
		expect(first.stderr).toBe("");
		expect(first.code).toBe(0);
		const [, latency] = JSON.parse(first.stdout) as RunResultJson[];
		expect(latency.db?.rows).toEqual([{ alias: "ping", status: 200, outcome: "done", transport: "node" }]);

		const second = await cli(["run", file, "--json"], env);
		const [, again] = JSON.parse(second.stdout) as RunResultJson[];
		expect(again.db?.rows).toEqual([
			{ alias: "ping", status: 200, outcome: "done", transport: "node" },
			{ alias: "latency", status: null, outcome: "done", transport: "sqlite" },
			{ alias: "ping", status: 200, outcome: "done", transport: "node" },
		]);
	});
});

it("refuses a write with exit 1 and the reason, and `db schema history` lists the table's columns", async () => {
	const file = note("Wipe.md", "```db connection=history\nDELETE FROM block_run_history\n```\n");
	const wipe = await cli(["run", file]);
	expect(wipe.code).toBe(1);
	expect(wipe.stdout + wipe.stderr).toContain("The history connection is read-only: DELETE statements are refused");

	const schema = await cli(["db", "schema", "history"]);
	expect(schema.stderr).toBe("");
	expect(schema.code).toBe(0);
	expect(schema.stdout.split("\n")[0]).toBe("table block_run_history");
	expect(schema.stdout).toMatch(/^ {2}duration_ms +REAL +not null$/m);
	expect(schema.stdout).toMatch(/^ {2}row_count +INTEGER$/m);
});
