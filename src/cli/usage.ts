import type * as BlockRunners from "../runner/block-runners";

/** A usage or input problem: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** Exit codes of every command (README, "The CLI"). */
export const EXIT = {
	/** Every block finished (a 4xx/5xx response is a finished run unless `--fail-on-status`). */
	ok: 0,
	/** A block failed, was cancelled, was invalid or skipped; with `--fail-on-status`, a 4xx/5xx. */
	failed: 1,
	/** Usage, note, settings or export errors: nothing (more) was done. */
	usage: 2,
	/** A bug of ours: one line on stderr and a report file. */
	internal: 3,
	/** A suite's --deadline passed or its --max-requests was reached before every block ran. */
	limit: 4,
	/** stdout's reader went away (`| head`): the run stopped, the history of the blocks that ran written; 128 + SIGPIPE, as a shell reports a tool SIGPIPE ended. */
	readerGone: 141,
} as const;

/** One entry per command: its synopsis and what `help <command>` says. */
export const COMMANDS = {
	run: {
		synopsis: "runnable-blocks run <note.md | folder | glob>... [--alias NAME]... [--env NAME] [--var NAME=VALUE]... [--yes] [--config user.toml] [--json] [--no-cache] [--fail-on-status] [--junit FILE] [--pin | --check-pins] [--parallel N] [--shard i/n] [--durations FILE] [--durations-out FILE] [--report FILE] [--max-requests N] [--deadline DURATION] [--bail]",
		help: `Runs the note's http and db blocks top-down with chaining (or the --alias blocks and what they reference).
An invalid block is reported (file:line:column) and the others still run.

  --alias NAME       run this block (repeatable); blocks it references run first
  --env NAME         the user.toml environment to use (default: [general] environment)
  --var NAME=VALUE   a value over the environment's for this run (repeatable); one for a secret
                     variable sets that secret (masked as it is); @name = … in the note still wins;
                     it answers a block's # @prompt NAME (the rest are asked on the terminal)
  --yes              send the blocks that ask to be confirmed (# @note) without asking
  --config PATH      user.toml to read (default: <vault>/.obsidian/plugins/runnable-blocks/user.toml)
  --json             print one JSON array of results on stdout (bodies included)
  --no-cache         do not serve GET/HEAD/OPTIONS from the in-process cache
  --fail-on-status   exit 1 when a response is 4xx or 5xx (like curl --fail)
  --junit FILE       write a JUnit XML report (one test case per ?? assertion) for CI
  --pin              write each response into the note under its block (an http-response fence)
  --check-pins       compare each response with its pin: print the diff and exit 1 when one changed

?? assertions print a ✓ or ✗ line each; a failed one makes the exit code 1.
On a terminal: status, time, size and a body preview per block, in colour (NO_COLOR turns
colour off); piped: one plain line per block and a summary.
Exit: 0 every block finished, 1 a block failed, was cancelled, invalid or skipped, or an assertion failed, 2 usage errors,
130/143 stopped by Ctrl+C/SIGTERM, 141 stdout's reader went away (\`| head\`) (the history of the blocks that ran is written).

A suite: folders, globs ("notes/**/*.md", quoted) or several notes run every note with runnable
blocks, sorted by path (dot-folders and node_modules skipped); so does one note with a suite option.

  --parallel N           run N notes at once (output stays per note, in path order)
  --shard i/n            run this machine's part of the notes (deterministic, by path)
  --durations FILE       balance the shards by the durations a previous run wrote
  --durations-out FILE   write each note's duration (entries of --durations kept for notes not run here)
  --junit FILE           one testsuite per note, one testcase per block
  --report FILE          a self-contained HTML report (summary, waterfall, assertions, pin diffs)
  --max-requests N       send at most N requests in the whole run
  --deadline DURATION    stop the run after DURATION (90s, 5m, 1h30m)
  --bail                 stop at the first block that fails

Suite exit (first that applies): 130/143 a signal; 2 a note could not run (settings, --env) or a
report could not be written; 4 --deadline or --max-requests stopped the run; 1 a block failed
(--bail included); 0 every block passed.`,
	},
	"merge-reports": {
		synopsis: "runnable-blocks merge-reports [--junit FILE] [--report FILE] [--durations-out FILE] <shard report.html | junit.xml>...",
		help: `Joins the shards' outputs of run --shard: JUnit files suite by suite (or, without any, the JUnit
made from the HTML reports' data), HTML reports into one (each shard's waterfall on its own clock),
and the notes' durations for the next run's --durations.
Exit: 0 written, 2 an input cannot be read or is not a report, or an output cannot be written.`,
	},
	parse: {
		synopsis: "runnable-blocks parse <note.md> [--json]",
		help: `Lists the note's runnable blocks with their problems (--json: one object per block).
Exit: 0 no block has errors, 2 a block has errors or the note cannot be read.`,
	},
	export: {
		synopsis: "runnable-blocks export <note.md> --alias NAME --format FORMAT [--env NAME] [--var NAME=VALUE]... [--config user.toml]",
		help: `Prints the block as a snippet with its references replaced by values; blocks it
references are run first (said on stderr), the block itself is not sent. FORMAT is one of the
block's kind's formats (below; docs/export.md). --var NAME=VALUE puts a value over the
environment's, as for run.
Exit: 0 printed, 2 it cannot be exported (the reason on stderr).`,
	},
	import: {
		synopsis: "runnable-blocks import <file.http> [-o note.md] [--config user.toml]",
		help: `Turns a .http or .rest file (VS Code REST Client, httpyac, JetBrains, kulala) into a note:
one http fence per request (split at ### lines), @name = value variables in a fence of their
own, comment lines before a request kept as text. Prints the note, or writes it with -o (never
over an existing file). Blocks that will not run are listed on stderr.
The auth configurations of JetBrains' http-client.env.json and http-client.private.env.json
beside the file ("Security": {"Auth": …}) are added to the user.toml of --config as
[environments.<env>.auth.<name>] (an existing one is kept); secrets become references to fill
in, and each key that does not map is said on stderr.
Exit: 0 imported, 2 the file cannot be read, -o exists or user.toml does not parse.`,
	},
	diff: {
		synopsis: "runnable-blocks diff <note.md> --alias NAME",
		help: `Prints the two panes of the textdiff block NAME as a unified diff (diff -u), compared
under the fence's options (ignore_whitespace, ignore_case, normalize=json).
Exit: 0 the panes are equal, 1 they differ, 2 no such textdiff block, or it has errors.`,
	},
	db: {
		synopsis: "runnable-blocks db schema <connection> [--json] [--config user.toml]",
		help: `Prints a connection's tables and views with their columns, types, nullability and keys.
The connection is a [connections.<name>] of the vault around the current folder (or --config).
Exit: 0 printed, 1 the database could not be read, 2 usage (unknown connection).`,
	},
	demo: {
		synopsis: "runnable-blocks demo",
		help: `Starts the bundled bookshop API on 127.0.0.1 and runs the example vault's notes against it.
Exit: 0 every block ended as its note expects, 1 otherwise.`,
	},
	help: {
		synopsis: "runnable-blocks help [command]",
		help: "Prints the usage, or one command's options. `<command> --help` does the same.",
	},
} as const;

