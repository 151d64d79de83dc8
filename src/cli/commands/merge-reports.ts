import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { filesMatching } from "../suite/collect";
import { formatDurations } from "../suite/durations";
import { isGlob } from "../suite/glob";
import { readReportData, renderReport } from "../report/html-report";
import { suiteJunit } from "../report/junit-suite";
import { mergeJunit, mergeReportData } from "../report/merge";
import type { ReportData } from "../report/report-data";
import { EXIT, UsageError } from "../usage";

type Write = (s: string) => void;

export interface MergeOptions {
	/** Shard outputs: `.xml` JUnit files, `.html` reports, as given (globs expanded here when the shell did not). */
	inputs: string[];
	junit?: string;
	report?: string;
	durationsOut?: string;
	cwd?: string;
}

function read(file: string): string {
	try {
		return readFileSync(file, "utf8");
	} catch (e) {
		throw new UsageError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
	}
}

function expand(inputs: readonly string[], cwd: string): string[] {
	return inputs.flatMap((arg) => {
		if (!isGlob(arg)) return [arg];
		const found = filesMatching(arg, cwd);
		if (found.length === 0) throw new UsageError(`${arg}: no file matches`);
		return found;
	});
}

/**
 * `runnable-blocks merge-reports`: the shards' outputs as one. JUnit inputs are joined
 * suite by suite; without any, the merged JUnit is written from the HTML reports' data (so
 * the HTML reports alone suffice). The merged HTML report keeps each shard's waterfall on its
 * own clock. `--durations-out` writes every note's last duration for the next `--durations`.
 * Exit: 0 written, 2 an input cannot be read or is not a report, or an output cannot be written.
 */
export function mergeReportsCommand(opts: MergeOptions, err: Write): number {
	if (opts.junit === undefined && opts.report === undefined && opts.durationsOut === undefined) throw new UsageError("merge-reports writes --junit FILE, --report FILE or --durations-out FILE: name at least one");
	const files = expand(opts.inputs, opts.cwd ?? process.cwd());
	if (files.length === 0) throw new UsageError("merge-reports takes the shards' reports: runnable-blocks merge-reports --junit out.xml --report out.html shard-*/junit.xml shard-*/report.html");
	const junits: Array<{ name: string; xml: string }> = [];
	const reports: ReportData[] = [];
	for (const file of files) {
		const text = read(file);
		if (/\.xml$/i.test(file)) junits.push({ name: file, xml: text });
		else if (/\.html?$/i.test(file)) {
			const data = readReportData(text);
			if (!data) throw new UsageError(`${file}: not a report written by runnable-blocks run --report`);
			reports.push(data);
		} else throw new UsageError(`${file}: merge-reports reads .xml (JUnit) and .html (--report) files`);
	}
	const merged = mergeReportData(reports);
	const outputs: Array<[string, string | undefined, () => string]> = [
		[
			"JUnit report",
			opts.junit,
			() => {
				if (junits.length === 0) {
					if (reports.length === 0) throw new UsageError("--junit needs JUnit (.xml) or HTML report inputs");
					return suiteJunit(merged);
				}
				const joined = mergeJunit(junits);
				if (!joined.ok) throw new UsageError(`${joined.file}: not a JUnit report (no <testsuite>)`);
				return joined.xml;
			},
		],
		[
			"HTML report",
			opts.report,
			() => {
				if (reports.length === 0) throw new UsageError("--report needs the shards' HTML reports (.html) as inputs");
				return renderReport(merged);
			},
		],
		[
			"durations",
			opts.durationsOut,
			() => {
				if (reports.length === 0) throw new UsageError("--durations-out needs the shards' HTML reports (.html) as inputs");
				const durations = new Map<string, number>();
				for (const part of merged.parts) for (const note of part.notes) if (note.durationMs !== null && note.status !== "not-run" && part.stopped === null) durations.set(note.path, note.durationMs);
				return formatDurations(durations);
			},
		],
	];
	// Every text is made before anything is written: a bad input leaves no half-merged output.
	const texts = outputs.filter(([, file]) => file !== undefined).map(([what, file, make]) => [what, file as string, make()] as const);
	let code: number = EXIT.ok;
	for (const [what, file, text] of texts) {
		try {
			mkdirSync(dirname(resolve(file)), { recursive: true });
			writeFileSync(file, text);
		} catch (e) {
			err(`runnable-blocks: could not write the ${what} ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
			code = EXIT.usage;
		}
	}
	return code;
}
