import { constants } from "node:os";
import { dirname, resolve } from "node:path";
import { blockKey, parseNote, type NoteBlock } from "../../blocks";
import { createEngine, isRunnable } from "../../runner/engine";
import { assertionsOf } from "../stream-output";
import { persistedCookies } from "../cookie-file";
import type { BlockRun } from "../../runner/run-note";
import { flushOnCrash } from "../crash";
import { cliPorts } from "../engine-ports";
import { writeFileSync } from "node:fs";
import { junitReport } from "../junit";
import { settlePins, type PinMode } from "../pins";
import { readNote } from "../read-note";
import { isErrorStatus, Reporter } from "../reporter";
import { resultToJson } from "../result-json";
import type { Terminal } from "../terminal";
import { EXIT, UsageError } from "../usage";
import { variablesReadBy } from "../variables-read";
import { findVault, loadSettings, selectEnvironment } from "../vault";

export interface RunOptions {
	file: string;
	aliases: string[];
	env?: string;
	config?: string;
	json: boolean;
	noCache: boolean;
	/** Exit 1 when a response is 4xx/5xx (curl's --fail); without it such a run finished. */
	failOnStatus: boolean;
	/** Where to write a JUnit XML report. */
	junit?: string;
	terminal: Terminal;
	/** Extra variables layered over the environment (the demo sets base_url). */
	overrides?: Record<string, string>;
	/** Cancels a block after this many ms (the demo's `# @cancel-after`). */
	cancelAfter?: (block: NoteBlock) => number | undefined;
	/**
	 * Signals that stop the run instead of killing the process (the CLI passes SIGINT and
	 * SIGTERM): see `interruptible`.
	 */
	signals?: readonly NodeJS.Signals[];
	/** `--pin` (rewrite the pins of the blocks run) or `--check-pins` (exit 1 when a response left its pin). */
	pins?: PinMode;
}

export interface RunOutcome {
	code: number;
	runs: BlockRun[];
}

type Write = (s: string) => void;

/** Picks the blocks to run: every runnable block top-down (as the plugin's run all), or the named aliases (unknown names are usage errors). */
export function targetsOf(note: NoteBlock[], aliases: string[]): NoteBlock[] {
	const http = note.filter(isRunnable);
	if (aliases.length === 0) return http;
	return aliases.map((a) => {
		const b = http.find((x) => x.alias === a);
		if (!b) {
			const known = http.map((x) => x.alias).filter((x): x is string => x !== null);
			throw new UsageError(`no runnable block with alias "${a}"${known.length ? ` (aliases: ${known.join(", ")})` : ""}`);
		}
		return b;
	});
}

/**
 * `runnable-blocks run`: exit 0 when every block finished (whatever its status, unless
 * `--fail-on-status`), 1 when any failed, was cancelled, invalid or skipped, 2 for usage errors.
 * An invalid block does not stop the others: it is reported with file:line:column where it
 * would have run.
 */
export async function runCommand(opts: RunOptions, out: Write, err: Write): Promise<RunOutcome> {
	const text = readNote(opts.file);
	const note = parseNote(text);
	const targets = targetsOf(note, opts.aliases);
	if (targets.length === 0) err(`runnable-blocks: ${opts.file} has no block to run (http or db)\n`);
	const vault = findVault(opts.file, opts.config);
	const settings = loadSettings(vault.configPath, err);
	const env = selectEnvironment(settings, opts.env, err, (variables) => variablesReadBy(note, targets, variables));
	const engine = createEngine(cliPorts({ historyPath: vault.historyPath, useCache: !opts.noCache, env, overrides: opts.overrides, defaultTimeoutMs: settings.general.timeout, filesRoot: vault.root, warn: err, connections: settings.connections, dbBase: vault.root ?? dirname(resolve(opts.file)) }));
	const saveCookies = persistedCookies(engine.cookies, vault, settings.general.persistCookies, err);
	const reporter = new Reporter(out, err, opts.json ? { ...opts.terminal, progress: false } : opts.terminal, targets.length, opts.file);
	const timers: Array<ReturnType<typeof setTimeout>> = [];
	const interrupt = interruptible(opts.signals ?? []);
	const owed = flushOnCrash(() => engine.close());
	let runs: BlockRun[];
	try {
		runs = await engine.run(vault.notePath, note, targets, {
			signal: interrupt.signal,
			onBlockStart: (block) => {
				reporter.start(block);
				// The run begins right after this call, so the timer always finds it under way.
				const after = opts.cancelAfter?.(block);
				if (after !== undefined) timers.push(setTimeout(() => engine.sessions.note(vault.notePath).cancel(blockKey(block)), after));
			},
			onUpdate: (block, s) => reporter.progress(block, s),
			onBlockDone: (block, result) => {
				if (!opts.json) reporter.done(block, result);
			},
		});
	} finally {
		for (const t of timers) clearTimeout(t);
		owed();
		try {
			await engine.close();
		} finally {
			interrupt.dispose();
			saveCookies();
		}
	}
	// Bodies are decoded only when JSON is asked for: a 100 MB body stays 100 MB of bytes otherwise.
	if (opts.json) out(JSON.stringify(runs.map((r) => resultToJson(r.block, r.result, r.dependency)), null, 2) + "\n");
	else if (runs.length > 1) reporter.summary(runs.map((r) => r.result));
	if (opts.junit !== undefined) {
		try {
			writeFileSync(opts.junit, junitReport(opts.file, runs));
		} catch (e) {
			err(`runnable-blocks: could not write the JUnit report ${opts.junit}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
	}
	if (interrupt.code() !== null) return { code: interrupt.code() as number, runs };
	const ok = runs.every((r) => (r.result.state === "done" || r.result.state === "cached") && !(opts.failOnStatus && isErrorStatus(r.result)) && !(assertionsOf(r.result) ?? []).some((a) => !a.ok));
	const secrets = [...env.secretValues, ...engine.auth.values()];
	const pinsCode = opts.pins ? settlePins({ mode: opts.pins, file: opts.file, text, runs, secrets, diffOut: opts.json ? err : out, colour: !opts.json && opts.terminal.colour }, err) : EXIT.ok;
	return { code: ok && pinsCode === EXIT.ok ? EXIT.ok : EXIT.failed, runs };
}

/**
 * A run that a signal stops instead of killing the process: the first SIGINT (or SIGTERM)
 * cancels the running block and skips the rest, the run ends as usual (the history of every
 * block that ran is written before exit) and the exit code is the shell's 128 + signal number.
 * A second signal while that write is under way leaves at once, without the rows not yet written.
 */
function interruptible(signals: readonly NodeJS.Signals[]): { signal: AbortSignal; code(): number | null; dispose(): void } {
	const controller = new AbortController();
	let caught: NodeJS.Signals | null = null;
	const exitCode = (s: NodeJS.Signals) => 128 + (constants.signals[s] ?? 0);
	const onSignal = (s: NodeJS.Signals) => {
		if (caught !== null) process.exit(exitCode(s));
		caught = s;
		controller.abort();
	};
	for (const s of signals) process.on(s, onSignal);
	return {
		signal: controller.signal,
		code: () => (caught === null ? null : exitCode(caught)),
		dispose: () => {
			for (const s of signals) process.off(s, onSignal);
		},
	};
}
