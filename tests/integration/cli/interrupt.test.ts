/**
 * The CLI stopped by a signal mid-note: the blocks that finished keep their history rows (the
 * rows are written once, when the run ends, so the signal must end the run, not the process),
 * and the exit code is the shell's 128 + signal number.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeStorage } from "../../../src/cli/node-storage";
import { HistoryStore } from "../../../src/runner/history-store";
import { CLI, expectBuiltCli } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: http.Server;
let base: string;
/** Resolves when the server receives the request that never gets an answer. */
let hanging: Promise<void>;
let onHanging: () => void;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
	expectBuiltCli();
	server = http.createServer((req, res) => {
		if (req.url === "/hang") {
			held.push(res);
			return onHanging();
		}
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end('{"ok":true}');
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
	for (const res of held) res.destroy();
	return new Promise<void>((r) => server.close(() => r()));
});

let vault: string;
let historyPath: string;
beforeEach(() => {
	hanging = new Promise((r) => (onHanging = r));
	vault = mkdtempSync(join(tmpdir(), "rb-interrupt-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	historyPath = join(dir, "history.sqlite");
	// One block after another: the blocks below the stuck one have not started when the signal comes.
	writeFileSync(join(dir, "user.toml"), "[general]\nparallel = 1\n");
	const block = (alias: string, path: string) => `\`\`\`http alias=${alias}\nGET ${base}${path}\n\`\`\``;
	const blocks = [...["a0", "a1", "a2"].map((a) => block(a, `/${a}`)), block("stuck", "/hang"), ...["b0", "b1"].map((b) => block(b, `/${b}`))];
	writeFileSync(join(vault, "api.md"), blocks.join("\n\n") + "\n");
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

async function historyOf(aliases: string[]): Promise<Array<[string, string]>> {
	const store = await HistoryStore.open(nodeStorage, historyPath);
	const rows = aliases.flatMap((a) => store.list("api.md", a).map((r): [string, string] => [r.alias, r.outcome]));
	await store.close();
	return rows;
}

describe("runnable-blocks run stopped by a signal", () => {
	it.each([
		["SIGINT", 130, "native", {}],
		["SIGTERM", 143, "native", {}],
		["SIGINT", 130, "sql.js", { RUNNABLE_BLOCKS_HISTORY_DRIVER: "sqljs" }],
	] as const)("%s exits %i and keeps the rows of the blocks that ran (%s history)", async (signal, code, _driver, env) => {
		const child = spawn(process.execPath, [CLI, "run", join(vault, "api.md")], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
		const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
		await hanging;
		child.kill(signal);
		expect(await exited).toBe(code);
		expect(await historyOf(["a0", "a1", "a2", "stuck", "b0", "b1"])).toEqual([
			["a0", "done"],
			["a1", "done"],
			["a2", "done"],
			["stuck", "cancelled"],
		]);
		// The blocks after it were not sent, and say so.
		expect(stdout).toMatch(/b1/);
		expect(readdirSync(join(vault, ".obsidian", "plugins", "runnable-blocks")).sort()).toEqual(["history.sqlite", "user.toml"]);
	});
});
