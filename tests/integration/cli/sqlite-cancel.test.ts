/**
 * A runaway SQLite statement in the CLI (issue 23, point 5): the real `runnable-blocks run` on
 * real files, with a recursive CTE that never ends. The timeout, and Ctrl+C, end it at once
 * (sql.js runs in a worker thread the CLI terminates); the database file is left byte for byte
 * as it was, unless a statement before the runaway one committed a change, which is kept.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { nodeStorage } from "../../../src/cli/node-storage";
import type { RunResultJson } from "../../../src/cli/result-json";
import { HistoryStore } from "../../../src/runner/history-store";
import { CLI, expectBuiltCli } from "../../support/cli-process";

/** How long a run may take before the test gives up on it: a bound for a busy machine, not a measure. */
const DEADLINE_MS = 30_000;
const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;";

jest.setTimeout(90_000);

let vault: string;
let dbPath: string;
let historyPath: string;

beforeAll(() => {
	expectBuiltCli();
});

beforeEach(async () => {
	vault = mkdtempSync(join(tmpdir(), "rb-sqlite-cancel-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	mkdirSync(join(vault, "data"));
	historyPath = join(dir, "history.sqlite");
	dbPath = join(vault, "data", "shop.sqlite");
	const SQL = await initSqlJs();
	const db = new SQL.Database();
	db.exec("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL); INSERT INTO books (title) VALUES ('Dune'), ('Emma');");
	writeFileSync(dbPath, db.export());
	db.close();
	// One block after another (parallel = 1): the block after the runaway one has not started when the signal comes.
	writeFileSync(join(dir, "user.toml"), '[general]\nparallel = 1\n\n[connections.shop]\ntype = "sqlite"\npath = "data/shop.sqlite"\nreadonly = false\n');
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

async function titles(): Promise<string[]> {
	const SQL = await initSqlJs();
	const db = new SQL.Database(readFileSync(dbPath));
	const rows = db.exec("SELECT title FROM books ORDER BY id")[0].values.map((r) => String(r[0]));
	db.close();
	return rows;
}

function note(name: string, blocks: string[]): string {
	const path = join(vault, name);
	writeFileSync(path, blocks.join("\n\n") + "\n");
	return path;
}

interface Child {
	pid: number;
	stdout(): string;
	/** Resolves when stdout matches. */
	printed(pattern: RegExp): Promise<void>;
	/** The exit code; fails the test (and kills the process) when the run outlives DEADLINE_MS. */
	exited(): Promise<number | null>;
	kill(signal: NodeJS.Signals): void;
}

function start(args: string[]): Child {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	const waiting: Array<{ pattern: RegExp; resolve(): void }> = [];
	child.stdout.on("data", (c: Buffer) => {
		out += c.toString();
		for (const w of waiting.filter((x) => x.pattern.test(out))) w.resolve();
	});
	const exit = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
	return {
		pid: child.pid as number,
		stdout: () => out,
		printed: (pattern) => (pattern.test(out) ? Promise.resolve() : new Promise((resolve) => waiting.push({ pattern, resolve }))),
		exited: async () => {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const overdue = new Promise<"overdue">((r) => (timer = setTimeout(() => r("overdue"), DEADLINE_MS)));
			const first = await Promise.race([exit, overdue]);
			clearTimeout(timer);
			if (first === "overdue") {
				child.kill("SIGKILL");
				throw new Error(`the CLI was still running after ${DEADLINE_MS} ms (stdout so far: ${JSON.stringify(out)})`);
			}
			return first;
		},
		kill: (signal) => child.kill(signal),
	};
}

/** CPU time (clock ticks, all threads) the process has used, or null where /proc does not say. */
function cpuTicks(pid: number): number | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		// utime and stime: fields 14 and 15 of the line, 12 and 13 after the command name.
		return Number(fields[11]) + Number(fields[12]);
	} catch {
		return null;
	}
}

/** Resolves once the process has spent `ticks` more of CPU time: the statement is under way. */
async function busyFor(pid: number, ticks: number): Promise<void> {
	const from = cpuTicks(pid);
	if (from === null) return;
	for (;;) {
		const now = cpuTicks(pid);
		if (now === null || now - from >= ticks) return;
		await new Promise((r) => setTimeout(r, 20));
	}
}

describe("a runaway SQLite statement in the CLI", () => {
	it("stops at its timeout: Query cancelled (timeout 1000 ms), exit 1, the file byte for byte as it was", async () => {
		const before = sha256(dbPath);
		const path = note("runaway.md", [`\`\`\`db connection=shop alias=forever timeout=1000\n${RUNAWAY}\n\`\`\``]);
		const human = start(["run", path]);
		expect(await human.exited()).toBe(1);
		expect(human.stdout()).toMatch(/^⊘ forever {2}db:shop .*Query cancelled \(timeout 1000 ms\)$/m);
		const json = start(["run", path, "--json"]);
		expect(await json.exited()).toBe(1);
		const [r] = JSON.parse(json.stdout()) as RunResultJson[];
		expect(r).toMatchObject({ state: "cancelled", error: { code: "timeout", message: "Query cancelled (timeout 1000 ms)" } });
		expect(sha256(dbPath)).toBe(before);
	});

	it("keeps what a statement before it committed, and nothing of a transaction it was inside", async () => {
		const committed = note("committed.md", [`\`\`\`db connection=shop alias=forever timeout=1000\nINSERT INTO books (title) VALUES ('Kindred');\n${RUNAWAY}\n\`\`\``]);
		const run = start(["run", committed]);
		expect(await run.exited()).toBe(1);
		expect(run.stdout()).toMatch(/Query cancelled \(timeout 1000 ms\)/);
		expect(await titles()).toEqual(["Dune", "Emma", "Kindred"]);

		const before = sha256(dbPath);
		const open = note("open.md", [`\`\`\`db connection=shop alias=forever timeout=1000\nBEGIN;\nINSERT INTO books (title) VALUES ('Beloved');\n${RUNAWAY}\n\`\`\``]);
		const inside = start(["run", open]);
		expect(await inside.exited()).toBe(1);
		expect(inside.stdout()).toMatch(/Query cancelled \(timeout 1000 ms\)/);
		expect(sha256(dbPath)).toBe(before);
	});

	it("ends at once on Ctrl+C (SIGINT): exit 130, history of the blocks that ran, the file untouched", async () => {
		const before = sha256(dbPath);
		const path = note("interrupted.md", [
			"```db connection=shop alias=first\nSELECT count(*) AS n FROM books;\n```",
			`\`\`\`db connection=shop alias=forever\n${RUNAWAY}\n\`\`\``,
			"```db connection=shop alias=after\nSELECT 1;\n```",
		]);
		const run = start(["run", path]);
		await run.printed(/^✓ first /m);
		await busyFor(run.pid, 30);
		run.kill("SIGINT");
		expect(await run.exited()).toBe(130);
		// The block after it was not run, and says so.
		expect(run.stdout()).toMatch(/^⊘ forever .*\[cancelled\]$/m);
		expect(run.stdout()).toMatch(/after/);
		const store = await HistoryStore.open(nodeStorage, historyPath);
		const rows = ["first", "forever", "after"].flatMap((a) => store.list("interrupted.md", a).map((x) => [x.alias, x.outcome]));
		await store.close();
		expect(rows).toEqual([
			["first", "done"],
			["forever", "cancelled"],
		]);
		expect(sha256(dbPath)).toBe(before);
	});
});
