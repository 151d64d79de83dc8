/**
 * The vault as a suite in CI (issue 30): the commands of docs/ci.md's GitHub workflow, read from
 * that page, run as the matrix would run them — four shard processes at once, then the merge —
 * on a generated vault of 200 notes and 2,000 blocks against a local server that counts.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readReportData } from "../../../src/cli/report/html-report";
import { readDurations } from "../../../src/cli/suite/durations";
import { partition } from "../../../src/cli/suite/shard";
import { shellWords } from "../../support/shell-words";
import { CLI } from "../../support/cli-process";

const ROOT = resolve(__dirname, "../../..");
const NOTES = 200;
const BLOCKS = 10;

jest.setTimeout(120_000);

let dir: string;
let server: Server;
let base: string;
/** Requests seen, by path: each block asks for its own path, so a count above one is a block run twice. */
const counts = new Map<string, number>();
/** Requests to /hang/… that reached the server (they are never answered). */
const hanging: string[] = [];

interface Ran {
	code: number;
	stdout: string;
	stderr: string;
}

function cli(args: string[]): Promise<Ran> {
	return new Promise((done) => {
		execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "" }, timeout: 100_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
			done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
		});
	});
}

/** The `run:` lines of the GitHub workflow in docs/ci.md that call the CLI, in order. */
function workflowCommands(): string[] {
	const doc = readFileSync(join(ROOT, "docs", "ci.md"), "utf8");
	const github = doc.slice(doc.indexOf("## GitHub Actions"), doc.indexOf("## GitLab CI"));
	const yaml = /```yaml\n([\s\S]*?)```/.exec(github)?.[1] ?? "";
	return [...yaml.matchAll(/^\s*- run: npx runnable-blocks (.+)$/gm)].map((m) => m[1]);
}

/** A note of ten blocks; some read the one before (chaining inside a note). */
function noteText(n: number): string {
	const fences = Array.from({ length: BLOCKS }, (_, b) => {
		const chained = b % 3 === 2 ? `&after={{b${b - 1}.response.body.$.n}}` : "";
		return `\`\`\`http alias=b${b}\nGET ${base}/n${n}/b${b}?x=1${chained}\n?? status == 200\n\`\`\``;
	});
	return `# Note ${n}\n\nSome prose.\n\n${fences.join("\n\n")}\n`;
}

beforeAll(async () => {
	server = createServer((req, res) => {
		const path = (req.url ?? "").split("?")[0];
		// Never answered: a run that reaches it waits until it is stopped.
		if (path.startsWith("/hang/")) {
			hanging.push(path);
			return;
		}
		counts.set(path, (counts.get(path) ?? 0) + 1);
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end(JSON.stringify({ n: counts.size }));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-ci-"));
	mkdirSync(join(dir, ".obsidian"));
	for (let n = 0; n < NOTES; n++) {
		const folder = join(dir, "notes", `area-${n % 7}`);
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, `note-${String(n).padStart(3, "0")}.md`), noteText(n));
	}
	// What the walk must skip, and a note with nothing to run.
	mkdirSync(join(dir, "notes", ".trash"));
	writeFileSync(join(dir, "notes", ".trash", "old.md"), noteText(999));
	writeFileSync(join(dir, "notes", "README.md"), "# API notes\n\nNo blocks here.\n");
});

afterAll(async () => {
	await new Promise((r) => server.close(r));
	rmSync(dir, { recursive: true, force: true });
});

describe("docs/ci.md's GitHub workflow, run locally", () => {
	it("runs 2,000 blocks in 4 shards exactly once, and merges one JUnit with 2,000 test cases and one report", async () => {
		const [shardCommand, mergeCommand] = workflowCommands();
		expect(shardCommand).toContain("--shard ${{ matrix.shard }}/4");
		expect(mergeCommand).toMatch(/^merge-reports /);

		// The matrix: four machines at once, each its shard.
		const shards = await Promise.all([1, 2, 3, 4].map((i) => cli(shellWords(shardCommand.replace(/\$\{\{ matrix\.shard \}\}/g, String(i))))));
		for (const s of shards) expect({ code: s.code, stderr: s.stderr.replace(/.*no durations in durations\.json yet.*\n/, "") }).toEqual({ code: 0, stderr: "" });
		expect(counts.size).toBe(NOTES * BLOCKS);
		expect([...counts.values()].every((c) => c === 1)).toBe(true);
		expect(shards.map((s) => /^(\d+) notes, (\d+) blocks: \2 passed/m.exec(s.stdout)?.[1])).toEqual(["50", "50", "50", "50"]);

		// The merge job, with shell globbing left to the CLI.
		const merged = await cli(shellWords(mergeCommand));
		expect(merged).toMatchObject({ code: 0, stderr: "" });
		const junit = readFileSync(join(dir, "junit.xml"), "utf8");
		expect(junit.match(/<testcase /g)).toHaveLength(NOTES * BLOCKS);
		expect(junit).toContain(`<testsuites name="runnable-blocks" tests="${NOTES * BLOCKS}" failures="0" errors="0" skipped="0"`);
		expect(junit.match(/<testsuite /g)).toHaveLength(NOTES);
		const report = readReportData(readFileSync(join(dir, "report.html"), "utf8"));
		expect(report?.parts.map((p) => p.label)).toEqual(["shard 1/4", "shard 2/4", "shard 3/4", "shard 4/4"]);
		const paths = report?.parts.flatMap((p) => p.notes.map((n) => n.path)) ?? [];
		expect(new Set(paths).size).toBe(NOTES);
		expect(paths.every((p) => p.startsWith("notes/area-"))).toBe(true);

		// The next run's shards, balanced by the durations the merge wrote: again every note once.
		const durations = readDurations(join(dir, "durations.json"));
		expect(durations.size).toBe(NOTES);
		const parts = partition([...durations.keys()], 4, durations);
		expect(parts.flat().sort()).toEqual([...paths].sort());
	});
});

describe("a suite stopped by a signal", () => {
	it("cancels the notes running at once, starts no other, writes its reports and exits 130", async () => {
		mkdirSync(join(dir, "hang"));
		for (const n of ["a", "b", "c"]) writeFileSync(join(dir, "hang", `${n}.md`), `\`\`\`http alias=${n}\nGET ${base}/hang/${n}\n\`\`\`\n`);
		const child = spawn(process.execPath, [CLI, "run", "hang", "--parallel", "2", "--deadline", "10m", "--junit", "hang.xml"], { cwd: dir, env: { ...process.env, NO_COLOR: "" } });
		let stdout = "";
		child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
		const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
		while (hanging.length < 2) await new Promise((r) => setTimeout(r, 10));
		child.kill("SIGINT");
		expect(await exited).toBe(130);
		expect(hanging.sort()).toEqual(["/hang/a", "/hang/b"]);
		expect(stdout).toContain("3 notes, 3 blocks: 0 passed, 0 failed, 2 cancelled, 0 skipped, 0 invalid, 1 not run");
		expect(readFileSync(join(dir, "hang.xml"), "utf8")).toContain('<skipped message="not run: the run was interrupted"/>');
	});
});
