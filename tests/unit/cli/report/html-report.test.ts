import { readReportData, renderReport, scriptJson } from "../../../../src/cli/report/html-report";
import type { ReportData } from "../../../../src/cli/report/report-data";

const HOSTILE = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> & \u2028';
const data: ReportData = {
	version: 1,
	parts: [
		{
			label: "shard 1/2",
			startedAt: 1_700_000_000_000,
			wallMs: 10,
			stopped: null,
			notes: [
				{
					path: "a.md",
					status: "failed",
					error: null,
					offsetMs: 0,
					durationMs: 5,
					blocks: [{ name: "x", line: 1, kind: "http", request: "GET https://api.example/x", httpStatus: 200, status: "failed", state: "done", error: HOSTILE, offsetMs: 1, durationMs: 2, dependency: false, assertions: [{ line: 2, text: "body == 1", ok: false, actual: HOSTILE, message: null }], pinDiff: null }],
				},
			],
		},
	],
};

describe("renderReport", () => {
	const html = renderReport(data);

	it("embeds the data so that no response text can end its script element or start markup", () => {
		expect(scriptJson(HOSTILE)).not.toMatch(/[<>&\u2028]/);
		expect(html).not.toContain("</script><script>alert");
		expect(html).not.toContain("<img");
		expect(html.match(/<\/script>/g)).toHaveLength(2);
	});

	it("reads back exactly the data it embedded (merge-reports' input)", () => {
		expect(readReportData(html)).toEqual(data);
	});

	it("loads nothing from anywhere: no src or href attribute, and a policy that forbids loads", () => {
		const markup = html.replace(/<script type="application\/json"[^>]*>[^<]*<\/script>/, "");
		expect(markup).not.toMatch(/\s(src|href)=/i);
		expect(markup).not.toMatch(/https?:\/\//);
		expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
	});

	it("says a file is not a report when it is none, or its data is damaged", () => {
		expect(readReportData("<html></html>")).toBeNull();
		expect(readReportData(html.replace('"version":1', '"version":2'))).toBeNull();
		expect(readReportData(html.replace('{"version"', '{"version'))).toBeNull();
	});
});
