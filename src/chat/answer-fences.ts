import { parseNote, scanFences } from "../blocks";

/** A code fence of an answer, as the panel offers it (Copy, Insert below cursor). */
export interface AnswerFence {
	lang: string;
	/** The whole fence, opening and closing lines included. */
	text: string;
	/** True for http and db: inserted, it becomes a runnable block. */
	runnable: boolean;
}

export function answerFences(answer: string): AnswerFence[] {
	const lines = answer.replace(/\r\n?/g, "\n").split("\n");
	return scanFences(answer.replace(/\r\n?/g, "\n")).map((f) => {
		const text = lines.slice(f.startLine, f.endLine + 1).join("\n");
		return { lang: f.lang, text, runnable: f.lang === "http" || f.lang === "db" };
	});
}

/**
 * The fence as it goes into a note: when its alias is already used there (or by another block
 * being inserted), the alias becomes `name-2`, `name-3`… in the `alias=` token or the `# @name`
 * line where it was written, so the inserted block runs instead of failing as a duplicate.
 */
export function insertableFence(fence: string, noteText: string): { text: string; alias: string | null; renamedFrom: string | null } {
	const used = new Set(parseNote(noteText).map((b) => b.alias).filter((a): a is string => a !== null));
	const block = parseNote(fence)[0];
	if (!block?.alias || !used.has(block.alias)) return { text: fence, alias: block?.alias ?? null, renamedFrom: null };
	const old = block.alias;
	let n = 2;
	while (used.has(`${old}-${n}`)) n++;
	const alias = `${old}-${n}`;
	const lines = fence.split("\n");
	if (block.aliasSource === "info") lines[0] = lines[0].replace(new RegExp(`(^|\\s)alias=${escape(old)}(?=\\s|$)`), `$1alias=${alias}`);
	else {
		const at = lines.findIndex((l) => new RegExp(`^\\s*(#|//)\\s*@name\\s+${escape(old)}\\s*$`).test(l));
		if (at >= 0) lines[at] = lines[at].replace(new RegExp(`${escape(old)}(\\s*)$`), `${alias}$1`);
	}
	return { text: lines.join("\n"), alias, renamedFrom: old };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
