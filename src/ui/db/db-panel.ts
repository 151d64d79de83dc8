import { Component, Menu, setIcon } from "obsidian";
import { dbOf, type DbRun } from "../../runner/db/db-result";
import { COPY_FORMATS, formatRows, type CopyFormat } from "../../runner/db/copy-formats";
import { formatMs } from "../../runner/response/format";
import { IDLE, type RunSnapshot } from "../../runner/result";
import type { NoteSession } from "../../runner/session";
import { isActive } from "../../runner/state-machine";
import { notify } from "../notify";
import { t } from "../strings";
import { renderPlan } from "./plan-view";
import { markedSpan } from "./error-marks";
import { ResultsTable } from "./results-table";

/** What a db panel can ask of the plugin; each is one user action. */
export interface DbPanelActions {
	run(): void;
	cancel(): void;
	/** The plan of the block's last statement (`analyze`: PostgreSQL runs it, SELECT only). */
	explain(analyze: boolean): void;
	/** Runs the block again keeping `shown + pageSize()` rows. */
	loadMore(shown: number): void;
	/** Rows a "load more" adds: the connection's max_rows. */
	pageSize(): number;
}

/** The block facts the panel shows. */
export interface DbPanelInfo {
	/** The run chord as shown to the user, e.g. "Ctrl+Enter". */
	runKey: string;
	/** The block's SQL lines and the note line of the first, to quote an error's line. */
	contentLines: readonly string[];
	firstContentLine: number;
}

const FORMAT_NAMES: Record<CopyFormat, string> = { csv: "CSV", tsv: "TSV", markdown: "Markdown", json: "JSON" };
const READS = new Set(["select", "explain"]);

export const rowsText = (n: number) => (n === 1 ? t("dbRowsOne") : t("dbRows", { rows: n.toLocaleString() }));

/**
 * The panel under a db block: Run/Stop, Explain and Copy, badges (state, connection, rows,
 * time), then the outcome: the results table, the plan tree, or the engine's error with the
 * line it points at. Like the http panel it keeps no run state: it renders the session's
 * snapshot for its block and re-renders on updates.
 */
export class DbPanel extends Component {
	readonly el: HTMLElement;
	private runButton!: HTMLButtonElement;
	private badges!: HTMLElement;
	private content!: HTMLElement;
	private table: ResultsTable | null = null;
	private snapshot: RunSnapshot = IDLE;
	private shown: RunSnapshot | null = null;

	constructor(
		parent: HTMLElement,
		private readonly session: NoteSession,
		private readonly key: string,
		private readonly info: DbPanelInfo,
		private readonly actions: DbPanelActions,
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-panel rb-db-panel" });
	}

	override onload(): void {
		this.buildToolbar();
		this.content = this.el.createDiv({ cls: "rb-tab-content rb-db-content" });
		this.register(this.session.subscribe(this.key, (s) => this.update(s)));
	}

	override onunload(): void {
		this.el.remove();
	}

	private button(bar: HTMLElement, cls: string, icon: string, label: string, onClick: (evt: MouseEvent) => void): HTMLButtonElement {
		const b = bar.createEl("button", { cls: `${cls} rb-icon-button`, attr: { "aria-label": label } });
		setIcon(b.createSpan({ cls: "rb-button-icon" }), icon);
		b.createSpan({ cls: "rb-button-label", text: label });
		this.registerDomEvent(b, "click", onClick);
		return b;
	}

	private buildToolbar(): void {
		const bar = this.el.createDiv({ cls: "rb-toolbar" });
		this.runButton = this.button(bar, "rb-run mod-cta", "play", t("run"), () => {
			if (isActive(this.snapshot.state)) this.actions.cancel();
			else this.actions.run();
		});
		this.button(bar, "rb-db-explain", "list-tree", t("dbExplain"), () => this.actions.explain(false));
		const more = bar.createEl("button", { cls: "rb-gear clickable-icon", attr: { "aria-label": t("settingsMenu") } });
		setIcon(more, "more-horizontal");
		this.registerDomEvent(more, "click", (evt) => this.openMenu(evt));
		this.badges = bar.createDiv({ cls: "rb-badges" });
	}

	private openMenu(evt: MouseEvent): void {
		const menu = new Menu();
		menu.addItem((i) => i.setTitle(t("dbExplainAnalyze")).setIcon("gauge").onClick(() => this.actions.explain(true)));
		const db = dbOf(this.snapshot);
		if (db && db.columns.length > 0 && !isActive(this.snapshot.state)) {
			menu.addSeparator();
			for (const f of COPY_FORMATS) menu.addItem((i) => i.setTitle(t("dbCopyAs", { format: FORMAT_NAMES[f] })).setIcon("clipboard-copy").onClick(() => this.copy(f, db)));
		}
		menu.showAtMouseEvent(evt);
	}

	/** Synchronous up to the clipboard write, so it stays inside the click's user gesture. */
	copy(format: CopyFormat, db: DbRun): void {
		const text = formatRows(format, db.columns, db.rows);
		void navigator.clipboard.writeText(text).then(
			() => notify(t("dbCopied", { rows: db.rows.length.toLocaleString(), format: FORMAT_NAMES[format] })),
			(e: unknown) => notify(t("clipboardFailed", { reason: e instanceof Error ? e.message : String(e) })),
		);
	}

