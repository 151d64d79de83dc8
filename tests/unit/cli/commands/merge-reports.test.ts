import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mergeReportsCommand } from "../../../../src/cli/commands/merge-reports";
import { readReportData, renderReport } from "../../../../src/cli/report/html-report";
import { suiteJunit } from "../../../../src/cli/report/junit-suite";
import type { ReportData } from "../../../../src/cli/report/report-data";
import { UsageError } from "../../../../src/cli/usage";

let dir: string;
const shard = (i: number, durationMs: number): ReportData => ({
	version: 1,
	parts: [{ label: `shard ${i}/2`, startedAt: 0, wallMs: 10, stopped: null, notes: [{ path: `n${i}.md`, status: "passed", error: null, offsetMs: 0, durationMs, blocks: [{ name: "x", line: 1, kind: "http", request: "GET /", httpStatus: 200, status: "passed", state: "done", error: null, offsetMs: 0, durationMs: 1, dependency: false, assertions: [], pinDiff: null }] }] }],
});

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-merge-"));
	for (const i of [1, 2]) {
		mkdirSync(join(dir, `shard-${i}`));
		writeFileSync(join(dir, `shard-${i}/report.html`), renderReport(shard(i, i * 100)));
		writeFileSync(join(dir, `shard-${i}/junit.xml`), suiteJunit(shard(i, i * 100)));
	}
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (p: string) => join(dir, p);

describe("merge-reports", () => {
	it("joins the shards' JUnit and HTML reports, expanding globs the shell left alone, and writes the durations", () => {
		const code = mergeReportsCommand({ inputs: ["shard-*/junit.xml", "shard-*/report.html"], junit: at("all.xml"), report: at("all.html"), durationsOut: at("d.json"), cwd: dir }, () => undefined);
		expect(code).toBe(0);
		expect(readFileSync(at("all.xml"), "utf8")).toContain('tests="2"');
		expect(readReportData(readFileSync(at("all.html"), "utf8"))?.parts.map((p) => p.notes[0].path)).toEqual(["n1.md", "n2.md"]);
		expect(JSON.parse(readFileSync(at("d.json"), "utf8"))).toEqual({ version: 1, durations: { "n1.md": 100, "n2.md": 200 } });
	});

	it("makes the JUnit from the HTML reports when no JUnit is given", () => {
		mergeReportsCommand({ inputs: [at("shard-1/report.html"), at("shard-2/report.html")], junit: at("all.xml") }, () => undefined);
		expect(readFileSync(at("all.xml"), "utf8").match(/<testcase /g)).toHaveLength(2);
	});

	it.each([
		[{ inputs: ["shard-1/report.html"] }, "merge-reports writes --junit FILE, --report FILE or --durations-out FILE: name at least one"],
		[{ inputs: ["nothing-*/x.html"], report: "o.html" }, "nothing-*/x.html: no file matches"],
		[{ inputs: ["shard-1/junit.xml"], report: "o.html" }, "--report needs the shards' HTML reports (.html) as inputs"],
		[{ inputs: ["notes.txt"], junit: "o.xml" }, "notes.txt: merge-reports reads .xml (JUnit) and .html (--report) files"],
		[{ inputs: ["fake.html"], report: "o.html" }, "fake.html: not a report written by runnable-blocks run --report"],
	])("refuses %j: %s, writing nothing", (opts, message) => {
		writeFileSync(at("notes.txt"), "");
		writeFileSync(at("fake.html"), "<html></html>");
		const cwd = process.cwd();
		process.chdir(dir);
		try {
			expect(() => mergeReportsCommand({ ...opts, cwd: dir }, () => undefined)).toThrow(new UsageError(message));
		} finally {
			process.chdir(cwd);
		}
		expect(() => readFileSync(at("o.html"))).toThrow();
	});
});
