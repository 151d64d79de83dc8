import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { version } from "../../package.json";
import type * as DbCommand from "./commands/db";
import type * as DemoCommand from "./commands/demo";
import type * as DiffCommand from "./commands/diff";
import type * as ExportCommand from "./commands/export";
import type * as ImportCommand from "./commands/import";
import type * as MergeReportsCommand from "./commands/merge-reports";
import type * as ParseCommand from "./commands/parse";
import type * as RunCommand from "./commands/run";
import type * as SuiteCommand from "./commands/suite";
import type * as DurationArg from "./suite/duration-arg";
import type * as Shard from "./suite/shard";
import { flushOwedWrites, reportInternalError } from "./crash";
import { isGlob } from "./suite/glob";
import { PLAIN, terminalOf, type Terminal } from "./terminal";
import { parseVarOptions } from "./var-options";
import { commandHelp, COMMANDS, EXIT, isCommand, USAGE, UsageError } from "./usage";

type Write = (s: string) => void;

/**
 * Each command's module, required when that command runs: `parse` or `--version` does not
 * evaluate the runner, the HTTP and database glue or sql.js's wasm (issue 19, CLI startup).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, see above */
const commands = {
	db: () => require("./commands/db") as typeof DbCommand,
	demo: () => require("./commands/demo") as typeof DemoCommand,
	diff: () => require("./commands/diff") as typeof DiffCommand,
	export: () => require("./commands/export") as typeof ExportCommand,
	import: () => require("./commands/import") as typeof ImportCommand,
	mergeReports: () => require("./commands/merge-reports") as typeof MergeReportsCommand,
	parse: () => require("./commands/parse") as typeof ParseCommand,
	run: () => require("./commands/run") as typeof RunCommand,
	suite: () => require("./commands/suite") as typeof SuiteCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports -- the commands above are all */

/** `<command> --help` / `-h` anywhere among its arguments. */
function wantsHelp(args: readonly string[]): boolean {
	return args.includes("--help") || args.includes("-h");
}

/**
 * Runs one CLI invocation and returns its exit code (EXIT: 0 ok, 1 a block failed, 2 usage or
 * parse error). Every command is awaited inside the try, so an expected failure of any of them
 * is a one-line message, never a stack. `stop` ends a run (or suite) as a signal does, keeping
 * its exit code (runCli: stdout's reader went away).
 */
export async function main(argv: string[], out: Write, err: Write, terminal: Terminal = PLAIN, stop?: AbortSignal): Promise<number> {
	const [command, ...rest] = argv;
	try {
		if (command !== undefined && isCommand(command) && command !== "help" && wantsHelp(rest)) {
			out(commandHelp(command) + "\n");
			return EXIT.ok;
		}
		switch (command) {
			case "parse": {
				const { values, positionals } = parseArgs({ args: rest, options: { json: { type: "boolean" } }, allowPositionals: true });
				if (positionals.length !== 1) throw new UsageError("parse takes exactly one note: runnable-blocks parse <note.md> [--json]");
				return commands.parse().runParse(positionals[0], values.json === true, out);
			}
			case "run":
				return await run(rest, out, err, terminal, stop);
			case "merge-reports": {
				const { values, positionals } = parseArgs({ args: rest, options: { junit: { type: "string" }, report: { type: "string" }, "durations-out": { type: "string" } }, allowPositionals: true });
				return commands.mergeReports().mergeReportsCommand({ inputs: positionals, junit: values.junit, report: values.report, durationsOut: values["durations-out"] }, err);
			}
			case "export": {
				const { values, positionals } = parseArgs({
					args: rest,
					options: { alias: { type: "string" }, format: { type: "string" }, env: { type: "string" }, var: { type: "string", multiple: true }, config: { type: "string" } },
					allowPositionals: true,
				});
				if (positionals.length !== 1 || !values.alias || !values.format) {
					throw new UsageError("export takes one note, --alias and --format: runnable-blocks export <note.md> --alias NAME --format FORMAT [--env NAME] (runnable-blocks help export lists the formats)");
				}
				return await commands.export().exportCommand({ file: positionals[0], alias: values.alias, format: values.format, env: values.env, overrides: parseVarOptions(values.var), config: values.config }, out, err);
			}
			case "import": {
				const { values, positionals } = parseArgs({ args: rest, options: { output: { type: "string", short: "o" }, config: { type: "string" } }, allowPositionals: true });
				if (positionals.length !== 1) throw new UsageError("import takes one file: runnable-blocks import <file.http> [-o note.md] [--config user.toml]");
				return commands.import().importCommand({ file: positionals[0], output: values.output, config: values.config }, out, err);
			}
			case "diff": {
				const { values, positionals } = parseArgs({ args: rest, options: { alias: { type: "string" } }, allowPositionals: true });
				if (positionals.length !== 1 || !values.alias) throw new UsageError("diff takes one note and --alias: runnable-blocks diff <note.md> --alias NAME");
				return commands.diff().diffCommand({ file: positionals[0], alias: values.alias, terminal }, out, err);
			}
			case "db": {
				const { values, positionals } = parseArgs({ args: rest, options: { json: { type: "boolean" }, config: { type: "string" } }, allowPositionals: true });
				return await commands.db().dbCommand({ sub: positionals[0], connection: positionals[1], json: values.json === true, config: values.config, cwd: process.cwd() }, out, err);
			}
			case "demo":
				if (rest.length > 0) throw new UsageError("demo takes no arguments");
				return await commands.demo().runDemo(out, err, terminal);
			case "--version":
			case "-V":
			case "version":
				out(`runnable-blocks ${version}\n`);
				return EXIT.ok;
			case undefined:
			case "help":
			case "--help":
			case "-h": {
				// `help --help` is help's own help, as `<command> --help` is for every other command.
				const topic = command === "help" && wantsHelp(rest) && rest.length === 1 ? "help" : rest[0];
				if (command === "help" && topic !== undefined) {
					if (!isCommand(topic)) throw new UsageError(`no command "${topic}"\n${USAGE}`);
					out(commandHelp(topic) + "\n");
					return EXIT.ok;
				}
				out(USAGE + "\n");
				return command === undefined ? EXIT.usage : EXIT.ok;
			}
			default:
				throw new UsageError(`unknown command "${command}"\n${USAGE}`);
		}
	} catch (e) {
		if (e instanceof UsageError || (e as { code?: string } | null)?.code?.startsWith("ERR_PARSE_ARGS")) {
			err(`runnable-blocks: ${(e as Error).message}\n`);
			return EXIT.usage;
		}
		throw e;
	}
}

/** Options only a suite takes: with any of them, even one note runs as a suite. */
const SUITE_OPTIONS = ["parallel", "shard", "durations", "durations-out", "report", "max-requests", "deadline", "bail"] as const;

/** A whole number of at least `min` for an option, or a usage error naming it. */
function wholeNumberOption(value: string | undefined, option: string, min: number): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value.trim()) || Number(value) < min) throw new UsageError(`--${option} takes a whole number of at least ${min}, not "${value}"`);
	return Number(value);
}

