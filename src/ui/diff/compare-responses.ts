import { Modal, SuggestModal, type App } from "obsidian";
import { textdiffFence, textdiffOptions } from "../../blocks";
import { comparableBodies, headersText } from "../../runner/response/compare-text";
import { httpFields, type HttpView } from "../../runner/http/http-run";
import type { NoteSession } from "../../runner/session";
import { notify } from "../notify";
import { t } from "../strings";
import { DiffPanes } from "./diff-panes";

/** One response to compare: a block's run and what to call it. */
export interface ComparedRun {
	label: string;
	run: HttpView;
}

/** Two responses side by side, read-only: the bodies (pretty JSON when both are JSON), then the headers. */
export class CompareModal extends Modal {
	private readonly panes: DiffPanes[] = [];

	constructor(
		app: App,
		private readonly left: ComparedRun,
		private readonly right: ComparedRun,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(t("compareTitle", { left: this.left.label, right: this.right.label }));
		this.modalEl.addClass("rb-compare-modal");
		const bodies = comparableBodies(this.left.run, this.right.run);
		const section = (title: string, left: string, right: string, language: string | null) => {
			const el = this.contentEl.createDiv({ cls: "rb-compare-section" });
			el.createEl("h4", { text: title });
			this.panes.push(new DiffPanes(el, { left, right, options: { ...textdiffOptions({}), language }, editable: false }));
		};
		section(t("tabBody"), bodies.left, bodies.right, bodies.json ? "json" : null);
		section(t("tabHeaders"), headersText(this.left.run), headersText(this.right.run), null);
	}

	override onClose(): void {
		for (const p of this.panes) p.destroy();
		this.panes.length = 0;
		this.contentEl.empty();
	}
}

/** A pinned response and the last run, as comparable pin texts (docs/pins.md), side by side and read-only. */
class PinCompareModal extends Modal {
	private panes: DiffPanes | null = null;

	constructor(
		app: App,
		private readonly title: string,
		private readonly pinned: string,
		private readonly now: string,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(this.title);
		this.modalEl.addClass("rb-compare-modal");
		this.panes = new DiffPanes(this.contentEl.createDiv({ cls: "rb-compare-section" }), { left: this.pinned, right: this.now, options: { ...textdiffOptions({}), language: null }, editable: false });
	}

	override onClose(): void {
		this.panes?.destroy();
		this.panes = null;
		this.contentEl.empty();
	}
}

/** "Compare with pinned": the pin on the left, the last run on the right; a notice instead when they match. */
export function comparePinned(app: App, title: string, pinned: string, now: string): void {
	if (pinned === now) notify(t("pinSame"));
	new PinCompareModal(app, title, pinned, now).open();
}

/** Picks one alias of the note among those with a response. */
class AliasPicker extends SuggestModal<string> {
	constructor(
		app: App,
		private readonly aliases: readonly string[],
		placeholder: string,
		private readonly onPick: (alias: string) => void,
	) {
		super(app);
		this.setPlaceholder(placeholder);
	}

	getSuggestions(query: string): string[] {
		const q = query.trim().toLowerCase();
		return this.aliases.filter((a) => a.toLowerCase().includes(q));
	}

	renderSuggestion(alias: string, el: HTMLElement): void {
		el.setText(alias);
	}

	onChooseSuggestion(alias: string): void {
		this.onPick(alias);
	}
}

/** A block's latest run when it finished with a response. */
function finished(session: NoteSession, key: string): HttpView | null {
	const s = httpFields(session.snapshot(key));
	return (s.state === "done" || s.state === "cached") && s.head ? s : null;
}

/** The aliases of the note whose blocks have a finished response in this session. */
export function aliasesWithResponses(session: NoteSession, aliases: readonly string[]): string[] {
	return aliases.filter((a) => finished(session, `@${a}`) !== null);
}

/** "Compare with previous run": this block's last two finished runs of the session. */
export function compareWithPrevious(app: App, session: NoteSession, key: string, name: string): void {
	const latest = finished(session, key);
	const kept = session.previousRun(key);
	const previous = kept && httpFields(kept);
	if (!latest || !previous) {
		notify(t("noPreviousRun"));
		return;
	}
	const when = (s: HttpView) => new Date(s.startedAt ?? 0).toLocaleTimeString();
	new CompareModal(app, { label: t("runAt", { name, time: when(previous) }), run: previous }, { label: t("runAt", { name, time: when(latest) }), run: latest }).open();
}

/** "Compare with…": this block's response and another alias's, chosen from those with a response. */
export function compareWithAlias(app: App, session: NoteSession, key: string, name: string, aliases: readonly string[]): void {
	const mine = finished(session, key);
	const others = aliasesWithResponses(session, aliases).filter((a) => `@${a}` !== key);
	if (!mine || others.length === 0) {
		notify(t(mine ? "noOtherResponses" : "notRunYetCompare"));
		return;
	}
	new AliasPicker(app, others, t("compareWithWhich"), (alias) => {
		const theirs = finished(session, `@${alias}`);
		if (theirs) new CompareModal(app, { label: name, run: mine }, { label: alias, run: theirs }).open();
	}).open();
}

/**
 * "Insert diff of two aliases": a textdiff fence whose panes hold the two responses' bodies,
 * read once, as literal text (pretty JSON with `language=json` when both are JSON).
 */
export function insertDiffOfAliases(app: App, session: NoteSession, aliases: readonly string[], insert: (text: string) => void): void {
	const ready = aliasesWithResponses(session, aliases);
	if (ready.length < 2) {
		notify(t("needTwoResponses"));
		return;
	}
	new AliasPicker(app, ready, t("diffLeftWhich"), (a) => {
		new AliasPicker(app, ready.filter((x) => x !== a), t("diffRightWhich"), (b) => {
			const left = finished(session, `@${a}`);
			const right = finished(session, `@${b}`);
			if (!left || !right) return;
			const bodies = comparableBodies(left, right);
			insert(textdiffFence({ left: bodies.left, right: bodies.right }, bodies.json ? "language=json" : ""));
		}).open();
	}).open();
}
