/** The built CLI as a user runs it: a `node bin/runnable-blocks.js` process, for the integration specs of its commands. */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = resolve(__dirname, "..", "..");
export const CLI = resolve(ROOT, "bin", "runnable-blocks.js");

export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

export interface CliOptions {
	/** Added to this process's environment; an undefined value leaves the variable out. */
	env?: Record<string, string | undefined>;
	cwd?: string;
	timeoutMs?: number;
}

/** For a `beforeAll`: the specs run the build (`npm test` makes it), never the sources. */
export function expectBuiltCli(): void {
	if (!existsSync(resolve(ROOT, "dist", "cli.js"))) throw new Error("dist/cli.js is missing: run `npm run build` first");
}

/** One invocation to its end: a non-zero exit is a result to check, not a throw. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
	try {
		const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 30_000 });
		return { code: 0, stdout, stderr };
	} catch (e) {
		// A process killed (the timeout) has no exit code: -1, which no run of the CLI exits with.
		const failed = e as { code: unknown; stdout: string; stderr: string };
		return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout, stderr: failed.stderr };
	}
}
