import { MarkdownRenderChild, type MarkdownPostProcessorContext } from "obsidian";
import { blockAtLine, type BlockProblem, type NoteBlock } from "../blocks";
import type { BlockHost } from "./block-host";
import { t } from "./strings";

/**
 * What every kind's Reading view (and Live Preview outside the block) shares: finding the note
 * block it renders, so note-level rules (duplicate aliases, tokens) apply, its alias line and its
 * problem list. A kind's view adds its own body in `onload`.
 */
export abstract class BlockReadingView extends MarkdownRenderChild {
	constructor(
		containerEl: HTMLElement,
		protected readonly source: string,
		protected readonly ctx: MarkdownPostProcessorContext,
		protected readonly host: BlockHost,
	) {
		super(containerEl);
	}

	protected get filePath(): string {
		return this.ctx.sourcePath;
	}

	/** The note this element was rendered from, and its block here; undefined without section info. */
	protected locate(): { note: readonly NoteBlock[]; block: NoteBlock | undefined } | undefined {
		const section = this.ctx.getSectionInfo(this.containerEl);
		if (!section) return undefined;
		const note = this.host.notes.ofText(section.text);
		return { note, block: blockAtLine(note, section.lineStart) };
	}

	/** The alias line, when the block has an alias or `always` (a kind that adds its own items to it). */
	protected renderHead(root: HTMLElement, block: NoteBlock | undefined, always = false): HTMLElement | null {
		if (!block?.alias && !always) return null;
		const head = root.createDiv({ cls: "rb-block-head" });
		if (block?.alias) head.createSpan({ cls: "rb-alias", text: `alias ${block.alias}` });
		return head;
	}

	protected renderProblems(root: HTMLElement, problems: readonly BlockProblem[]): void {
		if (problems.length === 0) return;
		const list = root.createEl("ul", { cls: "rb-problems" });
		for (const p of problems) list.createEl("li", { cls: `rb-problem-${p.severity}`, text: `${t("line", { n: p.line + 1 })}: ${p.code === "script_not_run" ? t("scriptNotRun") : p.message}` });
	}
}
