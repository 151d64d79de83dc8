import { askedBy, type NoteBlock, type Prompt } from "../blocks";
import { failedError } from "./failures";
import type { PrepareContext } from "./prepare";
import type { BlockResult } from "./result";

/** What the person (or the command line) said: the values, a closed dialog, or why no one could answer. */
export type PromptReply = { ok: true; values: Readonly<Record<string, string>> } | { ok: false; cancelled: true } | { ok: false; cancelled: false; message: string };

/** What a block asks before it is sent: its `# @prompt` values, and its `# @note` confirmation (null: none). */
export interface PromptQuestion {
	filePath: string;
	block: NoteBlock;
	prompts: readonly Prompt[];
	confirm: string | null;
}

/**
 * Asks a block's question before anything is sent: the plugin's dialog, the CLI's terminal, its
 * `--var` values and `--yes`. Each name of `prompts` has a value in an `ok` reply, which also
 * confirms the block.
 */
export type AskPrompts = (question: PromptQuestion, signal?: AbortSignal) => Promise<PromptReply>;

/**
 * The prepare context of a block with its prompts answered, or the block's result when they are
 * not: a closed dialog cancels it, a host that cannot ask fails it, saying how to give the value.
 * A block without prompts or a note asks nothing.
 */
export async function answerPrompts(block: NoteBlock, prepare: PrepareContext, question: { filePath: string; ask?: AskPrompts; signal?: AbortSignal }): Promise<{ ok: true; prepare: PrepareContext } | { ok: false; result: BlockResult }> {
	const { prompts, confirm } = askedBy(block);
	if (prompts.length === 0 && confirm === null) return { ok: true, prepare };
	const nobody = failedError("prompt_not_answered", undefined, prompts.length > 0 ? `{{${prompts[0].name}}} is asked by # @prompt` : "it asks to be confirmed (# @note)").message;
	const reply: PromptReply = question.ask ? await question.ask({ filePath: question.filePath, block, prompts, confirm }, question.signal) : { ok: false, cancelled: false, message: nobody };
	if (!reply.ok) return { ok: false, result: reply.cancelled ? { state: "cancelled", error: failedError("cancelled", prompts.length > 0 ? "the prompt was closed" : "not confirmed") } : { state: "failed", error: { code: "prompt_not_answered", message: reply.message } } };
	const secret = prompts.filter((p) => p.secret).map((p) => p.name);
	return {
		ok: true,
		prepare: {
			...prepare,
			answers: Object.fromEntries(prompts.map((p) => [p.name, reply.values[p.name] ?? ""])),
			// A hidden answer is masked by where it is substituted, as a secret of the environment is.
			...(secret.length > 0 ? { secretNames: new Set([...(prepare.secretNames ?? []), ...secret]) } : {}),
		},
	};
}

/** Runs each task once the one before it settled: one terminal, one dialog, asking one block at a time. */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
	let last: Promise<unknown> = Promise.resolve();
	return (task) => {
		const run = last.then(task, task);
		last = run;
		return run;
	};
}
