/**
 * Figures for `npm run bench`'s table: a benchmark reports each figure beside its baseline and
 * target; bench/run-all.mjs gathers them into bench/RESULTS.md. Printing stays the benchmark's own.
 */
import { appendFileSync } from "node:fs";

export interface Figure {
	/** What was measured, e.g. "(a) 500 GETs, runner vs bare node:http". */
	figure: string;
	/** The measured figure as text ("12 ms", "3.1 µs per block"). */
	value: string;
	/** The baseline beside it, measured in the same run. */
	baseline: string;
	/** The ratio or figure the target applies to, as text ("1.03×"). */
	result: string;
	target: string;
	/** Whether the target is met; null when there is none. */
	met: boolean | null;
}

/** Records one figure for the table: a JSON line in the file run-all names (nothing when run alone). */
export function report(bench: string, f: Figure): void {
	const file = process.env.RB_BENCH_RESULTS;
	if (file) appendFileSync(file, JSON.stringify({ bench, ...f }) + "\n");
}
