import { Component, Menu, setIcon } from "obsidian";
import { pickerMethods, type DisplayMode, type EditMode, type HttpMethod } from "../../blocks";
import { formatAge, formatBytes, formatMs } from "../../runner/response/format";
import type { JarCookie } from "../../runner/cookie-jar";
import { httpFields, type HttpView } from "../../runner/http/http-run";
import type { RunSnapshot } from "../../runner/result";
import type { NoteSession } from "../../runner/session";
import { isActive } from "../../runner/state-machine";
import { isBusy } from "../../runner/busy";
import type { FenceViews } from "../fence-views";
import { t, type StringKey } from "../strings";
import { BodyView } from "./body-view";
import { renderCookies, renderJar } from "./cookies-view";
import { renderHeaders } from "./headers-view";
import { RawView } from "./raw-view";
import { renderTests } from "./tests-view";
import { renderRunSparkline } from "./run-sparkline";
import { renderTiming } from "./timing-view";
import { renderPoll } from "./poll-view";
import { AuthView, type AuthTokenSource } from "./auth-view";

/** One history row as the History popover shows it. */
export interface HistoryRowView {
	timestamp: number;
	status: number | null;
	outcome: string;
	durationMs: number;
	requestBytes: number;
	responseBytes: number;
}

/** What the panel can ask of the plugin; each is one user action. */
export interface PanelActions {
	run(force: boolean): void;
	cancel(): void;
	clearCache(): void;
	setMethod(method: HttpMethod): void;
	setEditMode(mode: EditMode): void;
	/** Synchronous so the clipboard write stays inside the click's user gesture. */
	exportAs(format: string, evt: MouseEvent): void;
	sendAsCurl(evt: MouseEvent): void;
	listHistory(): Promise<HistoryRowView[]>;
	saveBody(snapshot: HttpView): void;
	/** This block's last two responses of the session, compared. */
	compareWithPrevious(): void;
	/** This block's response and another alias's, compared (the other is picked). */
	compareWith(): void;
	/** Writes this response under the block as its pin (docs/pins.md). */
	pinResponse?(snapshot: HttpView): void;
	/** This block's response and its pinned one, compared. */
	compareWithPinned?(): void;
	/** The active environment's cookie jar (the Cookies tab lists it below the response's cookies). */
	cookieJar?(): { environment: string; cookies: JarCookie[] };
	clearCookies?(): void;
	/** The session's OAuth tokens, which the Auth tab shows for the configurations the run used. */
	authTokens?: AuthTokenSource;
}

/** The block facts the toolbar shows. */
export interface PanelBlockInfo {
	method: HttpMethod | null;
	editMode: EditMode;
	display: DisplayMode;
	alias: string | null;
	/** The run chord as shown to the user, e.g. "Ctrl+Enter". */
	runKey: string;
	/** The formats the block's kind exports to, in its order: the menu's "Copy as" items. */
	exportFormats: readonly string[];
}

type TabId = "body" | "headers" | "cookies" | "tests" | "timing" | "raw" | "auth";
const TABS: Array<{ id: TabId; label: StringKey }> = [
	{ id: "body", label: "tabBody" },
	{ id: "headers", label: "tabHeaders" },
	{ id: "cookies", label: "tabCookies" },
	{ id: "tests", label: "tabTests" },
	{ id: "timing", label: "tabTiming" },
	{ id: "raw", label: "tabRaw" },
	// Shown only for a run whose request carried an OAuth token.
	{ id: "auth", label: "tabAuth" },
];

/** The tab each block shows, kept across re-renders of its panel (edits, view switches). */
const activeTabs = new WeakMap<NoteSession, Map<string, TabId>>();

/**
 * The response panel of one block: toolbar, badges and tabs. It holds no run state of its
 * own: it renders the session store's snapshot for its block and re-renders on updates,
 * so every view of the note shows the same run.
 */
export class ResponsePanel extends Component {
	readonly el: HTMLElement;
	private badges!: HTMLElement;
	private runButton!: HTMLButtonElement;
	private runIcon!: HTMLElement;
	private runLabel!: HTMLElement;
	private runShown: boolean | null = null;
	private tabBar!: HTMLElement;
	private content!: HTMLElement;
	private historyEl: HTMLElement | null = null;
	private tabChild: Component | null = null;
	private shown: { snapshot: HttpView | null; tab: TabId | null } = { snapshot: null, tab: null };
	private snapshot: HttpView = { state: "idle" };
	/** The run's kind's own view (a stream's panel), in place of the tabs while it shows the block's run. */
	private kindView: { view: Component; kind: string } | null = null;

