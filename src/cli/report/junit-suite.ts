import type { ReportBlock, ReportData } from "./report-data";
import { xmlText } from "../junit";

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

const STOPS: Record<string, string> = {
	bail: "--bail stopped the run at the first failure",
	deadline: "the run's --deadline passed",
	"max-requests": "the run's --max-requests was reached",
	interrupted: "the run was interrupted",
};

/** Why a part's blocks were not run, in words. */
export function stopText(reason: string | null): string {
	return reason === null ? "not run" : `not run: ${STOPS[reason] ?? reason}`;
}

function testcase(note: string, b: ReportBlock, stopped: string | null): string {
	const head = `    <testcase name="${xmlText(b.name)}" classname="${xmlText(note)}" time="${seconds(b.durationMs)}"`;
	const failedAssertions = b.assertions.filter((a) => !a.ok);
	switch (b.status) {
		case "passed":
			return `${head}/>`;
		case "not-run":
			return `${head}>\n      <skipped message="${xmlText(stopText(stopped))}"/>\n    </testcase>`;
		case "skipped":
			return `${head}>\n      <skipped message="${xmlText(b.error ?? "skipped")}"/>\n    </testcase>`;
		case "failed":
			if (b.error === null) {
				const lines = failedAssertions.map((a) => `line ${a.line}: ${a.text}: ${a.message ?? "failed"} (actual: ${a.actual ?? "(none)"})`);
				const message = failedAssertions.length > 0 ? `${failedAssertions.length} assertion${failedAssertions.length === 1 ? "" : "s"} failed` : `status ${b.httpStatus ?? "?"}`;
				return `${head}>\n      <failure message="${xmlText(message)}" type="assertion">${xmlText(lines.join("\n") || `${b.request} → ${b.httpStatus ?? "?"}`)}</failure>\n    </testcase>`;
			}
			break;
	}
	return `${head}>\n      <error message="${xmlText(b.error ?? b.state)}" type="${xmlText(b.status)}"/>\n    </testcase>`;
}

/**
 * The suite's JUnit XML: one testsuite per note, one testcase per block (classname the note
 * path, name the alias or `line N`); a failed assertion is a <failure> (every failed one
 * listed in it), a block that did not get its answer an <error>, a skipped or not-run block
 * <skipped>. A note that could not run at all is one errored testcase.
 */
export function suiteJunit(data: ReportData): string {
	let tests = 0;
	let failures = 0;
	let errors = 0;
	let skipped = 0;
	let time = 0;
	const suites: string[] = [];
	for (const part of data.parts) {
		time += part.wallMs;
		for (const note of part.notes) {
			const cases = note.blocks.map((b) => testcase(note.path, b, part.stopped));
			if (note.error !== null) cases.push(`    <testcase name="(note)" classname="${xmlText(note.path)}" time="0">\n      <error message="${xmlText(note.error)}" type="note"/>\n    </testcase>`);
			const f = note.blocks.filter((b) => b.status === "failed" && b.error === null).length;
			const s = note.blocks.filter((b) => b.status === "skipped" || b.status === "not-run").length;
			const e = cases.length - f - s - note.blocks.filter((b) => b.status === "passed").length;
			tests += cases.length;
			failures += f;
			errors += e;
			skipped += s;
			suites.push(`  <testsuite name="${xmlText(note.path)}" tests="${cases.length}" failures="${f}" errors="${e}" skipped="${s}" time="${seconds(note.durationMs)}">\n${cases.join("\n")}\n  </testsuite>`);
		}
	}
	return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="runnable-blocks" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(time)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
