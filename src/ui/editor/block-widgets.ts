import { RangeSetBuilder, StateField, type EditorState, type Extension } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";
import { editorInfoField, editorLivePreviewField, type Component } from "obsidian";
import type { NoteBlock } from "../../blocks";
import { rendererOf } from "../block-renderers";
import type { EditorPanel } from "../editor-panel";
import type { BlockHost } from "../block-host";
import { blocksOf, noteBlocks } from "./note-blocks";

/** The note's path as Obsidian's editor knows it ("" outside a markdown view, e.g. in tests). */
function filePathOf(state: EditorState): string {
	return state.field(editorInfoField, false)?.file?.path ?? "";
}

function isLivePreview(state: EditorState): boolean {
	return state.field(editorLivePreviewField, false) ?? false;
}

/**
 * The response panel under a block's closing fence. Equal widgets (same note, block and
 * toolbar facts) are kept by CodeMirror across edits, so a running response stays on screen
 * while the block is being typed in.
 */
class PanelWidget extends WidgetType {
	private panel: Component | null = null;

	constructor(private readonly spec: EditorPanel) {
		super();
	}

	override eq(other: PanelWidget): boolean {
		return other.spec.identity === this.spec.identity;
	}

	toDOM(): HTMLElement {
		const wrap = createDiv({ cls: "rb-block rb-editor-panel" });
		wrap.dataset.display = this.spec.display;
		this.panel = this.spec.mount(wrap);
		this.panel.load();
		return wrap;
	}

	override destroy(): void {
		this.panel?.unload();
		this.panel = null;
	}

	override ignoreEvent(): boolean {
		// The panel handles its own clicks and typing (filter box, menus).
		return true;
	}
}

const methodMark = (method: string) => Decoration.mark({ class: `rb-method rb-method-${method.toLowerCase()}` });

/** Widgets for blocks that show source: every block in Source mode; in Live Preview, the one being edited. */
function buildDecorations(state: EditorState, host: BlockHost, blocks: readonly NoteBlock[]): DecorationSet {
	const builder = new RangeSetBuilder<Decoration>();
	const doc = state.doc;
	const livePreview = isLivePreview(state);
	const filePath = filePathOf(state);
	const cursors = state.selection.ranges.map((r) => doc.lineAt(r.head).number - 1);
	for (const block of blocks) {
		const renderer = rendererOf(block);
		if (!renderer) continue;
		if (block.kind === "http") {
			const http = block.http;
			if (http.requestLine >= 0 && http.methodWritten) {
				const from = block.fence.contentOffsets[http.requestLine] + (/^[ \t]*/.exec(http.lines[http.requestLine].text)?.[0].length ?? 0);
				builder.add(from, from + http.methodWritten.length, methodMark(http.method ?? "unknown"));
			}
		}
		const editing = cursors.some((l) => l >= block.fence.startLine && l <= block.fence.endLine);
		if (livePreview && !editing) continue;
		builder.add(
			block.fence.to,
			block.fence.to,
			Decoration.widget({ widget: new PanelWidget(renderer.editor(block, filePath, host)), block: true, side: 1 }),
		);
	}
	return builder.finish();
}

/**
 * CodeMirror extension: response panels under http blocks in Source mode and while editing
 * a block in Live Preview (Reading view and Live Preview outside the block use the code
 * block processor), plus the method word coloured by verb.
 */
export function blockWidgets(host: BlockHost): Extension {
	const build = (state: EditorState) => buildDecorations(state, host, blocksOf(state));
	const widgets = StateField.define<DecorationSet>({
		create: build,
		update(decorations, tr) {
			const modeChanged = isLivePreview(tr.startState) !== isLivePreview(tr.state);
			// The blocks come from the note model (parsed once per change); cursor moves reuse them.
			if (tr.docChanged || tr.selection || modeChanged) return build(tr.state);
			return decorations;
		},
		provide: (field) => EditorView.decorations.from(field),
	});
	return [noteBlocks, widgets];
}