	constructor(
		parent: HTMLElement,
		private readonly session: NoteSession,
		private readonly key: string,
		private readonly info: PanelBlockInfo,
		private readonly actions: PanelActions,
		/** Which kinds show their runs in a view of their own (the renderer registry's answer). */
		private readonly views: Pick<FenceViews, "runViewOf">,
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-panel" });
	}

	override onload(): void {
		this.buildToolbar();
		this.tabBar = this.el.createDiv({ cls: "rb-tabs", attr: { role: "tablist" } });
		for (const tab of TABS) {
			const b = this.tabBar.createEl("button", { cls: "rb-tab", text: t(tab.label), attr: { role: "tab", "data-tab": tab.id } });
			this.registerDomEvent(b, "click", () => this.selectTab(tab.id));
		}
		this.content = this.el.createDiv({ cls: "rb-tab-content", attr: { role: "tabpanel" } });
		this.register(this.session.subscribe(this.key, (s) => this.update(s)));
	}

	override onunload(): void {
		this.el.remove();
	}

	private get tab(): TabId {
		return activeTabs.get(this.session)?.get(this.key) ?? "body";
	}

	private selectTab(id: TabId): void {
		let map = activeTabs.get(this.session);
		if (!map) activeTabs.set(this.session, (map = new Map<string, TabId>()));
		map.set(this.key, id);
		this.renderContent();
	}

	private buildToolbar(): void {
		const bar = this.el.createDiv({ cls: "rb-toolbar" });
		const picker = bar.createEl("select", { cls: "rb-method-picker dropdown", attr: { "aria-label": t("method") } });
		for (const m of pickerMethods(this.info.method)) picker.createEl("option", { text: m, value: m });
		picker.value = this.info.method ?? "GET";
		picker.addClass(`rb-method-${picker.value.toLowerCase()}`);
		this.registerDomEvent(picker, "change", () => this.actions.setMethod(picker.value as HttpMethod));

		// The toggle names the mode it switches to: form fields, or the raw message.
		const toForm = this.info.editMode !== "form";
		const mode = bar.createEl("button", { cls: "rb-mode-toggle rb-icon-button", attr: { "aria-label": toForm ? t("form") : t("raw") } });
		setIcon(mode.createSpan({ cls: "rb-button-icon" }), toForm ? "list" : "code");
		mode.createSpan({ text: toForm ? t("form") : t("raw") });
		this.registerDomEvent(mode, "click", () => this.actions.setEditMode(toForm ? "form" : "raw"));

		this.runButton = bar.createEl("button", { cls: "rb-run rb-icon-button mod-cta" });
		this.runIcon = this.runButton.createSpan({ cls: "rb-button-icon" });
		this.runLabel = this.runButton.createSpan({ cls: "rb-run-label" });
		this.showRunButton(false);
		this.registerDomEvent(this.runButton, "click", () => {
			// A poll between attempts is still running: Stop ends it.
			if (isBusy(this.snapshot)) this.actions.cancel();
			else this.actions.run(false);
		});

		const gear = bar.createEl("button", { cls: "rb-gear clickable-icon", attr: { "aria-label": t("settingsMenu") } });
		setIcon(gear, "settings");
		this.registerDomEvent(gear, "click", (evt) => this.openMenu(evt));

		const history = bar.createEl("button", { cls: "rb-history-button clickable-icon", attr: { "aria-label": t("history") } });
		setIcon(history, "history");
		this.registerDomEvent(history, "click", () => void this.toggleHistory());

		this.badges = bar.createDiv({ cls: "rb-badges" });
	}

