/**
 * What a block asks of the person running it, each time it runs, before anything is sent.
 * `# @prompt name [description]` (REST Client, httpyac, kulala): a value, the block's `{{name}}`
 * for that run, over the block's, the note's and the environment's variables. `# @note [text]`
 * (REST Client, httpyac): a confirmation, for a request not to send by mistake.
 */
import { leadComments } from "./run-order";
import type { NoteBlock } from "./note";

export interface Prompt {
	name: string;
	/** What the line says after the name ("Your one-time password"), or "" without one. */
	description: string;
	/** Whether what is typed is hidden, and masked wherever the request is shown (a password, a token). */
	secret: boolean;
}

const PROMPT = /^[ \t]*(?:#|\/\/)[ \t]*@prompt[ \t]+([A-Za-z_][A-Za-z0-9_.-]*)(?:[ \t]+(.*?))?[ \t]*$/;
const NOTE = /^[ \t]*(?:#|\/\/)[ \t]*@note(?:[ \t]+(.*?))?[ \t]*$/;

/** REST Client hides the input of `password`, `passwd` and `pass`; tokens, secrets and one-time codes are kept as close. */
const SECRET_NAME = /pass|secret|token|otp|pin(?:code)?$|api[-_.]?key/i;

/**
 * Everything the block asks, read in one pass over its head: its prompts in the order written,
 * each name once (the first line of a name says what it is), and its first `# @note`'s text ("" when
 * it says nothing, null without one).
 */
export function askedBy(block: NoteBlock): { prompts: Prompt[]; confirm: string | null } {
	const prompts: Prompt[] = [];
	let confirm: string | null = null;
	for (const { text } of leadComments(block)) {
		const m = PROMPT.exec(text);
		if (m && !prompts.some((p) => p.name === m[1])) prompts.push({ name: m[1], description: m[2] ?? "", secret: SECRET_NAME.test(m[1]) });
		const note: RegExpExecArray | null = confirm === null ? NOTE.exec(text) : null;
		if (note) confirm = note[1] ?? "";
	}
	return { prompts, confirm };
}

export const promptsOf = (block: NoteBlock): Prompt[] => askedBy(block).prompts;
export const confirmationOf = (block: NoteBlock): string | null => askedBy(block).confirm;
