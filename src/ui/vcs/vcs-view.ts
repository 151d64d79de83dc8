import { ItemView, Scope, setIcon, type KeymapEventHandler, type TAbstractFile, type WorkspaceLeaf } from "obsidian";
import { toObsidianHotkey, type Chord } from "../../settings/keymap";
import type { ChangeGroup, FileChange, GitFailure, VcsSession, VcsState } from "../../vcs";
import { pickBranch } from "./branch-picker";
import { changeList, rowAt, type ChangeList, type ChangeRow } from "./change-rows";
import { visibleRows } from "../visible-rows";
import { ConflictModal } from "./conflict-modal";
import { DiffModal } from "./diff-modal";
import { actionKey, confirmUndo } from "./undo-confirm";
import { t, vcsFailureKey, type StringKey } from "../strings";
import { VCS_VIEW_TYPE } from "./vcs-view-type";


/** Height of a change-list row in pixels (styles.css gives .rb-vcs-row the same): rows are placed by index. */
const ROW_PX = 26;
/** Rows drawn beyond each edge of the visible part, so a short scroll finds them drawn. */
const OVERSCAN = 10;
/** The height assumed while the list has no layout yet (a collapsed sidebar): a screenful of rows. */
const FALLBACK_VIEWPORT_PX = 600;
/** Vault events within this many milliseconds cause one refresh. */
const REFRESH_DEBOUNCE_MS = 750;

/** What the panel needs from the plugin. */
export interface VcsViewHost {
	/** The session, or null on mobile (the panel then says it needs the desktop app). */
	session: VcsSession | null;
	/**
	 * The chords of vcs.commit and vcs.branch in force (user.toml, preset or default), and whether
	 * vcs.commit acts while the panel is open (the Notebook preset) rather than only while focused.
	 */
	chords(): { commit: Chord | null; branch: Chord | null; commitWhileOpen: boolean };
	/** Subscribes to keymap changes; returns the unsubscribe. */
	onKeymapChange(listener: () => void): () => void;
	/** Opens a repository-relative file in the workspace. */
	openFile(path: string): void;
	copy(text: string): void;
}

/**
 * The version-control panel (docs/vcs.md): a right-sidebar view that draws the session's
 * state and sends every action to it. Its chords are on the view's own scope, live only while it
 * has focus, so Obsidian's Mod+G (graph view) and Mod+B (bold) are untouched elsewhere; the
 * Notebook preset puts vcs.commit on the app's scope while the view is open (docs/shortcuts.md).
 */
