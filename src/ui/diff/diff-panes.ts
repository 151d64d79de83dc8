import { LRLanguage, syntaxHighlighting } from "@codemirror/language";
import type * as LangSql from "@codemirror/lang-sql";
import { goToNextChunk, goToPreviousChunk, MergeView, unifiedMergeView } from "@codemirror/merge";
import { Annotation, EditorState, Text, type Extension } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, type ViewUpdate } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";
import { parser as jsonParser } from "@lezer/json";
import { setIcon } from "obsidian";
import { compareTexts, countChanges, diffLines, editorText, paneLines, textdiffOptions, type ChangeCount, type Comparison, type LineChange, type TextdiffOptions } from "../../blocks";
import { t } from "../strings";
import { mergeChanges } from "./merge-changes";

export type Pane = "left" | "right";

export interface DiffPanesConfig {
	/** The texts as written (a note's CRLF too): the panes hold and report them with "\n" breaks. */
	left: string;
	right: string;
	options: TextdiffOptions;
	/** False shows both panes read-only. */
	editable: boolean;
}

/** Marks the transactions that put the note's text into a pane: they are no user edit. */
const fromOutside = Annotation.define<boolean>();

/** Next/previous change while a pane has focus (VS Code's chords for the same move). */
export const NEXT_CHANGE_KEY = "Alt-F5";
export const PREVIOUS_CHANGE_KEY = "Shift-Alt-F5";

/**
 * Texts this long (together) are compared and laid out in later tasks than the note's rendering:
 * from here the line comparison and the merge view's layout each take tens of milliseconds
 * (2,000 conflicting lines, some 70,000 characters, took 130 ms in one task; bench/vcs-conflict).
 */
const DEFER_FROM_CHARS = 20_000;

/** Long unchanged stretches fold into a "N unchanged lines" bar (a click opens them), as code review tools do. */
const COLLAPSE = { margin: 3, minSize: 6 };

const jsonLanguage = LRLanguage.define({ name: "json", parser: jsonParser });

/** Syntax of both panes by the fence's `language=`; other names show plain text. */
function languageExtension(language: string | null): Extension {
	if (language === "json") return jsonLanguage;
	// The SQL grammar is a text module of its own, evaluated by the first SQL diff rather than by every diff view.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	if (language === "sql") return (require("@codemirror/lang-sql") as typeof LangSql).sql();
	return [];
}

/**
 * Two texts compared with @codemirror/merge: side by side (a MergeView) or, with
 * `mode=unified`, one editor holding the right text with the left's lines shown inline. The
 * toolbar gives the change count and next/previous change. Each pane edit is reported
 * through `onEdit`; texts set with `setTexts` are not.
 *
 * Texts enter as the editors hold them (editorText): compared, counted and reported with "\n"
 * breaks whatever the note writes, so a note's text and a pane's differ only where they do.
 */
export class DiffPanes {
	readonly el: HTMLElement;
	private readonly countEl: HTMLElement;
	private readonly notesEl: HTMLElement;
	private merge: MergeView | null = null;
	private unified: EditorView | null = null;
	/** Whether the shown panes are JSON normalised for comparison (then they are read-only). */
	private normalized = false;
	/** The pane last typed in, and when: a view rendered again after a write takes the panes over. */
	private lastEdit: { view: EditorView; at: number } | null = null;
	/** The pending build of a long diff (see DEFER_FROM_CHARS). */
	private deferred: number | null = null;
	/** The last line diff: the count and the merge view ask for the same texts after each edit. */
	private memo: { a: string; b: string; changes: LineChange[] } | null = null;
	/** Receives each user edit of a pane (the block view writes it to the note). */
	onEdit: ((pane: Pane, text: string) => void) | null = null;
	/** The config, its texts as the editors hold them (editorText). */
	private config: DiffPanesConfig;

	/** The warm-ups taken (warmUpEditor, warmUp). */
	private static warm: "cold" | "editor" | "merge" = "cold";

	/**
	 * The first merge view runs its code for the first time, and V8 compiles each function on its
	 * first call: 30-40 ms that would otherwise fall in the task building a block's panes. Two
	 * warm-ups outside the page take it in two shares, each given a task of its own (lazy-diff.ts):
	 * first one editor with a pane's extensions (CodeMirror's view), then a two-line diff (the merge view's own).
	 */
	static warmUpEditor(): void {
		if (DiffPanes.warm !== "cold") return;
		DiffPanes.warm = "editor";
		const extensions = [lineNumbers(), EditorView.lineWrapping, EditorView.editable.of(true), syntaxHighlighting(classHighlighter), keymap.of([{ key: NEXT_CHANGE_KEY, run: goToNextChunk }])];
		new EditorView({ parent: createDiv(), state: EditorState.create({ doc: "a\nb", extensions }) }).destroy();
	}

