import { eachFence, scanLines, stringLines, textOf, type Fence, type LineSource } from "./fences";
import { canonicalInfo, parseInfo, ALIAS_PATTERN, type ParsedInfo } from "./info";
import type { BlockKind, TokensOf } from "./kind";
import { kindOfFence, type AnyBlockKind } from "./kinds";
import { error, hasErrors, type BlockProblem } from "./problems";
import { addReferences, malformedReferenceMessage, type Reference } from "./references";

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
export type TextdiffBlock = Extract<NoteBlock, { kind: "textdiff" }>;
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
	forEachBlock(markdown, (block) => blocks.push(block));
	return blocks;
}

/**
 * The blocks of `parseNote`, handed to `visit` one at a time as they are read, the note-wide
 * rules applied: nothing of the note is kept but the aliases seen, so a reader that keeps
 * nothing either (the CLI's `parse` printing each block) reads a long note in little memory.
 */
export function forEachBlock(markdown: string, visit: (block: NoteBlock) => void): void {
	const lines = stringLines(markdown);
	const aliasLines = new Map<string, number>();
	let index = 0;
	eachFence(markdown, (fence) => {
		const kind = kindOfFence(fence);
		if (kind) visit(withAliasRule(parseFence(kind, fence, index++, lines), aliasLines, lines));
	});
}

/** A note's fences and blocks, kept so that an edit can reparse only what it touched (`reparseNote`). */
export interface NoteParse {
	/** Every fence of the note, runnable or not, in order. */
	fences: readonly Fence[];
	/** Per fence: its block before the note-wide rules (unique aliases), or null for a fence that is not ours. */
	local: ReadonlyArray<NoteBlock | null>;
	/** The note's blocks: `local` with the note-wide rules applied. */
	blocks: NoteBlock[];
}

/** Parses a note read as lines. */
export function parseNoteLines(lines: LineSource): NoteParse {
	const { fences } = scanLines(lines, 0);
	const local: Array<NoteBlock | null> = [];
	let index = 0;
	for (const fence of fences) {
		const kind = kindOfFence(fence);
		local.push(kind ? parseFence(kind, fence, index++, lines) : null);
	}
	return withNoteRules(fences, local, lines);
}

/**
 * Applies the note-wide rules to the blocks of each fence: a block reusing an earlier block's
 * alias gets `duplicate_alias` and does not run. A block the rules leave alone is kept as it is.
 */
export function withNoteRules(fences: readonly Fence[], local: ReadonlyArray<NoteBlock | null>, lines: LineSource): NoteParse {
	const blocks: NoteBlock[] = [];
	const aliasLines = new Map<string, number>();
	for (const block of local) if (block !== null) blocks.push(withAliasRule(block, aliasLines, lines));
	return { fences, local, blocks };
}

/** The block, or a copy with `duplicate_alias` when an earlier block (in `aliasLines`: alias → line) has its alias. */
function withAliasRule(block: NoteBlock, aliasLines: Map<string, number>, lines: LineSource): NoteBlock {
	const { alias, fence } = block;
	const first = alias === null ? undefined : aliasLines.get(alias);
	if (alias !== null && first === undefined) aliasLines.set(alias, fence.startLine);
	if (first === undefined) return block;
	const column = block.aliasSource === "info" ? Math.max(0, lines.line(fence.startLine).text.indexOf("alias=")) : 0;
	const duplicate = error("duplicate_alias", `Alias "${alias}" is already used by the block at line ${first + 1}`, fence.startLine, column);
	return { ...block, problems: [...block.problems, duplicate], runnable: false };
}

/** Parses one fence of a kind into its block, without the note-wide rules. */
export function parseFence(kind: AnyBlockKind, fence: Fence, index: number, lines: LineSource): NoteBlock {
	const infoColumn = infoColumnOf(fence, lines);
	const info = parseInfo(fence.info, kind.tokens, fence.startLine, infoColumn);
	// Indexed loops and plain literals, no spreads or for-of: a one-shot parse (the CLI) runs most
	// of this in the interpreter, where each iteration step and spread is a call (issue 19).
	const problems: BlockProblem[] = info.problems.slice();
	if (!fence.terminated) {
		problems.push(error("unterminated_fence", `The ${fence.lang} block is not closed with ${fence.char.repeat(fence.length)}`, fence.startLine));
	}
	/** Note column of a column within content line k: after the container prefix that was stripped. */
	const contentColumn = (k: number, column: number) => (k < fence.contentOffsets.length ? fence.contentOffsets[k] - lines.line(fence.startLine + 1 + k).from : 0) + column;
	const content = kind.parse(fence.content, fence.contentLines);
	for (let k = 0; k < content.problems.length; k++) {
		const p = content.problems[k];
		problems.push({ code: p.code, message: p.message, line: fence.startLine + 1 + p.line, column: contentColumn(p.line, p.column), severity: p.severity });
	}
	let alias = (kind as BlockKind).aliasNamesAnother ? null : ((info.tokens as { alias?: string }).alias ?? null);
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
	const references = referencesOf(fence);
	addMalformedNoteReferences(references, fence, lines, problems);
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
		references,
		problems,
		runnable: !hasErrors(problems),
		index,
	} as unknown as NoteBlock;
}

/** Where the info string starts on the fence line (the first match at or after the language word, as written). */
function infoColumnOf(fence: Fence, lines: LineSource): number {
	const text = textOf(lines);
	// A string's opening line is read in place: no walk to the line, no line object (every block asks).
	const bom = text === null ? 0 : fence.startLine === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
	const lineFrom = text === null ? lines.line(fence.startLine).from : fence.from - bom;
	const afterLang = fence.from - lineFrom + fence.prefix.length + fence.length + fence.langWritten.length;
	if (!fence.info) return afterLang;
	// The info string lies on the line past `afterLang`: its first match from there is on the line too.
	return text === null ? lines.line(fence.startLine).text.indexOf(fence.info, afterLang) : text.indexOf(fence.info, lineFrom + afterLang) - lineFrom;
}

/** References of the block content (never of the info string), with note offsets. */
function referencesOf(fence: Fence): Reference[] {
	const refs: Reference[] = [];
	const { contentLines, contentOffsets } = fence;
	for (let k = 0; k < contentLines.length; k++) {
		// Most lines hold none: skip them before allocating a result.
		if (contentLines[k].includes("{{")) addReferences(contentLines[k], contentOffsets[k], refs);
	}
	return refs;
}

/** A malformed `{{[[Note]]#…}}` is an error on its line: it can never resolve, and the form is easy to get wrong. */
function addMalformedNoteReferences(refs: readonly Reference[], fence: Fence, lines: LineSource, problems: BlockProblem[]): void {
	for (let i = 0; i < refs.length; i++) {
		const message = malformedReferenceMessage(refs[i]);
		if (message === null) continue;
		let k = 0;
		while (k + 1 < fence.contentOffsets.length && fence.contentOffsets[k + 1] <= refs[i].start) k++;
		const line = lines.line(fence.startLine + 1 + k);
		problems.push(error("invalid_reference", message, fence.startLine + 1 + k, refs[i].start - line.from));
	}
}

/** The block whose fence covers a 0-based note line, if any. */
export function blockAtLine(blocks: readonly NoteBlock[], line: number): NoteBlock | undefined {
	return blocks.find((b) => b.fence.startLine <= line && line <= b.fence.endLine);
}
