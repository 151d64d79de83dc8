import { blockKey, type DbNoteBlock } from "../../blocks";
import { dbOf } from "../../runner/db/db-result";
import type { RunSnapshot } from "../../runner/result";
import { withBuiltInConnections } from "../../settings/connections";
import type { EditorPanel } from "../editor-panel";
import type { BlockHost } from "../block-host";
import { BlockReadingView } from "../block-reading-view";
import { prepareRunsWhenIdle } from "../prepare-runs";
import { t } from "../strings";
import { dbPanelActions } from "./db-actions";
import { appendMarked, DbPanel, type DbPanelActions, type DbPanelInfo } from "./db-panel";

/** The panel facts of a block: its SQL lines (to quote an error's line) and the run chord. */
function panelInfo(block: DbNoteBlock, host: BlockHost): DbPanelInfo {
	return { runKey: host.runKeyLabel(), contentLines: block.fence.content.split("\n"), firstContentLine: block.fence.startLine + 1 };
}

/** A db block's panel actions (run, cancel, EXPLAIN, load more). */
function dbActions(host: BlockHost, filePath: string, block: DbNoteBlock): DbPanelActions {
	return dbPanelActions(host.engine, host.notes, () => withBuiltInConnections(host.settings().connections), filePath, block);
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
export class DbBlockView extends BlockReadingView {
	override onload(): void {
		const found = this.locate()?.block;
		const root = this.containerEl.createDiv({ cls: "rb-block rb-db-block" });
		const block = found?.kind === "db" ? found : undefined;
		const head = this.renderHead(root, block, true);
		if (block?.info.tokens.connection) head?.createSpan({ cls: "rb-db-connection-name", text: t("dbConnection", { name: block.info.tokens.connection }) });
		const pre = root.createEl("pre", { cls: "rb-source rb-db-source" });
		pre.setText(this.source);
		if (!block) return;
		this.renderProblems(root, block.problems);
		const session = this.host.session(this.filePath);
		const key = blockKey(block);
		this.register(session.subscribe(key, (s) => renderSource(pre, this.source.replace(/\n$/, ""), block, s)));
		this.addChild(new DbPanel(root, session, key, panelInfo(block, this.host), dbActions(this.host, this.filePath, block)));
		prepareRunsWhenIdle(this.host.engine, block);
	}
}

/** The panel under a db block's closing fence in Source mode (and Live Preview while editing it). */
export function dbEditorPanel(block: DbNoteBlock, filePath: string, host: BlockHost): EditorPanel {
	const display = block.info.tokens.display ?? "split";
	return {
		// The SQL is part of the identity: an error's quoted line follows the text as edited.
		identity: [filePath, blockKey(block), display, block.fence.content].join("\u0000"),
		display,
		mount: (wrap) => {
			prepareRunsWhenIdle(host.engine, block);
			return new DbPanel(wrap, host.session(filePath), blockKey(block), panelInfo(block, host), dbActions(host, filePath, block));
		},
	};
}
