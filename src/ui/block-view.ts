import { MarkdownRenderChild, type MarkdownPostProcessorContext } from "obsidian";
import { blockAtLine, blockKey, editableRequest, parseHttpBlock, type BlockProblem, type CanonicalRequest, type DisplayMode, type EditMode, type HttpBlock, type NoteBlock } from "../blocks";
import { FormEditor } from "./panel/form-editor";
import { t } from "./strings";
import { ResponsePanel, type PanelActions, type PanelBlockInfo } from "./panel/response-panel";
import type { NoteSession } from "../runner/session";
import type { DbPanelActions } from "./db/db-panel";

/** What a rendered block needs from the plugin. */
export interface BlockHost {
	session(filePath: string): NoteSession;
	/** The blocks of a note's text, parsed once per text (the plugin's note model). */
	blocksOf(text: string): readonly NoteBlock[];
	/** `note`: the note the block was rendered from, when the view has it. */
	actions(filePath: string, block: NoteBlock, note?: readonly NoteBlock[]): PanelActions;
	/** Writes a form-mode edit back to the block as canonical text. */
	writeRequest(filePath: string, block: NoteBlock, request: CanonicalRequest): void;
	runKeyLabel(): string;
	/** A db block's panel actions (run, cancel, EXPLAIN, load more). */
	dbActions(filePath: string, block: NoteBlock): DbPanelActions;
	/** Writes a textdiff pane's text into the block `key` of the note (one undo step). */
	writeTextdiffPane(filePath: string, key: string, pane: "left" | "right", text: string): Promise<void>;
}

/** Finds the note block this element renders, so note-level rules (duplicate aliases, tokens) apply. */
export function locateBlock(el: HTMLElement, ctx: MarkdownPostProcessorContext, host: Pick<BlockHost, "blocksOf">): NoteBlock | undefined {
	return locateInNote(el, ctx, host)?.block;
}

/** The same, with the note it was found in. */
function locateInNote(el: HTMLElement, ctx: MarkdownPostProcessorContext, host: Pick<BlockHost, "blocksOf">): { note: readonly NoteBlock[]; block: NoteBlock | undefined } | undefined {
	const section = ctx.getSectionInfo(el);
	if (!section) return undefined;
	const note = host.blocksOf(section.text);
	return { note, block: blockAtLine(note, section.lineStart) };
}

/**
 * The block as written, with the method word coloured by verb as the editor colours it. The
 * request appears here (the block itself) and on the Raw tab (what went on the wire), nowhere else.
 */
function renderSource(root: HTMLElement, source: string, http: HttpBlock): void {
	const pre = root.createEl("pre", { cls: "rb-source" });
	const request = http.lines[http.requestLine];
	const written = http.lines.map((l) => l.text + l.eol).join("");
	if (!request || written !== source) {
		pre.setText(source);
		return;
	}
	pre.appendText(http.lines.slice(0, http.requestLine).map((l) => l.text + l.eol).join(""));
	const indent = /^[ \t]*/.exec(request.text)?.[0] ?? "";
	let rest = request.text.slice(indent.length);
	pre.appendText(indent);
	if (http.methodWritten && rest.startsWith(http.methodWritten)) {
		pre.createSpan({ cls: `rb-method rb-method-${(http.method ?? "unknown").toLowerCase()}`, text: http.methodWritten });
		rest = rest.slice(http.methodWritten.length);
	}
	pre.appendText(rest + request.eol);
	pre.appendText(http.lines.slice(http.requestLine + 1).map((l) => l.text + l.eol).join(""));
}

function renderHeader(root: HTMLElement, source: string, block: NoteBlock | undefined, showSource = true): void {
	const http = block?.kind === "http" ? block.http : parseHttpBlock(source);
	const problems: BlockProblem[] = block ? block.problems : http.problems;
	if (block?.alias) root.createDiv({ cls: "rb-block-head" }).createSpan({ cls: "rb-alias", text: `alias ${block.alias}` });
	if (showSource) renderSource(root, source, http);
	if (problems.length > 0) {
		const list = root.createEl("ul", { cls: "rb-problems" });
		for (const p of problems) list.createEl("li", { cls: `rb-problem-${p.severity}`, text: `${t("line", { n: p.line + 1 })}: ${p.code === "script_not_run" ? t("scriptNotRun") : p.message}` });
	}
}

/** The tokens the response panel reads: http's (a textdiff block's `mode` is its diff view). */
function panelTokens(block: NoteBlock | undefined): { mode?: EditMode; display?: DisplayMode } {
	return block?.kind === "http" ? block.info.tokens : {};
}

export function panelInfo(block: NoteBlock, runKey: string): PanelBlockInfo {
	return {
		method: block.kind === "http" ? block.http.method : null,
		editMode: panelTokens(block).mode ?? "raw",
		display: panelTokens(block).display ?? "split",
		alias: block.alias,
		runKey,
	};
}

/**
 * An http block in Reading view or Live Preview (cursor outside the block): the block text,
 * its problems, and the response panel bound to the note's session store.
 */
export class HttpBlockView extends MarkdownRenderChild {
	constructor(
		containerEl: HTMLElement,
		private readonly source: string,
		private readonly ctx: MarkdownPostProcessorContext,
		private readonly host: BlockHost,
	) {
		super(containerEl);
	}

	override onload(): void {
		const located = locateInNote(this.containerEl, this.ctx, this.host);
		const block = located?.block;
		const root = this.containerEl.createDiv({ cls: "rb-block" });
		root.dataset.display = panelTokens(block).display ?? "split";
		const request = block && panelTokens(block).mode === "form" ? editableRequest(block) : null;
		renderHeader(root, this.source, block, request === null);
		if (!block) return;
		if (request) this.addChild(new FormEditor(root, request, (req) => this.host.writeRequest(this.ctx.sourcePath, block, req)));
		const session = this.host.session(this.ctx.sourcePath);
		this.addChild(new ResponsePanel(root, session, blockKey(block), panelInfo(block, this.host.runKeyLabel()), this.host.actions(this.ctx.sourcePath, block, located?.note)));
	}
}