	private openMenu(evt: MouseEvent): void {
		const menu = new Menu();
		menu.addItem((i) => i.setTitle(t("forceRun")).setIcon("refresh-cw").onClick(() => this.actions.run(true)));
		menu.addItem((i) => i.setTitle(t("clearCache")).setIcon("eraser").onClick(() => this.actions.clearCache()));
		if (this.actions.clearCookies) menu.addItem((i) => i.setTitle(t("clearCookies")).setIcon("cookie").onClick(() => this.actions.clearCookies?.()));
		menu.addSeparator();
		for (const f of this.info.exportFormats) {
			menu.addItem((i) =>
				i
					.setTitle(t("copyAs", { format: f === "http" ? ".http" : f }))
					.setIcon("clipboard-copy")
					.onClick((e) => this.actions.exportAs(f, e instanceof MouseEvent ? e : evt)),
			);
		}
		if (this.info.exportFormats.includes("curl")) menu.addItem((i) => i.setTitle(t("sendAsCurl")).setIcon("download").onClick((e) => this.actions.sendAsCurl(e instanceof MouseEvent ? e : evt)));
		if (this.snapshot.body) {
			const snap = this.snapshot;
			menu.addItem((i) => i.setTitle(t("saveBody")).setIcon("save").onClick(() => this.actions.saveBody(snap)));
		}
		if (this.snapshot.head && !isActive(this.snapshot.state)) {
			menu.addSeparator();
			menu.addItem((i) => i.setTitle(t("compareWithPrevious")).setIcon("git-compare").onClick(() => this.actions.compareWithPrevious()));
			menu.addItem((i) => i.setTitle(t("compareWith")).setIcon("diff").onClick(() => this.actions.compareWith()));
			const snap = this.snapshot;
			if (this.actions.pinResponse) menu.addItem((i) => i.setTitle(t("pinResponse")).setIcon("pin").onClick(() => this.actions.pinResponse?.(snap)));
			if (this.actions.compareWithPinned) menu.addItem((i) => i.setTitle(t("compareWithPinned")).setIcon("pin").onClick(() => this.actions.compareWithPinned?.()));
		}
		menu.showAtMouseEvent(evt);
	}

	private async toggleHistory(): Promise<void> {
		if (this.historyEl) {
			this.historyEl.remove();
			this.historyEl = null;
			return;
		}
		const pop = (this.historyEl = this.el.createDiv({ cls: "rb-history" }));
		pop.createDiv({ cls: "rb-history-title", text: t("historyTitle") });
		const rows = await this.actions.listHistory();
		if (this.historyEl !== pop) return;
		if (rows.length === 0) {
			pop.createDiv({ cls: "rb-muted", text: t("noHistory") });
			return;
		}
		renderRunSparkline(pop, rows);
		const table = pop.createEl("table", { cls: "rb-table" });
		const body = table.createEl("tbody");
		for (const r of rows) {
			const tr = body.createEl("tr", { cls: "rb-history-row" });
			tr.createEl("td", { text: new Date(r.timestamp).toLocaleString() });
			tr.createEl("td", { text: r.status === null ? r.outcome : String(r.status) });
			tr.createEl("td", { cls: "rb-history-source", text: r.outcome === "cached" ? t("fromCache") : "" });
			tr.createEl("td", { text: formatMs(r.durationMs) });
			const sizes = tr.createEl("td", { cls: "rb-history-sizes" });
			for (const [icon, label, bytes] of [["arrow-up", t("sent"), r.requestBytes], ["arrow-down", t("received"), r.responseBytes]] as const) {
				const size = sizes.createSpan({ cls: "rb-history-size", attr: { "aria-label": `${label} ${formatBytes(bytes)}` } });
				setIcon(size.createSpan({ cls: "rb-inline-icon" }), icon);
				size.createSpan({ text: formatBytes(bytes) });
			}
		}
	}

	private update(run: RunSnapshot): void {
		const s = httpFields(run);
		const ownView = this.showKindView(run);
		// What a kind's own view draws (a stream's messages) changes nothing above it: it draws that itself.
		const same = ownView && this.snapshot.state === s.state && this.snapshot.startedAt === s.startedAt;
		this.snapshot = s;
		if (same) return;
		this.showRunButton(isBusy(run));
		this.el.dataset.state = s.state;
		this.tabBar.querySelector('[data-tab="auth"]')?.toggleClass("rb-hidden", !s.authUsed?.length);
		// Which run is shown: lets a test (or a screen reader script) tell a new result from the previous one.
		this.el.dataset.startedAt = s.startedAt === undefined ? "" : String(s.startedAt);
		this.renderBadges(s);
		if (!ownView) this.renderContent();
	}

	/**
	 * Shows the run in its kind's own view instead of the tabs when it has one that shows this run
	 * (a stream's panel; Run/Stop stays in the toolbar), any other run in the tabs. Whether it does.
	 */
	private showKindView(run: RunSnapshot): boolean {
		const kind = run.kind;
		const view = kind === undefined ? undefined : this.views.runViewOf(kind);
		const shows = view !== undefined && view.shows(run);
		if (this.kindView && (!shows || this.kindView.kind !== kind)) {
			this.removeChild(this.kindView.view);
			this.kindView = null;
		}
		if (shows && kind !== undefined && !this.kindView) {
			this.kindView = { view: this.addChild(view.mount(this.el, this.session, this.key, run)), kind };
			// The tabs draw afresh when they come back.
			this.shown = { snapshot: null, tab: null };
		}
		this.tabBar.toggleClass("rb-hidden", shows);
		this.content.toggleClass("rb-hidden", shows);
		return shows;
	}

