import { parseArgs } from "node:util";
import { runParse } from "./commands/parse";
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
