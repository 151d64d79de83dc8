import { Component } from "obsidian";
import type { DbColumn, DbRow, DbValue } from "../../runner/db/driver";
import { rowKeys } from "../../runner/db/rows";
import { t } from "../strings";

/** Rows rendered above and below the visible window, so fast scrolling shows no gaps. */
const OVERSCAN = 20;
/** Row height until one row has been measured (styles.css sets the real one). */
const DEFAULT_ROW_HEIGHT = 24;
/** The table's height cap (styles.css `.rb-db-table`); taller results scroll inside it. */
const MAX_HEIGHT = 420;
/** Rows sampled for column widths: enough to see typical values, few enough to stay instant. */
const WIDTH_SAMPLE = 200;

const NUMERIC = /^(int|integer|bigint|smallint|tinyint|mediumint|int[248]|serial|bigserial|numeric|decimal|real|float[48]?|double|money|oid|year)\b/i;

/** A value as cell text: strings as they are, JSON values as JSON, NULL apart (the caller marks it). */
function cellText(v: DbValue): string {
	return typeof v === "string" ? v : JSON.stringify(v);
}

/** Rewrites a cell's text node in place (no node is created once the cell has one). */
function setText(el: HTMLElement, text: string): void {
	const node = el.firstChild;
	if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) (node as Text).data = text;
	else el.textContent = text;
}

/** Width of a column in `ch`: its widest sampled text (header and type included), within bounds. */
export function columnWidths(columns: readonly DbColumn[], rows: readonly DbRow[]): number[] {
	const keys = rowKeys(columns);
	return columns.map((c, i) => {
		let widest = Math.max(c.name.length, c.type.length + 2);
		for (let r = 0; r < Math.min(rows.length, WIDTH_SAMPLE); r++) {
			const v = rows[r][keys[i]];
			const text = v === null || v === undefined ? "NULL" : cellText(v);
			const firstLine = text.length > 60 ? 60 : (text.indexOf("\n") + 1 || text.length + 1) - 1;
			widest = Math.max(widest, firstLine);
		}
		// Room for the cell's padding (about 3ch at the table's font size).
		return Math.min(40, Math.max(4, widest)) + 3;
	});
}

/**
 * A result set as a table that puts only the visible rows in the DOM, so 100,000 rows scroll
 * as smoothly as ten: a sticky header (names and types), a spacer of the full height, and the
 * window of rows positioned inside it. Cells are text nodes, NULL a marked cell of its own.
 */
export class ResultsTable extends Component {
	readonly el: HTMLElement;
	private readonly body: HTMLElement;
	private readonly rowsEl: HTMLElement;
	private readonly keys: string[];
	private readonly numeric: boolean[];
	private rowHeight = DEFAULT_ROW_HEIGHT;
	private measured = false;
	private frame: number | null = null;
	private rendered = { first: -1, last: -1 };
	private bodyHeight = -1;
	private readonly nullText = t("dbNull");

	constructor(
		parent: HTMLElement,
		private readonly columns: readonly DbColumn[],
		private readonly rows: readonly DbRow[],
	) {
		super();
		this.keys = rowKeys(columns);
		this.numeric = columns.map((c) => NUMERIC.test(c.type));
		this.el = parent.createDiv({ cls: "rb-db-table", attr: { role: "table", "aria-rowcount": String(rows.length + 1), tabindex: "0" } });
		const widths = columnWidths(columns, rows);
		const gutter = String(rows.length).length + 2;
		// Fixed widths (no max-content): a row's layout never depends on the other rows.
		this.el.setCssProps({
			"--rb-db-columns": [`${gutter}ch`, ...widths.map((w) => `${w}ch`)].join(" "), "--rb-db-width": `${gutter + widths.reduce((a, b) => a + b, 0)}ch`,
			// A few rows take their own height (header and a scrollbar included), many scroll within the cap.
			"--rb-db-height": `${Math.min(MAX_HEIGHT, 50 + rows.length * (DEFAULT_ROW_HEIGHT + 1))}px`,
		});
		const head = this.el.createDiv({ cls: "rb-db-head rb-db-grid", attr: { role: "row" } });
		head.createDiv({ cls: "rb-db-rownum", attr: { role: "columnheader" } });
		columns.forEach((c) => {
			const cell = head.createDiv({ cls: "rb-db-th", attr: { role: "columnheader", title: `${c.name} · ${c.type}` } });
			cell.createSpan({ cls: "rb-db-col-name", text: c.name });
			cell.createSpan({ cls: "rb-db-col-type", text: c.type });
		});
		this.body = this.el.createDiv({ cls: "rb-db-body" });
		this.rowsEl = this.body.createDiv({ cls: "rb-db-rows", attr: { role: "rowgroup" } });
	}