/**
 * `run`: one note as before (`run note.md`), or a suite when it is given folders, globs,
 * several notes or a suite option (docs/cli.md).
 */
async function run(rest: string[], out: Write, err: Write, terminal: Terminal, stop?: AbortSignal): Promise<number> {
	const { values, positionals } = parseArgs({
		args: rest,
		options: {
			alias: { type: "string", multiple: true },
			env: { type: "string" },
			var: { type: "string", multiple: true },
			yes: { type: "boolean" },
			config: { type: "string" },
			json: { type: "boolean" },
			"no-cache": { type: "boolean" },
			"fail-on-status": { type: "boolean" },
			junit: { type: "string" },
			parallel: { type: "string" },
			shard: { type: "string" },
			durations: { type: "string" },
			"durations-out": { type: "string" },
			report: { type: "string" },
			"max-requests": { type: "string" },
			deadline: { type: "string" },
			bail: { type: "boolean" },
			pin: { type: "boolean" },
			"check-pins": { type: "boolean" },
		},
		allowPositionals: true,
	});
	if (values.pin && values["check-pins"]) throw new UsageError("--pin and --check-pins exclude each other: pin the responses, or check them against their pins");
	const pins = values.pin ? "pin" : values["check-pins"] ? "check" : undefined;
	const overrides = parseVarOptions(values.var);
	if (positionals.length === 0) throw new UsageError(`run takes a note, or folders and globs of notes: ${COMMANDS.run.synopsis}`);
	const suite = positionals.length > 1 || SUITE_OPTIONS.some((o) => values[o] !== undefined) || !isSingleFile(positionals[0]);
	if (!suite) {
		const { code } = await commands.run().runCommand(
			{
				file: positionals[0],
				aliases: values.alias ?? [],
				env: values.env,
				overrides,
				yes: values.yes === true,
				config: values.config,
				json: values.json === true,
				noCache: values["no-cache"] === true,
				failOnStatus: values["fail-on-status"] === true,
				junit: values.junit,
				pins,
				terminal,
				signals: ["SIGINT", "SIGTERM"],
				stop,
			},
			out,
			err,
		);
		return code;
	}
	if (values.alias !== undefined) throw new UsageError("--alias names blocks of one note: run a suite without it, or one note with it");
	if (values.json === true) throw new UsageError("--json prints one note's results: a suite writes --junit FILE and --report FILE instead");
	const { parseShard } = require("./suite/shard") as typeof Shard; // eslint-disable-line @typescript-eslint/no-require-imports -- with the suite command, see `commands`
	const { parseDuration } = require("./suite/duration-arg") as typeof DurationArg; // eslint-disable-line @typescript-eslint/no-require-imports -- with the suite command
	return commands.suite().suiteCommand(
		{
			paths: positionals,
			env: values.env,
			overrides,
			yes: values.yes === true,
			config: values.config,
			noCache: values["no-cache"] === true,
			failOnStatus: values["fail-on-status"] === true,
			terminal,
			parallel: wholeNumberOption(values.parallel, "parallel", 1) ?? 1,
			shard: values.shard !== undefined ? parseShard(values.shard) : undefined,
			durations: values.durations,
			durationsOut: values["durations-out"],
			junit: values.junit,
			report: values.report,
			maxRequests: wholeNumberOption(values["max-requests"], "max-requests", 0),
			deadlineMs: values.deadline !== undefined ? parseDuration(values.deadline, "--deadline") : undefined,
			bail: values.bail === true,
			pins,
			signals: ["SIGINT", "SIGTERM"],
			stop,
		},
		out,
		err,
	);
}

