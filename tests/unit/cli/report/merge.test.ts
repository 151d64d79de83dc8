import { mergeJunit, mergeReportData } from "../../../../src/cli/report/merge";
import type { ReportPart } from "../../../../src/cli/report/report-data";

const part = (label: string, startedAt: number): ReportPart => ({ label, startedAt, wallMs: 1, stopped: null, notes: [] });

describe("mergeReportData", () => {
	it("keeps every shard's part, in label order", () => {
		expect(mergeReportData([{ version: 1, parts: [part("shard 2/2", 5)] }, { version: 1, parts: [part("shard 1/2", 9)] }]).parts.map((p) => p.label)).toEqual(["shard 1/2", "shard 2/2"]);
	});
});

describe("mergeJunit", () => {
	const ours = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="runnable-blocks" tests="2" failures="1" errors="0" skipped="0" time="1.000">\n  <testsuite name="a.md" tests="2" failures="1" errors="0" skipped="0" time="1.000">\n    <testcase name="x" classname="a.md" time="0.5"/>\n    <testcase name="y" classname="a.md" time="0.5">\n      <failure message="m" type="assertion">t</failure>\n    </testcase>\n  </testsuite>\n</testsuites>\n';
	const theirs = '<testsuites><testsuite name="b" tests="3" failures="0" errors="1" skipped="1" time="2.5"><testcase name="z"/></testsuite><testsuite name="empty" tests="0"/></testsuites>';
	const empty = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="runnable-blocks" tests="0" failures="0" errors="0" skipped="0" time="0.000">\n\n</testsuites>\n';

	it("joins every testsuite of every file and sums their counts", () => {
		const merged = mergeJunit([
			{ name: "1.xml", xml: ours },
			{ name: "2.xml", xml: theirs },
			{ name: "3.xml", xml: empty },
		]);
		if (!merged.ok) throw new Error("not merged");
		expect(merged.xml).toContain('<testsuites name="runnable-blocks" tests="5" failures="1" errors="1" skipped="1" time="3.500">');
		expect(merged.xml.match(/<testsuite\b/g)).toHaveLength(3);
		expect(merged.xml.match(/<testcase\b/g)).toHaveLength(3);
		expect(merged.xml).toContain('<failure message="m" type="assertion">t</failure>');
	});

	it("names the file that is not JUnit", () => {
		expect(mergeJunit([{ name: "notes.xml", xml: "<notes/>" }])).toEqual({ ok: false, file: "notes.xml" });
	});
});
