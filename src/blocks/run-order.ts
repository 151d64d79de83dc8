/**
 * What a block says about its place in a parallel "Run all" (docs/blocks.md, "Running blocks in
 * parallel"): the blocks it must run after (`# @after`), and whether it may change what the
 * server holds, in which case it keeps its place in the note. Each kind declares both of its
 * blocks (`head` and `changesState`, `src/blocks/kind.ts`).
 */
import type { BlockHead } from "./kind";
import { declaredBy } from "./kinds";
import type { NoteBlock } from "./note";

/** `# @after login` / `// @after login, setup`: a comment line of the block's head. */
const AFTER = /^[ \t]*(?:#|\/\/)[ \t]*@after(?:[ \t]+(.*))?$/;

/** The head of a block, whatever its kind (a stream's handshake is read as an http GET): its kind says (`BlockKind.head`). */
export function headOf(block: NoteBlock): BlockHead | null {
	const declared = declaredBy(block);
	return declared?.kind.head?.(declared.model) ?? null;
}

/** The comment lines of a block's head before its request line, where its head directives are written; `index` is the line in the content. */
export function leadComments(block: NoteBlock): Array<{ text: string; index: number }> {
	const head = headOf(block);
	const comments: Array<{ text: string; index: number }> = [];
	for (let i = 0; head && i < head.lines.length && head.lines[i].kind !== "request"; i++) {
		if (head.lines[i].kind === "comment") comments.push({ text: head.lines[i].text, index: i });
	}
	return comments;
}

/** The aliases a block's `# @after` lines name, in order, each once (a comma or a space separates them). */
export function afterAliases(block: NoteBlock): string[] {
	const head = headOf(block);
	if (!head) return [];
	const names = new Set<string>();
	for (const line of head.lines) {
		if (line.kind !== "comment") continue;
		const m = AFTER.exec(line.text);
		if (!m) continue;
		for (const name of (m[1] ?? "").split(/[\s,]+/)) if (name !== "") names.add(name);
	}
	return [...names];
}

/**
 * Whether running the block may change what the server holds: an http method other than the safe
 * ones, a WebSocket (its messages can do anything), a db statement other than a read. Such a block
 * keeps its place in a parallel run: the blocks above it finish first, the blocks below wait for it.
 * A block that cannot run (no method) changes nothing.
 */
export function changesState(block: NoteBlock): boolean {
	const declared = declaredBy(block);
	return declared?.kind.changesState?.(declared.model) ?? false;
}
