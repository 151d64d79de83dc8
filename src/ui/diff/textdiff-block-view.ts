import { Component } from "obsidian";
import { blockKey, paneEdit, parseTextdiff, type NoteBlock, type NoteChange, type TextdiffBlock, type TextdiffOptions } from "../../blocks";
import { BlockReadingView } from "../block-reading-view";
import type { DiffPanes, Pane } from "./diff-panes";
import { withDiffPanes } from "./lazy-diff";
import { textdiffOptionsOf } from "./textdiff-options";

/** Typing pauses this long before a pane's text is written to the note. */
const WRITE_DELAY_MS = 300;

/**
 * The panes on screen per block (note path, block key, options). Writing to the note makes
 * Obsidian render the block again; the new view takes over panes typed in a moment ago, so
 * focus, cursor and the pane's own undo history survive the write.
 */
const mounted = new Map<string, { panes: DiffPanes; owner: TextdiffBlockView | null }>();
/** How recent a pane edit must be for a new view to take the panes over. */
const ADOPT_WITHIN_MS = 2000;

/** The note changes that put `text` into one pane of the textdiff block `key` of `note` (whose blocks are `blocks`; none when it is gone). */
export function textdiffPaneChanges(note: string, blocks: readonly NoteBlock[], key: string, pane: Pane, text: string): NoteChange[] {
	const block = blocks.find((b) => b.kind === "textdiff" && blockKey(b) === key);
	return block ? paneEdit(note, block.fence, pane, text) : [];
}

/**
 * A ```` ```textdiff ```` block in Reading view and Live Preview: its alias and problems, then
 * the two panes compared (DiffPanes). Editing a pane writes it back into the fence.
 */
export class TextdiffBlockView extends BlockReadingView {
	private panes: DiffPanes | null = null;
	private key = "";
	private pending = new Map<Pane, string>();
	private timer: number | null = null;

	override onload(): void {
		const block = this.locate()?.block;
		const root = this.containerEl.createDiv({ cls: "rb-block rb-textdiff" });
		// The note's parse has the block; alone (no section info) the fence content is read here.
		const { model, problems } = block?.kind === "textdiff" ? { model: block.textdiff, problems: block.problems } : parseTextdiff(this.source);
		const options: TextdiffOptions = textdiffOptionsOf(block);
		this.renderHead(root, block);
		this.renderProblems(root, problems);
		this.key = block ? blockKey(block) : "";
		const id = `${this.filePath}\u0000${this.key}\u0000${JSON.stringify(options)}`;
		const current = block ? mounted.get(id) : undefined;
		const attach = (panes: DiffPanes) => {
			this.panes = panes;
			panes.onEdit = (pane, text) => this.edited(pane, text);
		};
		if (current && current.panes.editedWithin(ADOPT_WITHIN_MS)) {
			current.owner = this;
			root.appendChild(current.panes.el);
			current.panes.setTexts(model.left, model.right);
			current.panes.restoreFocus();
			attach(current.panes);
		} else {
			this.register(
				withDiffPanes((Panes) => {
					const panes = new Panes(root, { left: model.left, right: model.right, options, editable: block !== undefined });
					if (block) mounted.set(id, { panes, owner: this });
					attach(panes);
				}),
			);
		}
		this.register(() => this.release(id));
	}

	private edited(pane: Pane, text: string): void {
		this.pending.set(pane, text);
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = window.setTimeout(() => void this.flush(), WRITE_DELAY_MS);
	}

	/** Writes what was typed; the panes stay as they are (the note now matches them). */
	private async flush(): Promise<void> {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		const pending = [...this.pending];
		this.pending.clear();
		const { notes } = this.host;
		for (const [pane, text] of pending) await notes.editAll(this.filePath, (note) => textdiffPaneChanges(note, notes.ofText(note), this.key, pane, text));
	}

	/** On unload: write what is pending; the panes go unless a newer view of the block took them over. */
	private release(id: string): void {
		if (this.pending.size > 0) void this.flush();
		const panes = this.panes;
		this.panes = null;
		const entry = mounted.get(id);
		if (entry?.panes === panes && entry.owner !== this) return;
		if (entry?.panes === panes && panes.editedWithin(ADOPT_WITHIN_MS)) {
			// Kept a moment for the view Obsidian renders after our write; then let go.
			entry.owner = null;
			window.setTimeout(() => {
				if (mounted.get(id) !== entry || entry.owner !== null) return;
				mounted.delete(id);
				panes?.destroy();
			}, ADOPT_WITHIN_MS);
			return;
		}
		if (entry?.panes === panes) mounted.delete(id);
		panes?.destroy();
	}
}

/**
 * Under the fence while its source is on screen (Source mode, Live Preview while editing the
 * block): the same comparison, read-only, following the text as it is typed.
 */
export class TextdiffEditorPanel extends Component {
	private panes: DiffPanes | null = null;

	constructor(
		private readonly wrap: HTMLElement,
		private readonly block: TextdiffBlock,
	) {
		super();
	}

	override onload(): void {
		const { left, right } = this.block.textdiff;
		this.register(withDiffPanes((Panes) => (this.panes = new Panes(this.wrap, { left, right, options: textdiffOptionsOf(this.block), editable: false }))));
	}

	override onunload(): void {
		this.panes?.destroy();
		this.panes = null;
	}
}
