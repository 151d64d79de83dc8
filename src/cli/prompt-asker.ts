import { historyAlias, type NoteBlock, type Prompt } from "../blocks";
import { oneAtATime, type AskPrompts, type PromptReply } from "../runner/prompt-answers";

/** A terminal to ask on: what is typed, and where the question goes (stderr, so stdout stays the results). */
export interface PromptTerminal {
	input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
	output: NodeJS.WritableStream & { isTTY?: boolean };
}

const CLEAR_LINE = "\r\x1b[2K";

/** One terminal per process: the notes of a suite run at once still ask one after another. */
const inTurn = oneAtATime();

/**
 * The CLI's answers to what a block asks: `--var NAME=VALUE` gives a `# @prompt` value without
 * asking and `--yes` confirms every `# @note`; the rest is asked on the terminal, one block at a
 * time even when blocks run at once, a hidden value without echo. Without a terminal (CI, a pipe)
 * a block left asking fails, saying which `--var` or `--yes` would answer it.
 */
export function cliPromptAsker(given: Readonly<Record<string, string>>, terminal: PromptTerminal | null, yes = false): AskPrompts {
	return ({ block, prompts, confirm }, signal) => {
		const values: Record<string, string> = {};
		const unanswered: Prompt[] = [];
		for (const p of prompts) {
			if (Object.prototype.hasOwnProperty.call(given, p.name)) values[p.name] = given[p.name];
			else unanswered.push(p);
		}
		const toConfirm = confirm !== null && !yes;
		if (unanswered.length === 0 && !toConfirm) return Promise.resolve({ ok: true, values });
		if (!terminal || terminal.input.isTTY !== true || terminal.output.isTTY !== true) {
			const name = unanswered[0]?.name;
			const message = name !== undefined ? `{{${name}}} is asked by # @prompt, and there is no terminal to ask on: give it with --var ${name}=VALUE` : `${blockName(block)} asks to be confirmed (# @note${confirm ? `: ${confirm}` : ""}), and there is no terminal to ask on: pass --yes to send it`;
			return Promise.resolve({ ok: false, cancelled: false, message });
		}
		return inTurn(async (): Promise<PromptReply> => {
			for (const p of unanswered) {
				if (signal?.aborted) return { ok: false, cancelled: true };
				const answer = await askLine(terminal, `${p.description || p.name}${p.description ? ` (${p.name})` : ""}${p.secret ? " [hidden]" : ""}: `, p.secret, signal);
				if (answer === null) return { ok: false, cancelled: true };
				values[p.name] = answer;
			}
			if (toConfirm) {
				const answer = signal?.aborted ? null : await askLine(terminal, `${confirm ? `${confirm} ` : ""}Send ${blockName(block)}? [y/N] `, false, signal);
				if (answer === null || !/^y(es)?$/i.test(answer.trim())) return { ok: false, cancelled: true };
			}
			return { ok: true, values };
		});
	};
}

const blockName = (block: NoteBlock): string => block.alias ?? historyAlias(block);

/** Reads one line after `question`; null when it is stopped (Ctrl+C, Ctrl+D, the run's signal). */
function askLine(terminal: PromptTerminal, question: string, hidden: boolean, signal?: AbortSignal): Promise<string | null> {
	const { input, output } = terminal;
	// On a line of its own: the run's progress line, which the reporter draws again after, is cleared first.
	output.write(`${CLEAR_LINE}${question}`);
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
						if (!hidden) output.write("\b \b");
					}
					continue;
				}
				if (ch < " ") continue;
				typed += ch;
				if (!hidden) output.write(ch);
			}
		};
		signal?.addEventListener("abort", onAbort);
		input.on("data", onData);
		input.resume();
	});
}