export type CommandName = keyof typeof COMMANDS;

export function isCommand(name: string): name is CommandName {
	return Object.prototype.hasOwnProperty.call(COMMANDS, name);
}

export const USAGE = `usage:
${Object.values(COMMANDS)
	.map((c) => `  ${c.synopsis}`)
	.join("\n")}
  runnable-blocks --version

Exit codes: 0 finished, 1 a block failed (or a 4xx/5xx with --fail-on-status), 2 usage or parse errors, 3 internal error,
4 a suite's --deadline or --max-requests stopped it.
runnable-blocks help <command> describes one command.`;

/** Each exporting kind's formats, as their registry lines declare them: required when export's help is asked for. */
function exportFormats(): string {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the kinds' registry is the export command's, not every command's start
	const { exportingKinds, snippetFormats } = require("../runner/block-runners") as typeof BlockRunners;
	const kinds = exportingKinds();
	const width = Math.max(...kinds.map((k) => k.length));
	return `\n\nFormats, by kind:\n${kinds.map((k) => `  ${k.padEnd(width)}  ${snippetFormats(k).join(", ")}`).join("\n")}`;
}

/** `help <command>` and `<command> --help`. */
export function commandHelp(name: CommandName): string {
	return `usage: ${COMMANDS[name].synopsis}\n\n${COMMANDS[name].help}${name === "export" ? exportFormats() : ""}`;
}
