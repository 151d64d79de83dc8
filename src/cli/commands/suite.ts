import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { definesVariablesOnly, parseNote } from "../../blocks";
import { collectNotes } from "../suite/collect";
import { readDurations, writeDurations } from "../suite/durations";
import { RunLimits, type StopReason } from "../suite/limits";
import { OrderedOutput } from "../suite/ordered-output";
import { runPool } from "../suite/pool";
import { shardOf, type Shard } from "../suite/shard";
import { renderReport } from "../report/html-report";
import { suiteJunit } from "../report/junit-suite";
import { notRunBlock, reportBlock, reportTotals, type ReportData, type ReportNote } from "../report/report-data";
import type { Terminal } from "../terminal";
import { EXIT, UsageError } from "../usage";
import type { PinMode } from "../pins";
import { blockPassed, interruptible, runCommand, targetsOf, type RunOutcome } from "./run";

type Write = (s: string) => void;

export interface SuiteOptions {
	/** Notes, folders and globs, as given. */
	paths: string[];
	env?: string;
	/** `--var NAME=VALUE`: values over the environment's, in every note. */
	overrides?: Record<string, string>;
	/** `--yes`: every `# @note` is confirmed without asking. */
	yes?: boolean;
	config?: string;
	noCache: boolean;
	failOnStatus: boolean;
	terminal: Terminal;
	/** Notes run at once (1: one after another). */
	parallel: number;
	shard?: Shard;
	/** Durations file to balance shards by, and where to write this run's durations. */
	durations?: string;
	durationsOut?: string;
	junit?: string;
	report?: string;
	maxRequests?: number;
	deadlineMs?: number;
	bail: boolean;
	/** `--pin` or `--check-pins`, for every note (a changed pin fails its note; the report shows the diff). */
	pins?: PinMode;
	signals?: readonly NodeJS.Signals[];
	/** Stops the suite as a signal does, keeping its exit code (runCli: stdout's reader went away). */
	stop?: AbortSignal;
	/** Where note paths start from (default: the process's working folder). */
	cwd?: string;
	/** Epoch ms; injected by tests. */
	now?: () => number;
	setTimer?: (run: () => void, ms: number) => { clear(): void };
}

/** One note's run in a suite: its outcome, or why it could not run; absent entries never started. */
interface NoteRun {
	outcome: RunOutcome | null;
	error: string | null;
	startedAt: number;
	durationMs: number;
	/** True when the note ended before any stop: its duration is worth keeping. */
	whole: boolean;
}

const STOP_WORDS: Record<StopReason, string> = {
	bail: "--bail: stopped at the first failure",
	deadline: "--deadline passed",
	"max-requests": "--max-requests reached",
	interrupted: "interrupted",
};

/**
 * `runnable-blocks run <folder or glob>…`: every note found (or this shard's part of them),
 * at most `parallel` at once, each run as `run <note>` runs it, its output kept together in
 * path order; then one summary, the JUnit and HTML reports and the durations file.
 * Exit codes (precedence top-down): 130/143 a signal; 2 a note could not run at all or a
 * report could not be written; 4 --deadline or --max-requests cut the run short; 1 a block
 * failed (--bail included); 0 every block passed.
 */
