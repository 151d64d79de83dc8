import type { MarkdownPostProcessorContext } from "obsidian";
import { blockAtLine, parseHttpBlock, parseNote, type BlockProblem, type NoteBlock } from "../blocks";

/**
 * Renders what the plugin understood of an http block: method, URL, alias and problems.
 * It is the block header the response panel attaches to.
 */
export function renderBlockPreview(source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext): void {
	const block = locateBlock(source, el, ctx);
	const http = block?.http ?? parseHttpBlock(source);
	const problems: BlockProblem[] = block ? block.problems : http.problems;
	const root = el.createDiv({ cls: "rb-block" });
	const head = root.createDiv({ cls: "rb-block-head" });
	const method = http.method ?? http.methodWritten ?? "?";
	head.createSpan({ cls: `rb-method rb-method-${method.toLowerCase()}`, text: method });
	head.createSpan({ cls: "rb-url", text: http.url });
	if (block?.alias) head.createSpan({ cls: "rb-alias", text: `alias ${block.alias}` });
	root.createEl("pre", { cls: "rb-source", text: source });
	if (problems.length > 0) {
		const list = root.createEl("ul", { cls: "rb-problems" });
		for (const p of problems) {
			list.createEl("li", { cls: `rb-problem-${p.severity}`, text: `Line ${p.line + 1}: ${p.message}` });
		}
	}
}

/** Finds the note block this element renders, so note-level rules (duplicate aliases, tokens) apply. */
function locateBlock(source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext): NoteBlock | undefined {
	const section = ctx.getSectionInfo(el);
	if (!section) return undefined;
	return blockAtLine(parseNote(section.text), section.lineStart);
}
