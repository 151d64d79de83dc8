/** The CLI in-process, its stdout and stderr captured as text: for specs of the commands and of `main`. */
import { main } from "../../src/cli/main";
import type { Terminal } from "../../src/cli/terminal";

export interface Captured {
	out: string;
	err: string;
}

/** Two writers, `out` and `err`, and what each was given so far. */
export function captured(): { text: Captured; out: (s: string) => void; err: (s: string) => void } {
	const text: Captured = { out: "", err: "" };
	return { text, out: (s) => void (text.out += s), err: (s) => void (text.err += s) };
}

/** One `runnable-blocks` invocation, as `main` runs it: its exit code and its output. */
export async function cli(args: string[], terminal?: Terminal): Promise<Captured & { code: number }> {
	const { text, out, err } = captured();
	const code = await main(args, out, err, terminal);
	return { code, ...text };
}