export async function suiteCommand(opts: SuiteOptions, out: Write, err: Write): Promise<number> {
	const cwd = opts.cwd ?? process.cwd();
	const now = opts.now ?? Date.now;
	const all = collectNotes(opts.paths, cwd);
	const known = opts.durations !== undefined ? readDurations(opts.durations) : undefined;
	if (opts.durations !== undefined && known?.size === 0) err(`runnable-blocks: no durations in ${opts.durations} yet: notes are split by path\n`);
	const notes = opts.shard ? shardOf(all, opts.shard, known) : all;
	if (opts.shard && notes.length === 0) err(`runnable-blocks: shard ${opts.shard.index}/${opts.shard.count} has no notes (${all.length} notes in ${opts.shard.count} shards)\n`);

	const limits = new RunLimits({ maxRequests: opts.maxRequests, deadlineMs: opts.deadlineMs, bail: opts.bail, setTimer: opts.setTimer });
	const interrupt = interruptible(opts.signals ?? [], opts.stop);
	const onInterrupt = () => limits.stop("interrupted");
	interrupt.signal.addEventListener("abort", onInterrupt);
	const ordered = new OrderedOutput(out, err);
	// Progress lines of notes running at once would overwrite each other.
	const terminal = opts.parallel > 1 ? { ...opts.terminal, progress: false } : opts.terminal;
	const partStart = now();
	let runs: Array<NoteRun | undefined>;
	try {
		runs = await runPool(
			notes,
			opts.parallel,
			async (path, index): Promise<NoteRun> => {
				const w = ordered.writers(index);
				const startedAt = now();
				w.out(`── ${path}\n`);
				try {
					const outcome = await runCommand(
						{
							file: relative(process.cwd(), resolve(cwd, path)) || path,
							aliases: [],
							env: opts.env,
							overrides: opts.overrides,
							yes: opts.yes,
							config: opts.config,
							json: false,
							noCache: opts.noCache,
							failOnStatus: opts.failOnStatus,
							terminal,
							stop: limits.signal,
							guardTransport: (t) => limits.guard(t),
							onBlockDone: (_block, result) => limits.blockEnded(blockPassed(result, opts.failOnStatus)),
							summary: false,
							pins: opts.pins,
						},
						w.out,
						w.err,
					);
					return { outcome, error: null, startedAt, durationMs: now() - startedAt, whole: limits.stopped === null };
				} catch (e) {
					if (!(e instanceof UsageError)) throw e;
					w.err(`runnable-blocks: ${e.message}\n`);
					limits.blockEnded(false);
					return { outcome: null, error: e.message, startedAt, durationMs: now() - startedAt, whole: false };
				} finally {
					ordered.finish(index);
				}
			},
			() => limits.stopped === null,
		);
	} finally {
		limits.dispose();
		interrupt.signal.removeEventListener("abort", onInterrupt);
		interrupt.dispose();
	}
	for (let i = 0; i < notes.length; i++) if (runs[i] === undefined) ordered.finish(i);

	const data: ReportData = {
		version: 1,
		parts: [{ label: opts.shard ? `shard ${opts.shard.index}/${opts.shard.count}` : "run", startedAt: partStart, wallMs: now() - partStart, stopped: limits.stopped, notes: notes.map((path, i) => reportNote(path, runs[i], cwd, partStart, opts.failOnStatus)) }],
	};
	const totals = reportTotals(data);
	const b = totals.blocks;
	out(`\n${plural(notes.length, "note")}, ${plural(Object.values(b).reduce((x, y) => x + y, 0), "block")}: ${b.passed} passed, ${b.failed} failed, ${b.cancelled} cancelled, ${b.skipped} skipped, ${b.invalid} invalid${b["not-run"] ? `, ${b["not-run"]} not run` : ""}${totals.notes.error ? `; ${plural(totals.notes.error, "note")} could not run` : ""}\n`);
	if (limits.stopped !== null) err(`runnable-blocks: stopped early (${STOP_WORDS[limits.stopped]}): ${plural(totals.notes["not-run"], "note")} not run\n`);

	let writeFailed = false;
	const write = (what: string, file: string | undefined, text: () => string) => {
		if (file === undefined) return;
		try {
			// A CI step names shard-3/report.html before the folder exists.
			mkdirSync(dirname(resolve(file)), { recursive: true });
			writeFileSync(file, text());
		} catch (e) {
			writeFailed = true;
			err(`runnable-blocks: could not write the ${what} ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
	};
	write("JUnit report", opts.junit, () => suiteJunit(data));
	write("HTML report", opts.report, () => renderReport(data));
	if (opts.durationsOut !== undefined) {
		// Notes this run did not measure keep their last known time (another shard measured them).
		const durations = new Map(known ?? []);
		notes.forEach((path, i) => {
			const run = runs[i];
			if (run?.whole) durations.set(path, run.durationMs);
		});
		try {
			mkdirSync(dirname(resolve(opts.durationsOut)), { recursive: true });
			writeDurations(opts.durationsOut, durations);
		} catch (e) {
			writeFailed = true;
			err(`runnable-blocks: could not write the durations ${opts.durationsOut}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
	}

	if (interrupt.code() !== null) return interrupt.code() as number;
	if (writeFailed || totals.notes.error > 0) return EXIT.usage;
	if (limits.stopped === "deadline" || limits.stopped === "max-requests") return EXIT.limit;
	return totals.notes.failed > 0 || limits.stopped === "bail" ? EXIT.failed : EXIT.ok;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The report's view of one note: what ran, why it could not, or its blocks listed as not run. */
function reportNote(path: string, run: NoteRun | undefined, cwd: string, partStart: number, failOnStatus: boolean): ReportNote {
	if (run === undefined) {
		let blocks: ReportNote["blocks"] = [];
		try {
			blocks = targetsOf(parseNote(readFileSync(resolve(cwd, path), "utf8")), [])
				.filter((b) => !definesVariablesOnly(b))
				.map(notRunBlock);
		} catch {
			// Unreadable now: it is listed without its blocks.
		}
		return { path, status: "not-run", error: null, offsetMs: null, durationMs: null, blocks };
	}
	const pins = new Map(run.outcome?.pinDiffs?.map((p) => [p.block, p.diff]) ?? []);
	const blocks = (run.outcome?.runs ?? []).map((r) => reportBlock(r.block, r.result, { partStart, failOnStatus, dependency: r.dependency, pinDiff: pins.get(r.block) }));
	const status = run.error !== null ? "error" : blocks.every((x) => x.status === "passed") ? "passed" : "failed";
	return { path, status, error: run.error, offsetMs: Math.round((run.startedAt - partStart) * 10) / 10, durationMs: Math.round(run.durationMs * 10) / 10, blocks };
}