export class VcsView extends ItemView {
	private unsubscribe: (() => void) | null = null;
	/** The chords registered now, each with the scope it is on (unregistered from that one). */
	private keys: Array<{ scope: Scope; handler: KeymapEventHandler }> = [];
	private refreshTimer: number | null = null;
	private messageEl: HTMLTextAreaElement | null = null;
	private parts: Record<"header" | "banner" | "changes" | "commits" | "points", HTMLElement> | null = null;
	/** What the change list and the commit list were last drawn from: a busy flag alone redraws neither. */
	private drawn: { files: unknown; commits: unknown } = { files: null, commits: null };
	/**
	 * The change list, virtualised: every row has a place, only those in view (plus OVERSCAN) have
	 * DOM, so drawing 10,000 changes costs what drawing forty does.
	 */
	private list: { rows: ChangeList; el: HTMLElement | null; drawn: Map<number, HTMLElement>; frame: number | null } = { rows: { sections: [], count: 0 }, el: null, drawn: new Map(), frame: null };
	private resizeObserver: ResizeObserver | null = null;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: VcsViewHost,
	) {
		super(leaf);
		this.scope = new Scope(this.app.scope);
	}

	getViewType(): string {
		return VCS_VIEW_TYPE;
	}

	getDisplayText(): string {
		return t("vcsViewTitle");
	}

	override getIcon(): string {
		return "git-branch";
	}

	override async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("rb-vcs");
		const session = this.host.session;
		if (!session) {
			root.createEl("p", { cls: "rb-vcs-empty", text: t("vcsNeedsDesktop") });
			return;
		}
		this.parts = {
			header: root.createDiv({ cls: "rb-vcs-header" }),
			banner: root.createDiv({ cls: "rb-vcs-banner" }),
			changes: root.createDiv({ cls: "rb-vcs-changes" }),
			commits: root.createDiv({ cls: "rb-vcs-commits" }),
			points: root.createDiv({ cls: "rb-vcs-points" }),
		};
		this.buildCommitBox(root);
		root.appendChild(this.parts.changes);
		root.appendChild(this.parts.commits);
		root.appendChild(this.parts.points);
		this.registerDomEvent(this.parts.changes, "scroll", () => this.scheduleWindow(), { passive: true });
		if (typeof ResizeObserver === "function") {
			this.resizeObserver = new ResizeObserver(() => this.scheduleWindow());
			this.resizeObserver.observe(this.parts.changes);
		}
		this.unsubscribe = session.subscribe((s) => this.draw(s));
		this.bindKeys();
		// Settings changes: the chords, and the commit template the placeholder shows.
		this.register(
			this.host.onKeymapChange(() => {
				this.bindKeys();
				this.updatePlaceholder();
			}),
		);
		const later = (f?: TAbstractFile) => this.scheduleRefresh(f);
		this.registerEvent(this.app.vault.on("modify", later));
		this.registerEvent(this.app.vault.on("create", later));
		this.registerEvent(this.app.vault.on("delete", later));
		this.registerEvent(this.app.vault.on("rename", later));
		this.registerDomEvent(window, "focus", () => void session.refresh());
		this.draw(session.state);
		await session.refresh();
	}

	override async onClose(): Promise<void> {
		this.unsubscribe?.();
		this.unbindKeys();
		if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
		if (this.list.frame !== null) window.cancelAnimationFrame(this.list.frame);
		this.resizeObserver?.disconnect();
	}

	/** vcs.commit: stage everything and commit with the box's message (or the default); the box empties once it worked. */
	async commitAll(): Promise<void> {
		await this.commit(true);
	}

	private async commit(all: boolean): Promise<void> {
		const session = this.host.session;
		if (!session) return;
		await session.commit(this.messageEl?.value ?? "", all);
		if (this.messageEl && session.state.kind === "ready" && !session.state.problem) this.messageEl.value = "";
	}

	/** "Undo last …": back to the newest safety point, or to the one given; asks when anything changed since. */
	undo(id?: string): Promise<void> {
		return this.host.session?.undo((point, changes) => confirmUndo(this.app, point, changes), id) ?? Promise.resolve();
	}

	/** The conflicts of the merge or rebase in progress, one file at a time in the merge view. */
	resolveConflicts(path: string | null = null): void {
		if (this.host.session) new ConflictModal(this.app, this.host.session, path).open();
	}

	/** vcs.branch: the branch picker; choosing switches or creates (the panel shows how it went). */
	private pickBranch(): void {
		if (this.host.session) void pickBranch(this.app, this.host.session, "switch", () => undefined);
	}

	private bindKeys(): void {
		this.unbindKeys();
		const { commit, branch, commitWhileOpen } = this.host.chords();
		const bind = (scope: Scope, chord: Chord, run: () => void) => {
			const k = toObsidianHotkey(chord);
			// false: handled, so Obsidian's own hotkey on the chord (graph view, bold) does not also run.
			const handler = scope.register(k.modifiers, k.key, () => {
				run();
				return false;
			});
			this.keys.push({ scope, handler });
		};
		if (commit) bind(commitWhileOpen ? this.app.scope : this.scope!, commit, () => void this.commitAll());
		if (branch) bind(this.scope!, branch, () => this.pickBranch());
	}

	private unbindKeys(): void {
		for (const { scope, handler } of this.keys.splice(0)) scope.unregister(handler);
	}

	private scheduleRefresh(file?: TAbstractFile): void {
		// Obsidian's own per-device files change all the time and are ignored by the default .gitignore.
		if (file && /\/workspace[^/]*\.json$/.test(file.path)) return;
		if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
		this.refreshTimer = window.setTimeout(() => {
			this.refreshTimer = null;
			void this.host.session?.refresh();
		}, REFRESH_DEBOUNCE_MS);
	}

	private buildCommitBox(root: HTMLElement): void {
		const box = root.createDiv({ cls: "rb-vcs-commit-box" });
		this.messageEl = box.createEl("textarea", { cls: "rb-vcs-message", attr: { rows: "3", "aria-label": t("vcsCommit") } });
		const row = box.createDiv({ cls: "rb-vcs-commit-actions" });
		const commit = row.createEl("button", { text: t("vcsCommit"), cls: "mod-cta rb-vcs-commit" });
		this.registerDomEvent(commit, "click", () => void this.commit(false));
		const all = row.createEl("button", { text: t("vcsCommitAll"), cls: "rb-vcs-commit-all" });
		this.registerDomEvent(all, "click", () => void this.commitAll());
	}

	private draw(s: VcsState): void {
		const p = this.parts;
		if (!p) return;
		const files = s.kind === "ready" ? s.snapshot.status.files : null;
		const commits = s.kind === "ready" ? s.commits : null;
		const redrawFiles = files !== this.drawn.files || files === null;
		const redrawCommits = commits !== this.drawn.commits || commits === null || (s.kind === "ready" && s.moreCommits !== (p.commits.querySelector(".rb-vcs-more-commits") !== null));
		p.header.empty();
		p.banner.empty();
		if (redrawCommits) p.commits.empty();
		this.drawn = { files, commits };
		this.contentEl.toggleClass("rb-vcs-not-ready", s.kind !== "ready");
		if (redrawFiles && files === null) this.drawChanges(p.changes, null);
		if (s.kind === "loading") {
			p.banner.createEl("p", { cls: "rb-vcs-empty", text: t("vcsLoading") });
			return;
		}
		if (s.kind === "unavailable") {
			this.drawFailure(p.banner, s.failure, []);
			return;
		}
		const { status, operation, lockPath, remotes } = s.snapshot;
		this.drawHeader(p.header, s);
		if (s.busy) {
			const busy = p.banner.createDiv({ cls: "rb-vcs-busy" });
			busy.createSpan({ text: t("vcsBusy", { task: t(taskKey(s.busy)) }) });
			if (s.busy.startsWith("sync:") || s.busy === "publish") this.iconButton(busy, "x", t("vcsCancel"), () => this.host.session?.cancel());
		}
		if (operation) this.drawOperation(p.banner, operation, s.conflicts);
		if (lockPath && s.problem?.code !== "index_locked") this.drawFailure(p.banner, { code: "index_locked", message: "", detail: lockPath }, remotes);
		if (s.problem) this.drawFailure(p.banner, s.problem, remotes);
		else if (s.lastSync) {
			const r = s.lastSync;
			const text = r.pulled || r.pushed ? t("vcsSynced", { pulled: r.pulled, pushed: r.pushed }) : t("vcsSyncNothing");
			p.banner.createEl("p", { cls: "rb-vcs-ok", text: r.committed ? `${t("vcsCommitted", { hash: r.committed.slice(0, 7) })}. ${text}` : text });
		}
		if (redrawFiles) {
			// Only when the files change, and in a task of its own: the message names the changed notes (a pass over every file).
			window.setTimeout(() => this.updatePlaceholder(), 0);
			this.drawChanges(p.changes, status.files);
		}
		if (redrawCommits) this.drawCommits(p.commits, s);
		this.drawSafetyPoints(p.points, s);
	}

	/** A merge or rebase in progress (ours, or left by another tool): resolve, continue or abort it here. */
	private drawOperation(el: HTMLElement, operation: "merge" | "rebase", conflicts: readonly string[]): void {
		const box = el.createDiv({ cls: "rb-vcs-state", attr: { "data-operation": operation } });
		box.createEl("p", { text: t(operation === "merge" ? "vcsMergeInProgress" : "vcsRebaseInProgress") });
		const session = this.host.session;
		if (!session) return;
		const action = (label: string, name: string, run: () => void) => onClick(box.createEl("button", { text: label, attr: { "data-action": name } }), run);
		if (conflicts.length) action(t("vcsResolveConflicts", { n: conflicts.length }), "resolve", () => this.resolveConflicts());
		else action(t("vcsContinue"), "continue", () => void session.continueIntegration());
		action(t("vcsAbort"), "abort", () => void session.abortIntegration());
	}

	/** The safety points, newest first, each with what going back to it undoes. */
	private drawSafetyPoints(el: HTMLElement, s: Extract<VcsState, { kind: "ready" }>): void {
		const key = s.safetyPoints.map((p) => p.id).join(",");
		if (el.dataset.drawn === key) return;
		el.dataset.drawn = key;
		el.empty();
		if (s.safetyPoints.length === 0) return;
		const details = el.createEl("details");
		details.createEl("summary", { cls: "rb-vcs-group-head", text: t("vcsSafetyPoints", { n: s.safetyPoints.length }) });
		for (const point of s.safetyPoints) {
			const row = details.createDiv({ cls: "rb-vcs-point-row", attr: { "data-point": point.id } });
			row.createSpan({ text: t("vcsSafetyPointRow", { action: t(actionKey(point.action)), time: new Date(point.time).toLocaleString() }) });
			this.iconButton(row, "undo-2", t("vcsUndoTo", { action: t(actionKey(point.action)) }), () => void this.undo(point.id));
		}
	}

	/** The commit box proposes the default message for the current changes. */
	private updatePlaceholder(): void {
		if (this.messageEl) this.messageEl.placeholder = t("vcsMessagePlaceholder", { example: this.host.session?.defaultMessage() ?? "" });
	}

	private drawHeader(el: HTMLElement, s: Extract<VcsState, { kind: "ready" }>): void {
		const b = s.snapshot.status.branch;
		const branch = el.createEl("button", { cls: "rb-vcs-branch", attr: { "aria-label": t("vcsSwitchBranch") } });
		setIcon(branch.createSpan(), "git-branch");
		branch.createSpan({ text: b.head ?? t("vcsDetached", { oid: (b.oid ?? "").slice(0, 7) }) });
		onClick(branch, () => this.pickBranch());
		const upstream = el.createSpan({ cls: "rb-vcs-upstream" });
		if (!b.upstream) upstream.setText(t("vcsNoUpstream"));
		else if (b.upstreamGone) upstream.setText(t("vcsUpstreamGone", { upstream: b.upstream }));
		else upstream.setText(`${b.upstream} ${t("vcsAheadBehind", { ahead: b.ahead, behind: b.behind })}`);
		const tools = el.createDiv({ cls: "rb-vcs-tools" });
		this.iconButton(tools, "refresh-cw", t("vcsRefresh"), () => void this.host.session?.refresh());
		this.iconButton(tools, "refresh-ccw-dot", t("vcsSync"), () => void this.host.session?.sync());
		const last = s.safetyPoints[0];
		if (last) this.iconButton(tools, "undo-2", t("vcsUndoLast", { action: t(actionKey(last.action)) }), () => void this.undo());
	}

	private drawFailure(el: HTMLElement, f: GitFailure, remotes: readonly string[]): void {
		const box = el.createDiv({ cls: "rb-vcs-problem", attr: { "data-code": f.code } });
		box.createEl("p", { text: t(vcsFailureKey(f.code), { ahead: f.ahead ?? 0, behind: f.behind ?? 0 }) });
		if (f.detail && f.code !== "diverged") box.createEl("pre", { cls: "rb-vcs-detail", text: f.detail });
		const session = this.host.session;
		if (!session) return;
		const action = (label: string, run: () => void) => {
			const b = box.createEl("button", { text: label });
			onClick(b, run);
		};
		if (f.code === "not_repository") {
			box.createEl("p", { cls: "setting-item-description", text: t("vcsInitialiseDesc") });
			action(t("vcsInitialise"), () => void session.initialise());
		}
		if (f.code === "index_locked") action(t("vcsRemoveLock"), () => void session.removeStaleLock());
		if (f.code === "no_upstream" && remotes.length) action(t("vcsPublish", { remote: remotes[0] }), () => void session.publish(remotes[0]));
		if (f.code === "diverged") {
			// Each after a safety point; a conflict opens the merge view.
			action(t("vcsRebaseRemote"), () => void session.integrate("rebase").then(() => this.afterIntegrate()));
			action(t("vcsMergeRemote"), () => void session.integrate("merge").then(() => this.afterIntegrate()));
		}
	}

	/** A merge or rebase that stopped at conflicts opens the first one. */
	private afterIntegrate(): void {
		const s = this.host.session?.state;
		if (s?.kind === "ready" && s.conflicts.length) this.resolveConflicts();
	}

	/** Lays out the rows of `files` and draws those in view; the scroll position survives a refresh. */
	private drawChanges(box: HTMLElement, files: readonly FileChange[] | null): void {
		const scrollTop = box.scrollTop;
		box.empty();
		this.list.rows = changeList(files ?? []);
		this.list.drawn = new Map();
		this.list.el = null;
		if (!files) return;
		if (files.length === 0) {
			box.createEl("p", { cls: "rb-vcs-empty", text: t("vcsNoChanges") });
			return;
		}
		this.list.el = box.createDiv({ cls: "rb-vcs-rows" });
		this.list.el.setCssProps({ height: `${this.list.rows.count * ROW_PX}px` });
		box.scrollTop = scrollTop;
		this.drawWindow();
	}

	private scheduleWindow(): void {
		if (this.list.frame !== null) return;
		this.list.frame = window.requestAnimationFrame(() => {
			this.list.frame = null;
			this.drawWindow();
		});
	}

	/** Draws the rows now in view and removes those scrolled out of it; rows still in view stay as they are. */
	private drawWindow(): void {
		const box = this.parts?.changes;
		const { el, rows, drawn } = this.list;
		if (!box || !el) return;
		const { start, end } = visibleRows(box.scrollTop, box.clientHeight || FALLBACK_VIEWPORT_PX, ROW_PX, rows.count, OVERSCAN);
		for (const [i, row] of drawn) {
			if (i >= start && i < end) continue;
			row.remove();
			drawn.delete(i);
		}
		for (let i = start; i < end; i++) {
			if (drawn.has(i)) continue;
			const row = this.drawRow(el, rowAt(rows, i));
			row.setCssProps({ top: `${i * ROW_PX}px` });
			drawn.set(i, row);
		}
	}

	private drawRow(parent: HTMLElement, r: ChangeRow): HTMLElement {
		if (r.kind === "file") return this.drawFile(parent, r.file, r.group);
		const session = this.host.session!;
		const head = parent.createDiv({ cls: "rb-vcs-row rb-vcs-group-head", attr: { "data-group": r.group } });
		head.createSpan({ text: `${t(groupKey(r.group))} (${r.files.length})` });
		const paths = () => r.files.map((f) => f.path);
		if (r.group === "staged") this.iconButton(head, "minus", t("vcsUnstageAll"), () => void session.unstage(paths()));
		else this.iconButton(head, "plus", t("vcsStageAll"), () => void session.stage(paths()));
		return head;
	}

	private drawFile(parent: HTMLElement, f: FileChange, group: ChangeGroup): HTMLElement {
		const session = this.host.session!;
		const row = parent.createDiv({ cls: "rb-vcs-row rb-vcs-file", attr: { "data-path": f.path, "data-group": group } });
		const letter = group === "staged" ? f.index : group === "untracked" ? "U" : f.worktree;
		row.createSpan({ cls: `rb-vcs-letter rb-vcs-letter-${letter === "?" ? "U" : letter}`, text: letter });
		const name = row.createEl("a", { cls: "rb-vcs-name", text: f.path, attr: { title: f.origPath ? `${f.origPath} → ${f.path}` : f.path } });
		onClick(name, () => this.host.openFile(f.path));
		const tools = row.createDiv({ cls: "rb-vcs-file-tools" });
		if (group === "conflicted") this.iconButton(tools, "git-merge", t("vcsResolve"), () => this.resolveConflicts(f.path));
		else this.iconButton(tools, "file-diff", t("vcsShowDiff"), () => void this.showDiff(f.path));
		// Work-tree changes only: a staged file is unstaged first, and a conflict is resolved, never discarded.
		if (group === "unstaged" || group === "untracked") this.iconButton(tools, "undo-2", t("vcsDiscard"), () => void session.discard(f.path, group === "untracked"));
		if (group === "staged") this.iconButton(tools, "minus", t("vcsUnstage"), () => void session.unstage([f.path]));
		else this.iconButton(tools, "plus", t("vcsStage"), () => void session.stage([f.path]));
		return row;
	}

	private drawCommits(el: HTMLElement, s: Extract<VcsState, { kind: "ready" }>): void {
		el.createDiv({ cls: "rb-vcs-group-head", text: t("vcsRecentCommits") });
		if (s.commits.length === 0) el.createEl("p", { cls: "rb-vcs-empty", text: t("vcsNoCommits") });
		for (const c of s.commits) {
			const row = el.createDiv({ cls: "rb-vcs-commit-row", attr: { title: `${c.hash}\n${c.author}\n${new Date(c.time * 1000).toLocaleString()}` } });
			row.createEl("code", { text: c.shortHash });
			row.createSpan({ text: c.subject });
		}
		if (s.moreCommits) {
			const more = el.createEl("button", { cls: "rb-vcs-more-commits", text: t("vcsMoreCommits") });
			onClick(more, () => void this.host.session?.moreCommits());
		}
	}

	private async showDiff(path: string): Promise<void> {
		const repo = this.host.session?.repository;
		if (!repo) return;
		const head = await repo.fileAtHead(path);
		const work = await repo.fileInWorktree(path).catch(() => null);
		new DiffModal(this.app, path, head.ok ? head.value : null, work).open();
	}

	private iconButton(parent: HTMLElement, icon: string, label: string, run: () => void): HTMLElement {
		const b = parent.createEl("button", { cls: "clickable-icon", attr: { "aria-label": label, "data-action": icon } });
		setIcon(b, icon);
		onClick(b, run);
		return b;
	}
}

function taskKey(task: string): StringKey {
	if (task.startsWith("sync:")) return `vcsTaskSync:${task.slice(5)}` as StringKey;
	return `vcsTask${task[0].toUpperCase()}${task.slice(1)}` as StringKey;
}

function groupKey(group: ChangeGroup): StringKey {
	return `vcs${group[0].toUpperCase()}${group.slice(1)}` as `vcs${Capitalize<ChangeGroup>}`;
}

/**
 * A click on an element the next draw replaces: a plain listener that goes with the element, where
 * registerDomEvent would keep every past draw's listeners until the view closes.
 */
function onClick(el: HTMLElement, run: () => void): void {
	el.addEventListener("click", (e) => {
		e.stopPropagation();
		run();
	});
}
