import type { MarkdownPostProcessorContext } from "obsidian";
import { blockKey, editableRequest, parseHttpBlock, writeCanonicalRequest, type CanonicalRequest, type DisplayMode, type EditMode, type HttpBlock, type NoteBlock } from "../../blocks";
import { blockActions } from "../block-actions";
import type { BlockHost } from "../block-host";
import { BlockReadingView } from "../block-reading-view";
import { prepareRunsWhenIdle } from "../prepare-runs";
import type { EditorPanel } from "../editor-panel";
import { exportHooks } from "../export-actions";
import type { FenceViews } from "../fence-views";
import { FormEditor } from "../panel/form-editor";
import { ResponsePanel, type PanelActions, type PanelBlockInfo } from "../panel/response-panel";
import { snippetFormats } from "../../runner/engine";

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

/** The tokens the response panel reads: http's (a textdiff block's `mode` is its diff view). */
function panelTokens(block: NoteBlock | undefined): { mode?: EditMode; display?: DisplayMode } {
	return block?.kind === "http" ? block.info.tokens : {};
}

function panelInfo(block: NoteBlock, runKey: string): PanelBlockInfo {
	return {
		method: block.kind === "http" ? block.http.method : null,
		editMode: panelTokens(block).mode ?? "raw",
		display: panelTokens(block).display ?? "split",
		alias: block.alias,
		runKey,
		exportFormats: snippetFormats(block.kind),
	};
}

/** The toolbar's actions of an http block. `note`: the note it was rendered from, when the view has it. */
function httpActions(host: BlockHost, filePath: string, block: NoteBlock, note?: readonly NoteBlock[]): PanelActions {
	return blockActions(host.app, host.engine, host.notes, exportHooks(host.engine, host.services), filePath, block, note, () => [...host.services.environment().secretValues, ...host.engine.auth.values()]);
}

/** Writes a form-mode edit back to the block as canonical text. */
function writeRequest(host: BlockHost, filePath: string, block: NoteBlock, request: CanonicalRequest): void {
	const key = blockKey(block);
	void host.notes.edit(filePath, (text) => {
		const current = host.notes.ofText(text).find((b) => blockKey(b) === key);
		return current ? writeCanonicalRequest(text, current, request) : null;
	});
}

/**
 * A block of an ```http fence (http's, or of a kind that claims the fence) in Reading view or Live
 * Preview (cursor outside the block): the block text, its problems, its kind's notice, and the
 * response panel bound to the note's session store. `views`: what its kind adds, from the registry.
 */
export class HttpBlockView extends BlockReadingView {
	constructor(containerEl: HTMLElement, source: string, ctx: MarkdownPostProcessorContext, host: BlockHost, private readonly views: FenceViews) {
		super(containerEl, source, ctx, host);
	}

	override onload(): void {
		const located = this.locate();
		const block = located?.block;
		const root = this.containerEl.createDiv({ cls: "rb-block" });
		root.dataset.display = panelTokens(block).display ?? "split";
		const request = block && panelTokens(block).mode === "form" ? editableRequest(block) : null;
		const http = block?.kind === "http" ? block.http : parseHttpBlock(this.source);
		this.renderHead(root, block);
		if (request === null) renderSource(root, this.source, http);
		this.renderProblems(root, block ? block.problems : http.problems);
		if (!block) return;
		if (request) this.addChild(new FormEditor(root, request, (req) => writeRequest(this.host, this.filePath, block, req)));
		this.views.noticeOf(block.kind)?.(root, this.host, this.filePath, block);
		const session = this.host.session(this.filePath);
		this.addChild(new ResponsePanel(root, session, blockKey(block), panelInfo(block, this.host.runKeyLabel()), httpActions(this.host, this.filePath, block, located?.note), this.views));
		prepareRunsWhenIdle(this.host.engine, block);
	}
}

/** The panel under an ```http fence's closing fence in Source mode (and Live Preview while editing it), whatever kind claimed it. */
export function httpEditorPanel(block: NoteBlock, filePath: string, host: BlockHost, views: FenceViews): EditorPanel {
	const info = panelInfo(block, host.runKeyLabel());
	return {
		identity: [filePath, blockKey(block), info.method, info.editMode, info.display, info.alias].join("\u0000"),
		display: info.display,
		mount: (wrap) => {
			views.noticeOf(block.kind)?.(wrap, host, filePath, block);
			prepareRunsWhenIdle(host.engine, block);
			return new ResponsePanel(wrap, host.session(filePath), blockKey(block), info, httpActions(host, filePath, block), views);
		},
	};
}