	/** The second warm-up (see warmUpEditor): a two-line diff built and dropped. */
	static warmUp(): void {
		if (DiffPanes.warm === "merge") return;
		DiffPanes.warm = "merge";
		new DiffPanes(createDiv(), { left: "a\nb", right: "a\nc", options: textdiffOptions({}), editable: true }).destroy();
	}

	constructor(parent: HTMLElement, config: DiffPanesConfig) {
		this.config = { ...config, left: editorText(config.left), right: editorText(config.right) };
		this.el = parent.createDiv({ cls: "rb-diff" });
		if (config.options.language) this.el.addClass(`rb-lang-${config.options.language}`);
		const bar = this.el.createDiv({ cls: "rb-diff-toolbar" });
		this.countEl = bar.createSpan({ cls: "rb-diff-count" });
		this.button(bar, "arrow-up", t("previousChange"), () => this.move(goToPreviousChunk));
		this.button(bar, "arrow-down", t("nextChange"), () => this.move(goToNextChunk));
		this.notesEl = this.el.createDiv({ cls: "rb-diff-notes" });
		if (this.config.left.length + this.config.right.length < DEFER_FROM_CHARS) {
			this.build(this.config.left, this.config.right);
			return;
		}
		// A long diff is compared and laid out in tasks of its own, after the note has rendered.
		this.countEl.setText(t("diffComparing"));
		this.deferred = window.setTimeout(() => {
			// Two tasks: the comparison (with the editors' documents), then the editors.
			const { left, right } = this.config;
			const comparison = compareTexts(left, right, this.config.options);
			const docs = { a: Text.of(comparison.left), b: Text.of(comparison.right) };
			this.deferred = window.setTimeout(() => {
				this.deferred = null;
				if (this.config.left !== left || this.config.right !== right) return this.build(this.config.left, this.config.right);
				this.build(left, right, { comparison, docs });
			}, 0);
		}, 0);
	}

	private button(bar: HTMLElement, icon: string, label: string, run: () => void): void {
		const b = bar.createEl("button", { cls: "clickable-icon rb-diff-nav", attr: { "aria-label": label, title: label } });
		setIcon(b, icon);
		b.addEventListener("click", run);
	}

	/** The panes as compared: normalised JSON when asked and possible, else the texts as written. */
	private build(left: string, right: string, compared?: { comparison: Comparison; docs: { a: Text; b: Text } }): void {
		const comparison = compared?.comparison ?? compareTexts(left, right, this.config.options);
		this.memo = { a: comparison.leftText, b: comparison.rightText, changes: comparison.changes };
		this.normalized = comparison.normalized;
		this.showCount(comparison.count);
		this.notesEl.empty();
		if (comparison.normalized) this.notesEl.createDiv({ text: t("diffNormalized") });
		for (const { pane, reason } of comparison.notJson) this.notesEl.createDiv({ cls: "rb-diff-note", text: t("diffNotJson", { pane: t(pane === "left" ? "leftPane" : "rightPane"), reason }) });
		const editable = this.config.editable && !comparison.normalized;
		const shownLeft = compared?.docs.a ?? comparison.leftText;
		const shownRight = compared?.docs.b ?? comparison.rightText;
		const diffConfig = { override: (a: string, b: string) => mergeChanges(a, b, this.config.options, this.lineChanges(a, b)) };
		if (this.config.options.mode === "unified") {
			this.unified = new EditorView({
				parent: this.el,
				state: EditorState.create({
					doc: shownRight,
					extensions: [...this.paneExtensions("right", editable), unifiedMergeView({ original: shownLeft, diffConfig, mergeControls: false, gutter: true, collapseUnchanged: COLLAPSE })],
				}),
			});
			return;
		}
		this.merge = new MergeView({
			parent: this.el,
			a: { doc: shownLeft, extensions: this.paneExtensions("left", editable) },
			b: { doc: shownRight, extensions: this.paneExtensions("right", editable) },
			diffConfig,
			gutter: true,
			highlightChanges: true,
			collapseUnchanged: COLLAPSE,
		});
	}

	private paneExtensions(pane: Pane, editable: boolean): Extension[] {
		return [
			lineNumbers(),
			EditorView.lineWrapping,
			EditorView.editable.of(editable),
			EditorState.readOnly.of(!editable),
			EditorView.contentAttributes.of({ "aria-label": pane === "left" ? t("leftPane") : t("rightPane") }),
			languageExtension(this.config.options.language),
			syntaxHighlighting(classHighlighter),
			keymap.of([
				{ key: NEXT_CHANGE_KEY, run: goToNextChunk },
				{ key: PREVIOUS_CHANGE_KEY, run: goToPreviousChunk },
			]),
			EditorView.updateListener.of((u) => this.changed(pane, u)),
		];
	}

