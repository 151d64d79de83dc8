/** How the terminal may be written to: decided once from the streams and the environment. */
export interface Terminal {
	/** stdout is a terminal (or FORCE_COLOR asks for one): a preview of each body. */
	rich: boolean;
	/** ANSI colour: a rich terminal without NO_COLOR (https://no-color.org). */
	colour: boolean;
	/** stderr is a terminal: the live progress line. */
	progress: boolean;
}

/** Pipes and tests: plain lines only. */
export const PLAIN: Terminal = { rich: false, colour: false, progress: false };

const set = (v: string | undefined): boolean => v !== undefined && v !== "";

export function terminalOf(env: NodeJS.ProcessEnv = process.env, stdoutTty = process.stdout.isTTY === true, stderrTty = process.stderr.isTTY === true): Terminal {
	const rich = stdoutTty || (set(env.FORCE_COLOR) && env.FORCE_COLOR !== "0");
	return { rich, colour: rich && !set(env.NO_COLOR), progress: stderrTty };
}
