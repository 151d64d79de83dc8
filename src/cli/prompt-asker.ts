import type { Prompt } from "../blocks";
import type { AskPrompts, PromptReply } from "../runner/prompt-answers";

/** A terminal to ask on: what is typed, and where the question goes (stderr, so stdout stays the results). */
export interface PromptTerminal {
	input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
	output: NodeJS.WritableStream & { isTTY?: boolean };
}

const CLEAR_LINE = "\r\x1b[2K";

/** One terminal per process: the notes of a suite run at once still ask one after another. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The CLI's `# @prompt` answers: `--var NAME=VALUE` gives a value without asking; the rest are
 * asked on the terminal, one prompt at a time even when blocks run at once, a hidden one without
 * echo. Without a terminal (CI, a pipe) a prompt no `--var` answers fails its block, saying which
 * `--var` would.
 */
export function cliPromptAsker(given: Readonly<Record<string, string>>, terminal: PromptTerminal | null): AskPrompts {
	return ({ prompts }, signal) => {
		const values: Record<string, string> = {};
		const unanswered: Prompt[] = [];
		for (const p of prompts) {
			if (Object.prototype.hasOwnProperty.call(given, p.name)) values[p.name] = given[p.name];
			else unanswered.push(p);
		}
		if (unanswered.length === 0) return Promise.resolve({ ok: true, values });
		if (!terminal || terminal.input.isTTY !== true || terminal.output.isTTY !== true) {
			const name = unanswered[0].name;
			return Promise.resolve({ ok: false, cancelled: false, message: `{{${name}}} is asked by # @prompt, and there is no terminal to ask on: give it with --var ${name}=VALUE` });
		}
		const asked = queue.then(async (): Promise<PromptReply> => {
			for (const p of unanswered) {
				if (signal?.aborted) return { ok: false, cancelled: true };
				const answer = await askOne(terminal, p, signal);
				if (answer === null) return { ok: false, cancelled: true };
				values[p.name] = answer;
			}
			return { ok: true, values };
		});
		queue = asked;
		return asked;
	};
}

/** Reads one line for the prompt; null when it is stopped (Ctrl+C, Ctrl+D, the run's signal). */
function askOne(terminal: PromptTerminal, prompt: Prompt, signal?: AbortSignal): Promise<string | null> {
	const { input, output } = terminal;
	// On a line of its own: the run's progress line, which the reporter draws again after, is cleared first.
	output.write(`${CLEAR_LINE}${prompt.description || prompt.name}${prompt.description ? ` (${prompt.name})` : ""}${prompt.secret ? " [hidden]" : ""}: `);
	// Raw mode: each key arrives as typed, nothing is echoed (a hidden answer), and Ctrl+C is a key, not a signal.
	input.setRawMode?.(true);
	return new Promise((resolve) => {
		let typed = "";
		const end = (answer: string | null) => {
			input.removeListener("data", onData);
			signal?.removeEventListener("abort", onAbort);
			input.setRawMode?.(false);
			input.pause();
			output.write("\n");
			resolve(answer);
		};
		const onAbort = () => end(null);
		const onData = (chunk: Buffer | string) => {
			for (const ch of String(chunk)) {
				if (ch === "\r" || ch === "\n") return end(typed);
				if (ch === "\u0003" || ch === "\u0004") return end(null);
				if (ch === "\u007f" || ch === "\b") {
					if (typed.length > 0) {
						typed = [...typed].slice(0, -1).join("");
						if (!prompt.secret) output.write("\b \b");
					}
					continue;
				}
				if (ch < " ") continue;
				typed += ch;
				if (!prompt.secret) output.write(ch);
			}
		};
		signal?.addEventListener("abort", onAbort);
		input.on("data", onData);
		input.resume();
	});
}
