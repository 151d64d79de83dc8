import { MarkdownRenderChild, type MarkdownPostProcessorContext } from "obsidian";
import { blockKey, type DbNoteBlock } from "../../blocks";
import { dbOf } from "../../runner/db/db-result";
import type { RunSnapshot } from "../../runner/result";
import type { EditorPanel } from "../editor-panel";
import { locateBlock, type BlockHost } from "../block-view";
import { t } from "../strings";
import { appendMarked, DbPanel, type DbPanelInfo } from "./db-panel";

/** The panel facts of a block: its SQL lines (to quote an error's line) and the run chord. */
function panelInfo(block: DbNoteBlock, host: BlockHost): DbPanelInfo {
	return { runKey: host.runKeyLabel(), contentLines: block.fence.content.split("\n"), firstContentLine: block.fence.startLine + 1 };
}

/**
 * The SQL as written; after a failed run whose error has a position, that spot underlined
 * (a note line and column, re-drawn from the session whenever the block's run changes).
 */
function renderSource(pre: HTMLElement, source: string, block: DbNoteBlock, s: RunSnapshot): void {
	pre.empty();
	const at = s.state === "failed" ? dbOf(s)?.errorAt : undefined;
	const lines = source.split("\n");
	const index = at ? at.line - (block.fence.startLine + 1) : -1;
	if (!at || index < 0 || index >= lines.length) {
		pre.setText(source);
		return;
	}
	pre.appendText(lines.slice(0, index).map((l) => `${l}\n`).join(""));
	appendMarked(pre, lines[index], at.column);
	pre.appendText(lines.slice(index + 1).map((l) => `\n${l}`).join(""));
}

/** A db block in Reading view or Live Preview (cursor outside): its SQL, its problems, and its panel. */
export class DbBlockView extends MarkdownRenderChild {
	constructor(
		containerEl: HTMLElement,
		private readonly source: string,
		private readonly ctx: MarkdownPostProcessorContext,
		private readonly host: BlockHost,
	) {
		super(containerEl);
	}

	override onload(): void {
		const found = locateBlock(this.containerEl, this.ctx, this.host);
		const root = this.containerEl.createDiv({ cls: "rb-block rb-db-block" });
		const block = found?.kind === "db" ? found : undefined;
		const head = root.createDiv({ cls: "rb-block-head" });
		if (block?.alias) head.createSpan({ cls: "rb-alias", text: `alias ${block.alias}` });
		if (block?.info.tokens.connection) head.createSpan({ cls: "rb-db-connection-name", text: t("dbConnection", { name: block.info.tokens.connection }) });
		const pre = root.createEl("pre", { cls: "rb-source rb-db-source" });
		pre.setText(this.source);
		if (!block) return;
		if (block.problems.length > 0) {
			const list = root.createEl("ul", { cls: "rb-problems" });
			for (const p of block.problems) list.createEl("li", { cls: `rb-problem-${p.severity}`, text: `${t("line", { n: p.line + 1 })}: ${p.message}` });
		}
		const session = this.host.session(this.ctx.sourcePath);
		const key = blockKey(block);
		this.register(session.subscribe(key, (s) => renderSource(pre, this.source.replace(/\n$/, ""), block, s)));
		this.addChild(new DbPanel(root, session, key, panelInfo(block, this.host), this.host.dbActions(this.ctx.sourcePath, block)));
	}
}

/** The panel under a db block's closing fence in Source mode (and Live Preview while editing it). */
export function dbEditorPanel(block: DbNoteBlock, filePath: string, host: BlockHost): EditorPanel {
	const display = block.info.tokens.display ?? "split";
	return {
		// The SQL is part of the identity: an error's quoted line follows the text as edited.
		identity: [filePath, blockKey(block), display, block.fence.content].join("\u0000"),
		display,
		mount: (wrap) => new DbPanel(wrap, host.session(filePath), blockKey(block), panelInfo(block, host), host.dbActions(filePath, block)),
	};
}
