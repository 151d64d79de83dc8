import { parseNote } from "../../../src/blocks";
import { junitReport } from "../../../src/cli/junit";
import type { BlockResult } from "../../../src/runner/result";

const [named, unnamed, failing] = parseNote("```http alias=login\nGET http://127.0.0.1/a\n```\n\n```http\nGET http://127.0.0.1/b\n```\n```http alias=down\nGET http://127.0.0.1:9/\n```");
const done = (extra: object = {}): BlockResult => ({ kind: "http", state: "done", receivedBytes: 0, timing: { total: 1234.5 }, ...extra });

describe("junitReport", () => {
	it("writes one suite per block, a passed case for a block without assertions, one case per assertion", () => {
		const xml = junitReport("api.md", [
			{ block: named, result: done({ assertions: [{ line: 3, text: "status == 200", ok: true, actual: "200" }, { line: 4, text: 'body.$.name == "a<b>"', ok: false, actual: "\"x\" & 'y'", message: "expected a<b>" }] }) },
			{ block: unnamed, result: done() },
		]);
		expect(xml.split("\n")).toEqual([
			'<?xml version="1.0" encoding="UTF-8"?>',
			'<testsuites name="api.md" tests="3" failures="1" errors="0">',
			'  <testsuite name="api.md login" tests="2" failures="1" errors="0" time="1.234">',
			'    <testcase name="line 3: status == 200" classname="api.md login" time="0"></testcase>',
			'    <testcase name="line 4: body.$.name == &quot;a&lt;b&gt;&quot;" classname="api.md login" time="0">',
			'      <failure message="expected a&lt;b&gt;" type="assertion">actual: &quot;x&quot; &amp; &apos;y&apos;</failure>',
			"    </testcase>",
			"  </testsuite>",
			'  <testsuite name="api.md line 5" tests="1" failures="0" errors="0" time="1.234">',
			'    <testcase name="line 5 runs" classname="api.md" time="1.234"/>',
			"  </testsuite>",
			"</testsuites>",
			"",
		]);
	});

	it("counts a block that got no response as an error named by its code", () => {
		const xml = junitReport("api.md", [{ block: failing, result: { kind: "http", state: "failed", receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect" } } }]);
		expect(xml).toContain('<testsuites name="api.md" tests="1" failures="0" errors="1">');
		expect(xml).toContain('<testcase name="down runs" classname="api.md" time="0.000">\n      <error message="Failed to connect" type="connect_failed"/>');
		expect(junitReport("api.md", [{ block: failing, result: { state: "cancelled" } }])).toContain('<error message="cancelled" type="cancelled"/>');
	});

	it("drops characters XML cannot carry", () => {
		const xml = junitReport("a\u0001b.md", [{ block: unnamed, result: done() }]);
		expect(xml).toContain('<testsuites name="ab.md"');
	});
});
