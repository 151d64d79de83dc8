/**
 * What a block asks of the person running it, each time it runs, before anything is sent.
 * `# @prompt name [description]` (REST Client, httpyac, kulala): a value, the block's `{{name}}`
 * for that run, over the block's, the note's and the environment's variables. `# @note [text]`
 * (REST Client, httpyac): a confirmation, for a request not to send by mistake.
 */
import { headOf } from "./run-order";
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

/** The block's prompts in the order written, each name once (the first line of a name says what it is). */
export function promptsOf(block: NoteBlock): Prompt[] {
	const head = headOf(block);
	if (!head) return [];
	const prompts: Prompt[] = [];
	for (let i = 0; i < head.lines.length && head.lines[i].kind !== "request"; i++) {
		if (head.lines[i].kind !== "comment") continue;
		const m = PROMPT.exec(head.lines[i].text);
		if (!m || prompts.some((p) => p.name === m[1])) continue;
		prompts.push({ name: m[1], description: m[2] ?? "", secret: SECRET_NAME.test(m[1]) });
	}
	return prompts;
}

/** The block's `# @note` (the first one): its text, "" when it says nothing, null without one. */
export function confirmationOf(block: NoteBlock): string | null {
	const head = headOf(block);
	if (!head) return null;
	for (let i = 0; i < head.lines.length && head.lines[i].kind !== "request"; i++) {
		if (head.lines[i].kind !== "comment") continue;
		const m = NOTE.exec(head.lines[i].text);
		if (m) return m[1] ?? "";
	}
	return null;
}
