import type { MarkdownPostProcessorContext, MarkdownRenderChild } from "obsidian";
import type { EditorPanel } from "./editor-panel";
import { blockKey, type BlockLanguage, type NoteBlock } from "../blocks";
import type { BlockHost } from "./block-host";
import type { BlockNotice, FenceViews, RunView } from "./fence-views";
import type * as HttpViews from "./http/http-block-view";
import type * as StreamViews from "./stream/stream-views";
import type * as DbViews from "./db/db-block-view";
import type * as TextdiffViews from "./diff/textdiff-block-view";
import type * as PinnedViews from "./pinned-response-view";

/** How one kind's blocks appear in Obsidian. */
export interface BlockRenderer<B extends NoteBlock = NoteBlock> {
	/** Reading view (and Live Preview outside the block): the code-block processor's child. */
	reading(el: HTMLElement, source: string, ctx: MarkdownPostProcessorContext, host: BlockHost): MarkdownRenderChild;
	/** Source mode (and the block being edited in Live Preview): the panel under the closing fence. */
	editor(block: B, filePath: string, host: BlockHost): EditorPanel;
	/** For a kind sharing another's fence: its runs' own view in that fence's panel (required when first asked for). */
	runView?(): RunView;
	/** For a kind sharing another's fence: what it draws in its block above the panel. */
	notice?: BlockNotice;
}

type RendererRegistry = { readonly [L in BlockLanguage]?: BlockRenderer<Extract<NoteBlock, { kind: L }>> };

/**
 * Each kind's views, required when its first block is shown: main.js carries them as text modules,
 * compiled then rather than at Obsidian's start (docs/architecture.md, "Text modules").
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
const httpViews = () => require("./http/http-block-view") as typeof HttpViews;
const dbViews = () => require("./db/db-block-view") as typeof DbViews;
const textdiffViews = () => require("./diff/textdiff-block-view") as typeof TextdiffViews;
const pinnedViews = () => require("./pinned-response-view") as typeof PinnedViews;
const streamViews = () => require("./stream/stream-views") as typeof StreamViews;
/* eslint-enable @typescript-eslint/no-require-imports -- end of the requires above */

/** What the ```http fence's views ask of the kind of a block or run they show: that kind's renderer answers. */
export const FENCE_VIEWS: FenceViews = {
	runViewOf: (kind) => rendererOfKind(kind)?.runView?.(),
	noticeOf: (kind) => rendererOfKind(kind)?.notice,
};

/** The ```http fence's views, the renderer of every kind whose blocks are written in it; such a kind adds its `runView` and `notice`. */
const httpFence: BlockRenderer = {
	reading: (el, source, ctx, host) => new (httpViews().HttpBlockView)(el, source, ctx, host, FENCE_VIEWS),
	editor: (block, filePath, host) => httpViews().httpEditorPanel(block, filePath, host, FENCE_VIEWS),
};

/**
 * The renderer of each kind, one line per kind. A kind without one is left to Obsidian
 * (shown as a plain code block) and gets no editor panel.
 */
export const BLOCK_RENDERERS: RendererRegistry = {
	http: httpFence,
	sse: { ...httpFence, runView: () => streamViews().STREAM_RUN_VIEW },
	websocket: { ...httpFence, runView: () => streamViews().STREAM_RUN_VIEW, notice: (...args) => streamViews().renderMobileHeadersNotice(...args) },
	db: { reading: (el, source, ctx, host) => new (dbViews().DbBlockView)(el, source, ctx, host), editor: (block, filePath, host) => dbViews().dbEditorPanel(block, filePath, host) },
	textdiff: {
		reading: (el, source, ctx, host) => new (textdiffViews().TextdiffBlockView)(el, source, ctx, host),
		editor: (block, filePath) => ({ identity: [filePath, blockKey(block), block.fence.info, block.fence.content].join("\u0000"), display: "split", mount: (wrap) => new (textdiffViews().TextdiffEditorPanel)(wrap, block) }),
	},
	"http-response": { reading: (el, source, ctx, host) => new (pinnedViews().PinnedResponseView)(el, source, ctx, host), editor: (block, filePath) => pinnedViews().pinnedResponsePanel(block, filePath) },
};

/** The renderer of a block's kind, if it has one. */
export function rendererOf(block: NoteBlock): BlockRenderer | undefined {
	// Each entry takes its own kind's block; `block.kind` picks the entry of the block's kind.
	return BLOCK_RENDERERS[block.kind];
}

/** The renderer of a kind by its name (a run's `kind`), if it has one. */
function rendererOfKind(kind: string): BlockRenderer | undefined {
	return Object.prototype.hasOwnProperty.call(BLOCK_RENDERERS, kind) ? (BLOCK_RENDERERS as Readonly<Record<string, BlockRenderer | undefined>>)[kind] : undefined;
}
