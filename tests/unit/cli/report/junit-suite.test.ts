import { suiteJunit } from "../../../../src/cli/report/junit-suite";
import type { ReportBlock, ReportData } from "../../../../src/cli/report/report-data";

const block = (name: string, extra: Partial<ReportBlock> = {}): ReportBlock => ({ name, line: 1, kind: "http", request: "GET http://127.0.0.1/", httpStatus: 200, status: "passed", state: "done", error: null, offsetMs: 0, durationMs: 1500, dependency: false, assertions: [], pinDiff: null, ...extra });

describe("suiteJunit", () => {
	it("writes one testsuite per note and one testcase per block, each outcome as CI systems read it", () => {
		const data: ReportData = {
			version: 1,
			parts: [
				{
					label: "run",
					startedAt: 0,
					wallMs: 4000,
					stopped: "deadline",
					notes: [
						{
							path: "api/a&b.md",
							status: "failed",
							error: null,
							offsetMs: 0,
							durationMs: 3000,
							blocks: [
								block("ok"),
								block("check", { status: "failed", assertions: [{ line: 4, text: "status == 201", ok: false, actual: "200", message: "expected 201" }] }),
								block("down", { status: "failed", state: "failed", httpStatus: null, error: "Failed to connect" }),
								block("after", { status: "skipped", state: "failed", error: "skipped: depends on down, which failed" }),
								block("cut", { status: "cancelled", state: "cancelled", error: "[cancelled]" }),
							],
						},
						{ path: "later.md", status: "not-run", error: null, offsetMs: null, durationMs: null, blocks: [block("x", { status: "not-run", durationMs: null })] },
						{ path: "broken.md", status: "error", error: 'no environment "ci"', offsetMs: 0, durationMs: 0, blocks: [] },
					],
				},
			],
		};
		expect(suiteJunit(data).split("\n")).toEqual([
			'<?xml version="1.0" encoding="UTF-8"?>',
			'<testsuites name="runnable-blocks" tests="7" failures="1" errors="3" skipped="2" time="4.000">',
			'  <testsuite name="api/a&amp;b.md" tests="5" failures="1" errors="2" skipped="1" time="3.000">',
			'    <testcase name="ok" classname="api/a&amp;b.md" time="1.500"/>',
			'    <testcase name="check" classname="api/a&amp;b.md" time="1.500">',
			'      <failure message="1 assertion failed" type="assertion">line 4: status == 201: expected 201 (actual: 200)</failure>',
			"    </testcase>",
			'    <testcase name="down" classname="api/a&amp;b.md" time="1.500">',
			'      <error message="Failed to connect" type="failed"/>',
			"    </testcase>",
			'    <testcase name="after" classname="api/a&amp;b.md" time="1.500">',
			'      <skipped message="skipped: depends on down, which failed"/>',
			"    </testcase>",
			'    <testcase name="cut" classname="api/a&amp;b.md" time="1.500">',
			'      <error message="[cancelled]" type="cancelled"/>',
			"    </testcase>",
			"  </testsuite>",
			'  <testsuite name="later.md" tests="1" failures="0" errors="0" skipped="1" time="0.000">',
			'    <testcase name="x" classname="later.md" time="0.000">',
			`      <skipped message="not run: the run&apos;s --deadline passed"/>`,
			"    </testcase>",
			"  </testsuite>",
			'  <testsuite name="broken.md" tests="1" failures="0" errors="1" skipped="0" time="0.000">',
			'    <testcase name="(note)" classname="broken.md" time="0">',
			'      <error message="no environment &quot;ci&quot;" type="note"/>',
			"    </testcase>",
			"  </testsuite>",
			"</testsuites>",
			"",
		]);
	});
});
