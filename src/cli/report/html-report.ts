import type { ReportData } from "./report-data";
import { REPORT_SCRIPT } from "./report-script";
import { REPORT_STYLE } from "./report-style";

const DATA_ID = "runnable-blocks-report";

/**
 * JSON that is safe inside a <script> element: `<` never appears raw, so no response text can
 * close the element (`</script>`) or open a comment; U+2028/2029 are escaped for old parsers.
 */
export function scriptJson(value: unknown): string {
	return JSON.stringify(value)
		.replace(/</g, "\\u003c")
		.replace(/>/g, "\\u003e")
		.replace(/&/g, "\\u0026")
		.replace(/\u2028/g, "\\u2028")
		.replace(/\u2029/g, "\\u2029");
}

/**
 * The HTML report: one file with its CSS and script inline and its data as JSON in a
 * <script type="application/json"> (which `merge-reports` reads back). It loads nothing (no
 * URL in it at all), so it opens offline and from a CI artifact; the script builds the page
 * with textContent only, so response text is shown, never interpreted. A Content-Security-Policy
 * forbids any fetch or load beyond the page itself.
 */
export function renderReport(data: ReportData, title = "Runnable Blocks report"): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<main id="report"><noscript>This report needs JavaScript to show its data.</noscript></main>
<script type="application/json" id="${DATA_ID}">${scriptJson(data)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

function escapeHtml(s: string): string {
	return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The data of a report this CLI wrote, or null when the file is not one. */
export function readReportData(html: string): ReportData | null {
	const open = `<script type="application/json" id="${DATA_ID}">`;
	const start = html.indexOf(open);
	if (start === -1) return null;
	const end = html.indexOf("</script>", start + open.length);
	if (end === -1) return null;
	try {
		const data = JSON.parse(html.slice(start + open.length, end)) as ReportData;
		return data && data.version === 1 && Array.isArray(data.parts) ? data : null;
	} catch {
		return null;
	}
}
