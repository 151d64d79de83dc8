import type * as ChildProcess from "node:child_process";
import { constants } from "node:os";
import { dirname, resolve } from "node:path";
import { blockKey, parseNote, type NoteBlock } from "../../blocks";
import { createEngine, isRunnable, runnableFences } from "../../runner/engine";
import { assertionsOf } from "../kind-outputs";
import { persistedCookies } from "../cookie-file";
import type { BlockRun } from "../../runner/run-note";
import type { BlockResult } from "../../runner/result";
import type { Transport } from "../../runner/transport";
import { flushOnCrash } from "../crash";
import { cliPorts, cliTls } from "../engine-ports";
import { writeFileSync } from "node:fs";
import { junitReport } from "../junit";
import { vaultNoteLinks } from "../note-links";
import { settlePins, type PinDiff, type PinMode } from "../pins";
export type { PinDiff } from "../pins";
import { readNote } from "../read-note";
import { cliPromptAsker } from "../prompt-asker";
import { cliSignInHost } from "../sign-in-host";
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
	/** Values over the environment's for this run: `--var NAME=VALUE`, the demo's base_url. */
	overrides?: Record<string, string>;
	/** `--yes`: every `# @note` is confirmed without asking. */
	yes?: boolean;
	/** Cancels a block after this many ms (the demo's `# @cancel-after`). */
	cancelAfter?: (block: NoteBlock) => number | undefined;
	/**
	 * Signals that stop the run instead of killing the process (the CLI passes SIGINT and
	 * SIGTERM): see `interruptible`.
	 */
	signals?: readonly NodeJS.Signals[];
	/** Stops the run from outside (a suite's --bail, --deadline or Ctrl+C): the running block is cancelled, the rest not sent. */
	stop?: AbortSignal;
	/** Wraps the note's transport (a suite's --max-requests counts and refuses requests there). */
	guardTransport?: (transport: Transport) => Transport;
	/** Called as each block ends, after it is printed (a suite's --bail watches here). */
	onBlockDone?: (block: NoteBlock, result: BlockResult) => void;
	/** Prints the per-note summary line (a suite prints one summary for all its notes instead). */
	summary?: boolean;
	/** `--pin` (rewrite the pins of the blocks run) or `--check-pins` (exit 1 when a response left its pin). */
	pins?: PinMode;
}

export interface RunOutcome {
	code: number;
	runs: BlockRun[];
	/**
	 * The difference between a block's response and its pinned ```http-response fence, one
	 * unified diff per pinned block, for the HTML report. Not filled yet: the pins work
	 * (`run --pin`/`--check-pins`) sets it.
	 */
	pinDiffs?: PinDiff[];
}


type Write = (s: string) => void;

/** Starts the browser for a sign-in; node:child_process loads only then, since most runs sign in to nothing. */
function openBrowser(command: string, args: readonly string[], options: ChildProcess.SpawnOptions): ChildProcess.ChildProcess {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
	return (require("node:child_process") as typeof ChildProcess).spawn(command, args, options);
}

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
	if (targets.length === 0) err(`runnable-blocks: ${opts.file} has no block to run (${runnableFences().join(" or ")})\n`);
	const vault = findVault(opts.file, opts.config);
	const settings = loadSettings(vault.configPath, err);
	const env = selectEnvironment(settings, opts.env, err, { reads: (variables) => variablesReadBy(note, targets, variables), overrides: opts.overrides });
	const engine = createEngine(cliPorts({ historyPath: vault.historyPath, useCache: !opts.noCache, env, tls: cliTls(settings, vault.root), defaultTimeoutMs: settings.general.timeout, parallel: settings.general.parallel, filesRoot: vault.root, warn: err, connections: settings.connections, dbBase: vault.root ?? dirname(resolve(opts.file)), guardTransport: opts.guardTransport, noteLinks: vaultNoteLinks(vault.root), noteProperties: true, ask: cliPromptAsker(opts.overrides ?? {}, { input: process.stdin, output: process.stderr }, opts.yes === true), signIn: cliSignInHost({ write: err, isTTY: process.stderr.isTTY === true, env: process.env, platform: process.platform, spawn: openBrowser }) }));
	const saveCookies = persistedCookies(engine.cookies, vault, settings.general.persistCookies, err);
	const reporter = new Reporter(out, err, opts.json ? { ...opts.terminal, progress: false } : opts.terminal, targets.length, opts.file);
	const timers: Array<ReturnType<typeof setTimeout>> = [];
	const interrupt = interruptible(opts.signals ?? [], opts.stop);
	const owed = flushOnCrash(() => engine.close());
	let runs: BlockRun[];
	try {
		runs = await engine.run(vault.notePath, note, targets, {
			signal: interrupt.signal,
			// Blocks may end out of order (`[general] parallel`): the reporter prints them in this, the note's order.
			onPlan: (blocks) => reporter.plan(blocks),
			onBlockStart: (block) => {
				reporter.start(block);
				// The run begins right after this call, so the timer always finds it under way.
				const after = opts.cancelAfter?.(block);
				if (after !== undefined) timers.push(setTimeout(() => engine.sessions.note(vault.notePath).cancel(blockKey(block)), after));
			},
			onUpdate: (block, s) => reporter.progress(block, s),
			onBlockDone: (block, result) => {
				if (!opts.json) reporter.done(block, result);
				opts.onBlockDone?.(block, result);
			},
		});
	} finally {
		reporter.flush();
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
	else if (runs.length > 1 && opts.summary !== false) reporter.summary(runs.map((r) => r.result));
	if (opts.junit !== undefined) {
		try {
			writeFileSync(opts.junit, junitReport(opts.file, runs));
		} catch (e) {
			err(`runnable-blocks: could not write the JUnit report ${opts.junit}: ${e instanceof Error ? e.message : String(e)}\n`);
		}
	}
	if (interrupt.code() !== null) return { code: interrupt.code() as number, runs };
	const ok = runs.every((r) => blockPassed(r.result, opts.failOnStatus));
	const secrets = [...env.secretValues, ...engine.auth.values()];
	const pins = opts.pins ? settlePins({ mode: opts.pins, file: opts.file, text, runs, secrets, diffOut: opts.json ? err : out, colour: !opts.json && opts.terminal.colour }, err) : null;
	return { code: ok && (pins === null || pins.code === EXIT.ok) ? EXIT.ok : EXIT.failed, runs, ...(pins ? { pinDiffs: pins.diffs } : {}) };
}

/** A block passes when it finished (cached counts), its assertions hold and, with --fail-on-status, its status is below 400. */
export function blockPassed(result: BlockResult, failOnStatus: boolean): boolean {
	return (result.state === "done" || result.state === "cached") && !(failOnStatus && isErrorStatus(result)) && !(assertionsOf(result) ?? []).some((a) => !a.ok);
}

/**
 * A run that a signal stops instead of killing the process: the first SIGINT (or SIGTERM)
 * cancels the running block and skips the rest, the run ends as usual (the history of every
 * block that ran is written before exit) and the exit code is the shell's 128 + signal number.
 * A second signal while that write is under way leaves at once, without the rows not yet written.
 */
export function interruptible(signals: readonly NodeJS.Signals[], stop?: AbortSignal): { signal: AbortSignal; code(): number | null; dispose(): void } {
	const controller = new AbortController();
	// An outside stop cancels the same way, but is not a signal: the exit code stays the run's.
	const onStop = () => controller.abort();
	if (stop?.aborted) controller.abort();
	else stop?.addEventListener("abort", onStop);
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
			stop?.removeEventListener("abort", onStop);
			for (const s of signals) process.off(s, onSignal);
		},
	};
}
