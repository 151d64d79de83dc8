import { parseArgs } from "node:util";
import { runDemo } from "./commands/demo";
import { exportCommand } from "./commands/export";
import { runParse } from "./commands/parse";
import { runCommand } from "./commands/run";
import { USAGE, UsageError } from "./usage";

type Write = (s: string) => void;

/** Runs one CLI invocation and returns its exit code: 0 ok, 1 a block failed, 2 usage/parse error. */
export async function main(argv: string[], out: Write, err: Write): Promise<number> {
	const [command, ...rest] = argv;
	try {
		switch (command) {
			case "parse": {
				const { values, positionals } = parseArgs({ args: rest, options: { json: { type: "boolean" } }, allowPositionals: true });
				if (positionals.length !== 1) throw new UsageError("parse takes exactly one note: runnable-blocks parse <note.md> [--json]");
				return runParse(positionals[0], values.json === true, out);
			}
			case "run": {
				const { values, positionals } = parseArgs({
					args: rest,
					options: {
						alias: { type: "string", multiple: true },
						env: { type: "string" },
						config: { type: "string" },
						json: { type: "boolean" },
						"no-cache": { type: "boolean" },
					},
					allowPositionals: true,
				});
				if (positionals.length !== 1) throw new UsageError("run takes exactly one note: runnable-blocks run <note.md> [--alias NAME]... [--env NAME] [--config user.toml] [--json] [--no-cache]");
				const { code } = await runCommand(
					{
						file: positionals[0],
						aliases: values.alias ?? [],
						env: values.env,
						config: values.config,
						json: values.json === true,
						noCache: values["no-cache"] === true,
						tty: process.stderr.isTTY === true,
					},
					out,
					err,
				);
				return code;
			}
			case "export": {
				const { values, positionals } = parseArgs({
					args: rest,
					options: { alias: { type: "string" }, format: { type: "string" }, env: { type: "string" }, config: { type: "string" } },
					allowPositionals: true,
				});
				if (positionals.length !== 1 || !values.alias || !values.format) {
					throw new UsageError("export takes one note, --alias and --format: runnable-blocks export <note.md> --alias NAME --format curl|fetch|python|httpie|http [--env NAME]");
				}
				return exportCommand({ file: positionals[0], alias: values.alias, format: values.format, env: values.env, config: values.config }, out, err);
			}
			case "demo":
				if (rest.length > 0) throw new UsageError("demo takes no arguments");
				return runDemo(out, err, process.stderr.isTTY === true);
			case undefined:
			case "help":
			case "--help":
			case "-h":
				out(USAGE + "\n");
				return command === undefined ? 2 : 0;
			default:
				throw new UsageError(`unknown command "${command}"\n${USAGE}`);
		}
	} catch (e) {
		if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
			err(`runnable-blocks: ${(e as Error).message}\n`);
			return 2;
		}
		throw e;
	}
}

/** Process entry: wires stdio and sets the exit code. */
export function runCli(): void {
	void main(process.argv.slice(2), (s) => process.stdout.write(s), (s) => process.stderr.write(s)).then(
		(code) => {
			process.exitCode = code;
		},
		(e: unknown) => {
			process.stderr.write(`runnable-blocks: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
			process.exitCode = 2;
		},
	);
}

if (require.main === module) runCli();