	/** Run, or Stop while a request is in flight: the label says it, the icon shows it. */
	private showRunButton(active: boolean): void {
		if (this.runShown === active) return;
		this.runShown = active;
		setIcon(this.runIcon, active ? "square" : "play");
		this.runLabel.setText(active ? t("stop") : t("run"));
		this.runButton.toggleClass("rb-running", active);
	}

	private renderBadges(s: HttpView): void {
		this.badges.empty();
		const badge = (cls: string, text: string) => this.badges.createSpan({ cls: `rb-badge ${cls}`, text });
		badge(`rb-state rb-state-${s.state}`, s.state);
		if (s.head) badge(`rb-status rb-status-${Math.floor(s.head.status / 100)}xx`, `${s.head.status} ${s.head.statusText}`.trim());
		if (s.timing && !isActive(s.state)) badge("rb-time", formatMs(s.timing.total));
		const received = s.body?.byteLength ?? s.receivedBytes ?? 0;
		if (received > 0 || s.body) badge("rb-size", formatBytes(received));
		if (s.transport) badge("rb-transport", s.transport);
		if (s.state === "cached") badge("rb-cached", t("cached", { age: formatAge((s.startedAt ?? 0) - (s.cachedAt ?? s.startedAt ?? 0)) }));
		if (s.error) badge("rb-error", s.error.message).setAttr("title", s.error.detail ?? s.error.message);
		if (s.properties && !s.properties.ok) badge("rb-error rb-properties-error", t("propertiesNotSet")).setAttr("title", s.properties.message);
		if (s.poll) renderPoll(this.badges, s.poll);
	}

	/** Re-renders the active tab only when what it shows changed (streaming updates are cheap). */
	private renderContent(): void {
		const s = this.snapshot;
		const tab = this.tab;
		for (const b of Array.from(this.tabBar.children)) b.toggleClass("is-active", (b as HTMLElement).dataset.tab === tab);
		const sameResult = this.shown.snapshot !== null && this.shown.snapshot.body === s.body && this.shown.snapshot.head === s.head && this.shown.snapshot.state === s.state;
		if (this.shown.tab === tab && sameResult && !isActive(s.state)) return;
		if (isActive(s.state) && this.shown.tab === tab && this.shown.snapshot?.head === s.head && tab !== "body") return;
		this.shown = { snapshot: s, tab };
		if (this.tabChild) this.removeChild(this.tabChild);
		this.tabChild = null;
		this.content.empty();
		this.renderTab(tab, s);
	}

	private renderTab(tab: TabId, s: HttpView): void {
		const c = this.content;
		if (s.state === "idle") {
			c.createDiv({ cls: "rb-muted", text: t("notRunYet", { key: this.info.runKey }) });
			return;
		}
		if (s.error && !s.head) {
			const err = c.createDiv({ cls: "rb-error-box" });
			err.createDiv({ cls: "rb-error-message", text: s.error.message });
			if (s.error.detail) err.createDiv({ cls: "rb-muted rb-error-detail", text: s.error.detail });
			if (tab !== "raw" && tab !== "timing") return;
		}
		switch (tab) {
			case "body":
				if (isActive(s.state)) {
					c.createDiv({ cls: "rb-muted rb-progress", text: s.head ? t("receiving", { size: formatBytes(s.receivedBytes ?? 0) }) : t("waiting") });
				} else if (s.head && s.body) {
					this.tabChild = this.addChild(new BodyView(c, s.head, s.body));
				} else if (s.error) {
					c.createDiv({ cls: "rb-error-message", text: s.error.message });
				}
				return;
			case "headers":
				if (s.head) renderHeaders(c, s.head.headers);
				return;
			case "cookies":
				if (s.head) renderCookies(c, s.head.headers);
				if (this.actions.cookieJar) renderJar(c, this.actions.cookieJar());
				return;
			case "tests":
				renderTests(c, s);
				return;
			case "timing":
				renderTiming(c, s.timing, s.transport);
				return;
			case "raw":
				this.tabChild = this.addChild(new RawView(c, s));
				return;
			case "auth":
				if (this.actions.authTokens) this.tabChild = this.addChild(new AuthView(c, s.authUsed ?? [], this.actions.authTokens));
				return;
		}
	}
}
