import { byPath } from "../suite/collect";
import type { ReportData } from "./report-data";

/** The shards' report data as one: every part kept (each has its own clock), in label order. */
export function mergeReportData(reports: readonly ReportData[]): ReportData {
	const parts = reports.flatMap((r) => r.parts);
	return { version: 1, parts: [...parts].sort((a, b) => byPath(a.label, b.label) || a.startedAt - b.startedAt) };
}

const SUITE = /<testsuite\b[^>]*?(?:\/>|>[\s\S]*?<\/testsuite>)/g;
const COUNTS = ["tests", "failures", "errors", "skipped"] as const;

function attribute(tag: string, name: string): number {
	const m = new RegExp(`\\s${name}="([0-9.]+)"`).exec(tag);
	return m ? Number(m[1]) : 0;
}

/**
 * JUnit files as one: every <testsuite> of every file, in the files' order, under one
 * <testsuites> whose counts are the sums of theirs. Any JUnit writer's output merges (Jest's,
 * pytest's), not only ours. A file with no <testsuite> is an error the caller names.
 */
export function mergeJunit(files: ReadonlyArray<{ name: string; xml: string }>): { ok: true; xml: string } | { ok: false; file: string } {
	const suites: string[] = [];
	const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
	for (const { name, xml } of files) {
		const found = xml.match(SUITE);
		if (!found && !/<testsuites\b/.test(xml)) return { ok: false, file: name };
		for (const suite of found ?? []) {
			const open = suite.slice(0, suite.indexOf(">") + 1);
			for (const c of COUNTS) totals[c] += attribute(open, c);
			totals.time += attribute(open, "time");
			suites.push(`  ${suite}`);
		}
	}
	const head = `<testsuites name="runnable-blocks" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${totals.time.toFixed(3)}">`;
	return { ok: true, xml: `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join("\n")}\n</testsuites>\n` };
}