/** A path to an existing file that is not a glob: `run` of one note keeps its own output and JUnit. */
function isSingleFile(arg: string): boolean {
	if (isGlob(arg)) return false;
	try {
		return !statSync(arg).isDirectory();
	} catch {
		// A missing path is a note `run` reports as it always has.
		return true;
	}
}

/** Process entry: wires stdio and sets the exit code; a bug prints one line and writes a report. */
export function runCli(): void {
	const argv = process.argv.slice(2);
	// A throw outside main's promise (a socket or timer callback) is a bug too: same line, same
	// report; the history of the blocks that ran is still written (a second throw leaves at once).
	let crashed = false;
	const crash = (e: unknown) => {
		process.stderr.write(reportInternalError(e, argv, version));
		if (crashed) process.exit(EXIT.internal);
		crashed = true;
		void flushOwedWrites().finally(() => process.exit(EXIT.internal));
	};
	process.on("uncaughtException", crash);
	process.on("unhandledRejection", crash);
	// stdout's reader went away (`| head`): the rest of the output is dropped and the run stops as a
	// Unix tool stops on SIGPIPE, with the history of the blocks that ran written.
	const readerGone = new AbortController();
	process.stdout.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" ? readerGone.abort() : crash(e)));
	const out = (s: string) => void (readerGone.signal.aborted || process.stdout.write(s));
	void main(argv, out, (s) => process.stderr.write(s), terminalOf(), readerGone.signal).then(
		(code) => {
			process.exitCode = readerGone.signal.aborted ? EXIT.readerGone : code;
		},
		(e: unknown) => {
			process.stderr.write(reportInternalError(e, argv, version));
			process.exitCode = EXIT.internal;
		},
	);
}

if (require.main === module) runCli();