	private update(s: RunSnapshot): void {
		this.snapshot = s;
		const active = isActive(s.state);
		this.runButton.toggleClass("rb-running", active);
		setIcon(this.runButton.querySelector<HTMLElement>(".rb-button-icon") ?? this.runButton, active ? "square" : "play");
		this.runButton.querySelector(".rb-button-label")?.setText(active ? t("stop") : t("run"));
		this.el.dataset.state = s.state;
		this.el.dataset.startedAt = s.startedAt === undefined ? "" : String(s.startedAt);
		this.renderBadges(s);
		if (this.shown && this.shown.state === s.state && dbOf(this.shown) === dbOf(s) && this.shown.error === s.error) return;
		this.shown = s;
		this.renderContent(s);
	}

	private renderBadges(s: RunSnapshot): void {
		this.badges.empty();
		const badge = (cls: string, text: string) => this.badges.createSpan({ cls: `rb-badge ${cls}`, text });
		badge(`rb-state rb-state-${s.state}`, s.state);
		const db = dbOf(s);
		if (db?.connection) badge("rb-db-connection", db.connection).setAttr("aria-label", t("dbConnection", { name: db.connection }));
		if (s.state === "done" && db && !db.plan) badge("rb-db-rowcount", db.truncated ? t("dbRowsOf", { shown: db.rows.length.toLocaleString(), total: db.rowCount.toLocaleString() }) : rowsText(db.rowCount));
		if (s.timing && !isActive(s.state)) badge("rb-time", formatMs(s.timing.total));
		if (s.error) badge("rb-error", s.error.message).setAttr("title", s.error.detail ?? s.error.message);
	}

	private renderContent(s: RunSnapshot): void {
		if (this.table) this.removeChild(this.table);
		this.table = null;
		const c = this.content;
		c.empty();
		if (s.state === "idle") {
			c.createDiv({ cls: "rb-muted", text: t("notRunYet", { key: this.info.runKey }) });
			return;
		}
		if (isActive(s.state)) {
			c.createDiv({ cls: "rb-muted rb-progress", text: t("dbRunning") });
			return;
		}
		// A stopped run has no result, and its badge already says why (`[cancelled]`, the timeout).
		if (s.state === "cancelled") return;
		const db = dbOf(s);
		if (s.error) {
			this.renderError(c, s, db);
			return;
		}
		if (!db) return;
		if (db.plan) {
			renderPlan(c, db.plan);
			return;
		}
		if (db.statements.length > 1 || db.columns.length === 0) this.renderStatements(c, db);
		if (db.columns.length === 0) {
			c.createDiv({ cls: "rb-muted rb-db-no-rows", text: t("dbNoResultSet") });
			return;
		}
		this.table = this.addChild(new ResultsTable(c, db.columns, db.rows));
		if (db.truncated) this.renderLoadMore(c, db);
	}

	private renderStatements(c: HTMLElement, db: DbRun): void {
		const list = c.createEl("ol", { cls: "rb-db-statements", attr: { "aria-label": t("dbStatements") } });
		for (const st of db.statements) {
			const kind = st.kind.toUpperCase();
			list.createEl("li", { text: st.rowCount === null ? t("dbStatementNoCount", { kind }) : t("dbStatementRows", { kind, rows: rowsText(st.rowCount) }) });
		}
	}

	private renderLoadMore(c: HTMLElement, db: DbRun): void {
		const bar = c.createDiv({ cls: "rb-db-more" });
		const shown = db.rows.length;
		if (!db.statements.every((st) => READS.has(st.kind))) {
			bar.createDiv({ cls: "rb-muted", text: t("dbLoadMoreWrites", { shown: shown.toLocaleString(), total: db.rowCount.toLocaleString() }) });
			return;
		}
		const count = Math.min(this.actions.pageSize(), db.rowCount - shown);
		const b = bar.createEl("button", { cls: "rb-db-load-more", text: t("dbLoadMore", { count: count.toLocaleString() }) });
		this.registerDomEvent(b, "click", () => this.actions.loadMore(shown));
	}

	/** The engine's message and code, and the line it points at with the spot underlined. */
	private renderError(c: HTMLElement, s: RunSnapshot, db: DbRun | undefined): void {
		const err = c.createDiv({ cls: "rb-error-box" });
		err.createDiv({ cls: "rb-error-message", text: s.error?.message ?? "" });
		if (s.error?.detail) err.createDiv({ cls: "rb-muted rb-error-detail", text: s.error.detail });
		const at = db?.errorAt;
		if (!at) return;
		const line = this.info.contentLines[at.line - this.info.firstContentLine];
		err.createDiv({ cls: "rb-db-error-where", text: t("dbErrorAt", { line: at.line + 1, column: at.column + 1 }) });
		if (line === undefined) return;
		const pre = err.createEl("pre", { cls: "rb-db-error-line" });
		appendMarked(pre, line, at.column);
	}
}

/** Appends `line` as text with the span at `column` underlined (an empty span at a line end still shows the caret). */
export function appendMarked(el: HTMLElement, line: string, column: number): void {
	const { from, to } = markedSpan(line, column);
	el.appendText(line.slice(0, from));
	el.createSpan({ cls: "rb-db-error-at", text: to > from ? line.slice(from, to) : " " });
	el.appendText(line.slice(to));
}
