import { scanFences, type Fence } from "./fences";
import { canonicalInfo, parseInfo, ALIAS_PATTERN, type ParsedInfo } from "./info";
import type { BlockKind, TokensOf } from "./kind";
import { kindOf, type AnyBlockKind } from "./kinds";
import { error, hasErrors, type BlockProblem } from "./problems";
import { findReferences, type Reference } from "./references";

/** What every runnable block of a note has, whatever its kind. */
interface BlockBase<L extends string, T> {
	kind: L;
	fence: Fence;
	info: ParsedInfo<T>;
	/** The block's alias: the `alias=` token, else one named in the content (`# @name`), else null. */
	alias: string | null;
	/** Where the alias was written: `info` (the `alias=` token), `name` (in the content), or null without one. */
	aliasSource: "info" | "name" | null;
	/** The fence line as the client would rewrite it (canonical token order). */
	canonicalFenceLine: string;
	/** References in the content, with offsets into the note. */
	references: Reference[];
	/** Problems with 0-based NOTE lines. */
	problems: BlockProblem[];
	/** False when an error prevents running. */
	runnable: boolean;
	/** 0-based position among the note's runnable blocks. */
	index: number;
}

/** The block of one kind: the common fields plus its model under the kind's language (`block.http`). */
export type KindBlock<K> = K extends BlockKind<infer L, infer S, infer M> ? BlockBase<L, TokensOf<S>> & { [P in L]: M } : never;

/**
 * A runnable block of a note, parsed, with problems mapped to note lines: one variant per
 * kind of `BLOCK_KINDS`, so `switch (block.kind)` narrows to its model.
 */
export type NoteBlock = KindBlock<AnyBlockKind>;
export type HttpNoteBlock = Extract<NoteBlock, { kind: "http" }>;
export type DbNoteBlock = Extract<NoteBlock, { kind: "db" }>;

/** The fence line rebuilt from its parts with the info string in canonical order. */
export function canonicalFenceLine(fence: Fence, info: ParsedInfo<unknown>, kind: BlockKind): string {
	const canonical = canonicalInfo(info.words, kind.tokens);
	return `${fence.prefix}${fence.char.repeat(fence.length)}${fence.langWritten}${canonical ? ` ${canonical}` : ""}`;
}

/**
 * Parses every runnable block of a markdown note. Pure: the same text always gives
 * the same blocks. Aliases must be unique within the note: every block after the first
 * that reuses an alias gets a `duplicate_alias` error.
 */
export function parseNote(markdown: string): NoteBlock[] {
	const blocks: NoteBlock[] = [];
	const aliasLines = new Map<string, number>();
	for (const fence of scanFences(markdown)) {
		const kind = kindOf(fence.lang);
		if (!kind) continue;
		const block = parseBlock(kind, fence, blocks.length, markdown);
		if (block.alias !== null) {
			const first = aliasLines.get(block.alias);
			if (first !== undefined) {
				block.problems.push(
					error("duplicate_alias", `Alias "${block.alias}" is already used by the block at line ${first + 1}`, fence.startLine, block.aliasSource === "info" ? Math.max(0, lineAt(markdown, fence.from).text.indexOf("alias=")) : 0),
				);
				block.runnable = false;
			} else {
				aliasLines.set(block.alias, fence.startLine);
			}
		}
		blocks.push(block);
	}
	return blocks;
}

/** The text of the note line starting at or before `offset`. */
function lineAt(markdown: string, offset: number): { start: number; text: string } {
	const start = markdown.lastIndexOf("\n", offset - 1) + 1;
	const end = markdown.indexOf("\n", offset);
	return { start, text: markdown.slice(start, end === -1 ? markdown.length : end).replace(/\r$/, "") };
}

function parseBlock(kind: AnyBlockKind, fence: Fence, index: number, markdown: string): NoteBlock {
	const opening = lineAt(markdown, fence.from);
	const afterLang = fence.from - opening.start + fence.prefix.length + fence.length + fence.langWritten.length;
	const infoColumn = fence.info ? opening.text.indexOf(fence.info, afterLang) : afterLang;
	const info = parseInfo(fence.info, kind.tokens, fence.startLine, infoColumn);
	const problems: BlockProblem[] = [...info.problems];
	if (!fence.terminated) {
		problems.push(error("unterminated_fence", `The ${fence.lang} block is not closed with ${fence.char.repeat(fence.length)}`, fence.startLine));
	}
	/** Note column of a column within content line k: after the container prefix that was stripped. */
	const contentColumn = (k: number, column: number) => (k < fence.contentOffsets.length ? fence.contentOffsets[k] - lineAt(markdown, fence.contentOffsets[k]).start : 0) + column;
	const content = kind.parse(fence.content);
	for (const p of content.problems) problems.push({ ...p, line: fence.startLine + 1 + p.line, column: contentColumn(p.line, p.column) });
	let alias = (info.tokens as { alias?: string }).alias ?? null;
	let aliasSource: NoteBlock["aliasSource"] = alias === null ? null : "info";
	if (alias === null && content.alias !== null) {
		const named = content.alias;
		if (ALIAS_PATTERN.test(named.name)) {
			alias = named.name;
			aliasSource = "name";
		} else {
			const column = contentColumn(named.line, named.column);
			problems.push(error("invalid_token_value", `${named.directive} "${named.name}" is invalid: use letters, digits, "_" and "-"`, fence.startLine + 1 + named.line, column));
		}
	}
	// The model sits under the kind's language (`block.http`). TypeScript cannot follow a computed
	// key through the union of kinds, hence the cast; `kind` and the key come from the same `kind`.
	return {
		kind: kind.language,
		fence,
		info,
		alias,
		aliasSource,
		canonicalFenceLine: canonicalFenceLine(fence, info, kind),
		[kind.language]: content.model,
		references: referencesOf(fence),
		problems,
		runnable: !hasErrors(problems),
		index,
	} as unknown as NoteBlock;
}

/** References of the block content (never of the info string), with note offsets. */
function referencesOf(fence: Fence): Reference[] {
	const refs: Reference[] = [];
	fence.contentLines.forEach((line, k) => {
		const base = fence.contentOffsets[k];
		for (const r of findReferences(line)) refs.push({ ...r, start: base + r.start, end: base + r.end });
	});
	return refs;
}

/** The block whose fence covers a 0-based note line, if any. */
export function blockAtLine(blocks: readonly NoteBlock[], line: number): NoteBlock | undefined {
	return blocks.find((b) => b.fence.startLine <= line && line <= b.fence.endLine);
}
