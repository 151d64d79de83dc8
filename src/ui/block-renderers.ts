import type { MarkdownPostProcessorContext, MarkdownRenderChild } from "obsidian";
import type { EditorPanel } from "./editor-panel";
import { blockKey, type BlockLanguage, type NoteBlock } from "../blocks";
import type { BlockHost } from "./block-host";
import { HttpBlockView, httpEditorPanel } from "./http/http-block-view";
import { DbBlockView, dbEditorPanel } from "./db/db-block-view";
import { TextdiffBlockView, TextdiffEditorPanel } from "./diff/textdiff-block-view";

/** How one kind's blocks appear in Obsidian. */
export interface BlockRenderer<B extends NoteBlock = NoteBlock> {
	/** Reading view (and Live Preview outside the block): the code-block processor's child. */
	reading(el: HTMLElement, source: string, ctx: MarkdownPostProcessorContext, host: BlockHost): MarkdownRenderChild;
	/** Source mode (and the block being edited in Live Preview): the panel under the closing fence. */
	editor(block: B, filePath: string, host: BlockHost): EditorPanel;
}

type RendererRegistry = { readonly [L in BlockLanguage]?: BlockRenderer<Extract<NoteBlock, { kind: L }>> };

/**
 * The renderer of each kind, one line per kind. A kind without one is left to Obsidian
 * (shown as a plain code block) and gets no editor panel.
 */
export const BLOCK_RENDERERS: RendererRegistry = {
	http: { reading: (el, source, ctx, host) => new HttpBlockView(el, source, ctx, host), editor: httpEditorPanel },
	// The stream kinds are ```http fences: the http view, whose panel shows a stream's run in the stream panel.
	sse: { reading: (el, source, ctx, host) => new HttpBlockView(el, source, ctx, host), editor: httpEditorPanel },
	websocket: { reading: (el, source, ctx, host) => new HttpBlockView(el, source, ctx, host), editor: httpEditorPanel },
	db: { reading: (el, source, ctx, host) => new DbBlockView(el, source, ctx, host), editor: dbEditorPanel },
	textdiff: {
		reading: (el, source, ctx, host) => new TextdiffBlockView(el, source, ctx, host),
		editor: (block, filePath) => ({ identity: [filePath, blockKey(block), block.fence.info, block.fence.content].join("\u0000"), display: "split", mount: (wrap) => new TextdiffEditorPanel(wrap, block) }),
	},
};

/** The renderer of a block's kind, if it has one. */
export function rendererOf(block: NoteBlock): BlockRenderer | undefined {
	// Each entry takes its own kind's block; `block.kind` picks the entry of the block's kind.
	return BLOCK_RENDERERS[block.kind];
}