	private changed(pane: Pane, u: ViewUpdate): void {
		// Only the text changes count: the merge view adds a transaction of its own (the new chunks) to a pane's update.
		if (!u.docChanged || u.transactions.every((tr) => !tr.docChanged || tr.annotation(fromOutside) === true)) return;
		const left = this.text("left");
		const right = this.text("right");
		this.lastEdit = { view: u.view, at: Date.now() };
		this.showCount(countChanges(this.lineChanges(left, right)));
		this.onEdit?.(pane, pane === "left" ? left : right);
	}

	private lineChanges(a: string, b: string): LineChange[] {
		if (this.memo?.a !== a || this.memo.b !== b) this.memo = { a, b, changes: diffLines(paneLines(a), paneLines(b), this.config.options) };
		return this.memo.changes;
	}

	private text(pane: Pane): string {
		if (this.merge) return (pane === "left" ? this.merge.a : this.merge.b).state.doc.toString();
		if (pane === "right") return this.unified?.state.doc.toString() ?? "";
		return this.config.left;
	}

	private showCount(count: ChangeCount): void {
		const vars = { changes: count.changes, added: count.added, removed: count.removed };
		this.countEl.setText(count.changes === 0 ? t("diffNoChanges") : t(count.changes === 1 ? "diffCountOne" : "diffCount", vars));
		this.el.dataset.changes = String(count.changes);
	}

	/** Moves to the next or previous change from the focused pane (the right one otherwise). */
	private move(command: typeof goToNextChunk): void {
		const view = this.merge ? (this.merge.a.hasFocus ? this.merge.a : this.merge.b) : this.unified;
		if (!view) return;
		command(view);
		view.focus();
	}

	/** The texts changed outside (the note was edited elsewhere): panes follow, keeping what they can. */
	setTexts(writtenLeft: string, writtenRight: string): void {
		const left = editorText(writtenLeft);
		const right = editorText(writtenRight);
		if (this.deferred !== null) {
			this.config = { ...this.config, left, right };
			return;
		}
		if (left === this.text("left") && right === this.text("right")) return;
		const previousLeft = this.config.left;
		this.config = { ...this.config, left, right };
		// Normalised panes show other text than the note's, and a unified view's left side is fixed: build anew.
		if (this.normalized || (this.unified && left !== previousLeft)) {
			this.rebuild(left, right);
			return;
		}
		const targets: Array<[EditorView, string]> = this.merge ? [[this.merge.a, left], [this.merge.b, right]] : this.unified ? [[this.unified, right]] : [];
		for (const [view, text] of targets) {
			const change = smallestChange(view.state.doc.toString(), text);
			if (change) view.dispatch({ changes: change, annotations: fromOutside.of(true) });
		}
		this.showCount(countChanges(this.lineChanges(left, right)));
	}

	private rebuild(left: string, right: string): void {
		this.destroyViews();
		this.build(left, right);
	}

	/** True when the user typed in a pane within the last `ms`. */
	editedWithin(ms: number): boolean {
		return this.lastEdit !== null && Date.now() - this.lastEdit.at < ms;
	}

	/** Focuses the pane last typed in (its cursor kept), after the panes moved to a new view. */
	restoreFocus(): void {
		this.lastEdit?.view.focus();
	}

	/** The pane editors, for focus and tests. */
	views(): EditorView[] {
		return this.merge ? [this.merge.a, this.merge.b] : this.unified ? [this.unified] : [];
	}

	private destroyViews(): void {
		if (this.deferred !== null) window.clearTimeout(this.deferred);
		this.deferred = null;
		this.merge?.destroy();
		this.merge?.dom.remove();
		this.unified?.destroy();
		this.unified?.dom.remove();
		this.merge = null;
		this.unified = null;
	}

	destroy(): void {
		this.destroyViews();
		this.el.remove();
	}
}

/** The one replacement turning `from` into `to` (common start and end kept, so cursors stay put). */
function smallestChange(from: string, to: string): { from: number; to: number; insert: string } | null {
	if (from === to) return null;
	let start = 0;
	while (start < from.length && start < to.length && from[start] === to[start]) start++;
	let endFrom = from.length;
	let endTo = to.length;
	while (endFrom > start && endTo > start && from[endFrom - 1] === to[endTo - 1]) {
		endFrom--;
		endTo--;
	}
	return { from: start, to: endFrom, insert: to.slice(start, endTo) };
}
