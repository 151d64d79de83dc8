/**
 * Several writers on one vault's history: CLI processes running at the same time (native SQLite
 * and the sql.js fallback mixed), and a writer killed while holding the lock.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeStorage } from "../../../src/cli/node-storage";
import { HistoryStore } from "../../../src/runner/history-store";
import { CLI, expectBuiltCli } from "../../support/cli-process";

const run = promisify(execFile);
const RUNS = 20;

// 20 process starts in a row per writer: on a loaded 2-core machine each can take seconds.
jest.setTimeout(300_000);

let server: http.Server;
let base: string;
/** One test's vault. Tests take it once at their start, so a loop still running after its test
 * timed out writes into its own (removed) vault and never into the next test's. */
interface Vault {
	dir: string;
	history: string;
}
let current: Vault;

beforeAll(async () => {
	expectBuiltCli();
	server = http.createServer((_req, res) => {
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end('{"ok":true}');
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
	const vault = mkdtempSync(join(tmpdir(), "rb-concurrent-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	current = { dir: vault, history: join(dir, "history.sqlite") };
	// One block per run, so retention (10 per block) keeps every row.
	const blocks = ["a", "b"].flatMap((w) => Array.from({ length: RUNS }, (_, i) => `\`\`\`http alias=${w}${i}\nGET ${base}/${w}/${i}\n\`\`\``));
	writeFileSync(join(vault, "api.md"), blocks.join("\n\n") + "\n");
});
afterEach(() => rmSync(current.dir, { recursive: true, force: true }));

async function cli(vault: Vault, alias: string, env: Record<string, string> = {}): Promise<void> {
	await run(process.execPath, [CLI, "run", join(vault.dir, "api.md"), "--alias", alias], { env: { ...process.env, ...env }, timeout: 60_000 });
}

async function rows(vault: Vault): Promise<string[]> {
	const store = await HistoryStore.open(nodeStorage, vault.history);
	const aliases = ["a", "b"].flatMap((w) => Array.from({ length: RUNS }, (_, i) => `${w}${i}`));
	const found = aliases.flatMap((a) => store.list("api.md", a).map((r) => r.alias));
	await store.close();
	return found;
}

describe("history under concurrent writers", () => {
	it(`two CLI processes × ${RUNS} runs on one vault keep all ${2 * RUNS} rows (native and sql.js writers mixed)`, async () => {
		const vault = current;
		const loop = async (w: string, env: Record<string, string>) => {
			for (let i = 0; i < RUNS; i++) await cli(vault, `${w}${i}`, env);
		};
		await Promise.all([loop("a", {}), loop("b", { RUNNABLE_BLOCKS_HISTORY_DRIVER: "sqljs" })]);
		const found = await rows(vault);
		expect(found).toHaveLength(2 * RUNS);
		expect(new Set(found).size).toBe(2 * RUNS);
		// No lock and no temp file left behind.
		expect(readdirSync(join(vault.dir, ".obsidian", "plugins", "runnable-blocks")).sort()).toEqual(["history.sqlite"]);
	});

	it("two sql.js writers at once: no ENOENT on a shared temp file, no row lost", async () => {
		const vault = current;
		const loop = async (w: string) => {
			for (let i = 0; i < 8; i++) await cli(vault, `${w}${i}`, { RUNNABLE_BLOCKS_HISTORY_DRIVER: "sqljs" });
		};
		await Promise.all([loop("a"), loop("b")]);
		expect(await rows(vault)).toHaveLength(16);
	});

	it.each([["native", {}], ["sql.js", { RUNNABLE_BLOCKS_HISTORY_DRIVER: "sqljs" }]])("recovers the lock of a killed writer (%s)", async (_name, env) => {
		const vault = current;
		// A real process that held the lock and was killed.
		const victim = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
		await new Promise((r) => victim.once("spawn", r));
		const pid = victim.pid ?? 0;
		// Taken an hour from now: no wait makes it stale, so only its owner being gone can free it (a
		// writer that waited for a live lock would give up after its 10 s and write no row).
		writeFileSync(`${vault.history}.lock`, JSON.stringify({ pid, host: hostname(), time: Date.now() + 3_600_000 }));
		victim.kill("SIGKILL");
		await new Promise((r) => victim.once("exit", r));

		await cli(vault, "a0", env);
		expect(await rows(vault)).toEqual(["a0"]);
		expect(existsSync(`${vault.history}.lock`)).toBe(false);
	});
});