	override onload(): void {
		this.registerDomEvent(this.el, "scroll", () => this.schedule());
		this.render();
	}

	override onunload(): void {
		if (this.frame !== null) window.cancelAnimationFrame(this.frame);
		this.el.remove();
	}

	/** Indices of the rows in the DOM now (first inclusive, last exclusive). */
	get window(): { first: number; last: number } {
		return { first: this.rendered.first, last: this.rendered.last };
	}

	private schedule(): void {
		if (this.frame !== null) return;
		this.frame = window.requestAnimationFrame(() => {
			this.frame = null;
			this.render();
		});
	}

	/** Fills a pooled row element with row `index` (elements are reused: scrolling creates no nodes). */
	private fillRow(el: HTMLElement, index: number): void {
		const row = this.rows[index];
		el.setAttr("aria-rowindex", String(index + 2));
		const cells = el.children;
		setText(cells[0] as HTMLElement, String(index + 1));
		for (let i = 0; i < this.keys.length; i++) {
			const cell = cells[i + 1] as HTMLElement;
			const v = row[this.keys[i]];
			const isNull = v === null || v === undefined;
			setText(cell, isNull ? this.nullText : cellText(v));
			cell.className = isNull ? "rb-db-cell rb-db-null" : this.numeric[i] ? "rb-db-cell rb-db-num" : "rb-db-cell";
		}
	}

	private newRow(): HTMLElement {
		const el = this.rowsEl.createDiv({ cls: "rb-db-row rb-db-grid", attr: { role: "row" } });
		el.createDiv({ cls: "rb-db-rownum" });
		for (let i = 0; i < this.keys.length; i++) el.createDiv({ cls: "rb-db-cell", attr: { role: "cell" } });
		return el;
	}

	private render(): void {
		const total = this.rows.length;
		const headHeight = (this.el.firstElementChild as HTMLElement | null)?.offsetHeight ?? 0;
		const viewHeight = this.el.clientHeight || 360;
		const top = Math.max(0, this.el.scrollTop - headHeight);
		const visibleFirst = Math.floor(top / this.rowHeight);
		const visibleLast = Math.min(total, Math.ceil((top + viewHeight) / this.rowHeight));
		// Still covered by the rows in the DOM: nothing to do (small scrolls cost no DOM work).
		if (this.rendered.first >= 0 && visibleFirst >= this.rendered.first && visibleLast <= this.rendered.last) return;
		const first = Math.max(0, visibleFirst - OVERSCAN);
		const last = Math.min(total, visibleLast + OVERSCAN);
		if (this.bodyHeight !== total * this.rowHeight) {
			this.bodyHeight = total * this.rowHeight;
			this.body.setCssProps({ "--rb-db-body-height": `${this.bodyHeight}px` });
		}
		this.rendered = { first, last };
		this.rowsEl.setCssProps({ "--rb-db-offset": `${first * this.rowHeight}px` });
		// The pool only grows: rows past the window are hidden, not removed, so scrolling creates no nodes.
		const pool = this.rowsEl.children;
		while (pool.length < last - first) this.newRow();
		for (let k = 0; k < pool.length; k++) {
			const el = pool[k] as HTMLElement;
			const shown = first + k < last;
			el.toggleClass("rb-hidden", !shown);
			if (shown) this.fillRow(el, first + k);
		}
		if (!this.measured && this.rowsEl.firstElementChild) {
			const h = (this.rowsEl.firstElementChild as HTMLElement).getBoundingClientRect().height;
			if (h > 0) {
				this.measured = true;
				if (Math.abs(h - this.rowHeight) > 0.5) {
					this.rowHeight = h;
					this.rendered = { first: -1, last: -1 };
					this.render();
				}
			}
		}
	}
}
