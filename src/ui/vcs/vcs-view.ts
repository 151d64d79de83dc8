import { ItemView, Scope, setIcon, type KeymapEventHandler, type TAbstractFile, type WorkspaceLeaf } from "obsidian";
import { toObsidianHotkey, type Chord } from "../../settings/keymap";
import { groupChanges, type ChangeGroup, type FileChange, type GitFailure, type VcsSession, type VcsState } from "../../vcs";
import { BranchPicker } from "./branch-picker";
import { DiffModal } from "./diff-modal";
import type { VcsStringKey } from "./strings";

export const VCS_VIEW_TYPE = "runnable-blocks-vcs";

/** Rows drawn per group: beyond this a "…and N more" line keeps a 10,000-file change list cheap. */
const ROWS_PER_GROUP = 200;
/** Vault events within this many milliseconds cause one refresh. */
const REFRESH_DEBOUNCE_MS = 750;

type Translate = (key: VcsStringKey, vars?: Record<string, string | number>) => string;

/** What the panel needs from the plugin. */
export interface VcsViewHost {
	/** The session, or null on mobile (the panel then says it needs the desktop app). */
	session: VcsSession | null;
	t: Translate;
	/** The chords of vcs.commit and vcs.branch in force (user.toml, preset or default). */
	chords(): { commit: Chord | null; branch: Chord | null };
	/** Subscribes to keymap changes; returns the unsubscribe. */
	onKeymapChange(listener: () => void): () => void;
	/** Opens a repository-relative file in the workspace. */
	openFile(path: string): void;
	copy(text: string): void;
}

/**
 * The version-control panel (DESIGN.md section 12): a right-sidebar view that draws the session's
 * state and sends every action to it. vcs.commit is registered on the app's scope only while the
 * view is open, vcs.branch on the view's own scope (only while it has focus), so Obsidian's Mod+G
 * and Mod+B are untouched otherwise (DESIGN.md section 6).
 */
export class VcsView extends ItemView {
	private unsubscribe: (() => void) | null = null;
	private commitKey: KeymapEventHandler | null = null;
	private branchKey: KeymapEventHandler | null = null;
	private refreshTimer: number | null = null;
	private messageEl: HTMLTextAreaElement | null = null;
	private parts: Record<"header" | "banner" | "changes" | "commits", HTMLElement> | null = null;
	/** What the change list and the commit list were last drawn from: a busy flag alone redraws neither. */
	private drawn: { files: unknown; commits: unknown } = { files: null, commits: null };

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
		return this.host.t("viewTitle");
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
			root.createEl("p", { cls: "rb-vcs-empty", text: this.host.t("needsDesktop") });
			return;
		}
		this.parts = {
			header: root.createDiv({ cls: "rb-vcs-header" }),
			banner: root.createDiv({ cls: "rb-vcs-banner" }),
			changes: root.createDiv({ cls: "rb-vcs-changes" }),
			commits: root.createDiv({ cls: "rb-vcs-commits" }),
		};
		this.buildCommitBox(root, session);
		root.appendChild(this.parts.changes);
		root.appendChild(this.parts.commits);
		this.unsubscribe = session.subscribe((s) => this.draw(s));
		this.bindKeys();
		this.register(this.host.onKeymapChange(() => this.bindKeys()));
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
	}

	/** vcs.commit: stage everything and commit with the box's message (or the default). */
	commitAll(): void {
		const session = this.host.session;
		if (!session) return;
		const message = this.messageEl?.value ?? "";
		void session.commit(message, true).then(() => {
			if (this.messageEl && session.state.kind === "ready" && !session.state.problem) this.messageEl.value = "";
		});
	}

	/** vcs.branch: the branch picker; choosing switches or creates. */
	async pickBranch(): Promise<void> {
		const session = this.host.session;
		const repo = session?.repository;
		if (!session || !repo) return;
		const list = await repo.branches();
		if (!list.ok) return;
		new BranchPicker(this.app, list.value, this.host.t, (choice) => {
			void (choice.kind === "create" ? session.createBranch(choice.name) : session.switchTo(choice.branch));
		}).open();
	}

	private bindKeys(): void {
		this.unbindKeys();
		const { commit, branch } = this.host.chords();
		if (commit) {
			const k = toObsidianHotkey(commit);
			// false: handled, so Obsidian's own Mod+G (graph view) does not also run while the panel is open.
			this.commitKey = this.app.scope.register(k.modifiers, k.key, () => {
				this.commitAll();
				return false;
			});
		}
		if (branch) {
			const k = toObsidianHotkey(branch);
			this.branchKey = this.scope!.register(k.modifiers, k.key, () => {
				void this.pickBranch();
				return false;
			});
		}
	}

	private unbindKeys(): void {
		if (this.commitKey) this.app.scope.unregister(this.commitKey);
		if (this.branchKey) this.scope?.unregister(this.branchKey);
		this.commitKey = this.branchKey = null;
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

	private buildCommitBox(root: HTMLElement, session: VcsSession): void {
		const box = root.createDiv({ cls: "rb-vcs-commit-box" });
		this.messageEl = box.createEl("textarea", { cls: "rb-vcs-message", attr: { rows: "3", "aria-label": this.host.t("commit") } });
		const row = box.createDiv({ cls: "rb-vcs-commit-actions" });
		const commit = row.createEl("button", { text: this.host.t("commit"), cls: "mod-cta rb-vcs-commit" });
		this.registerDomEvent(commit, "click", () => {
			const message = this.messageEl?.value ?? "";
			void session.commit(message, false).then(() => {
				if (this.messageEl && session.state.kind === "ready" && !session.state.problem) this.messageEl.value = "";
			});
		});
		const all = row.createEl("button", { text: this.host.t("commitAll"), cls: "rb-vcs-commit-all" });
		this.registerDomEvent(all, "click", () => this.commitAll());
	}

	private draw(s: VcsState): void {
		const p = this.parts;
		if (!p) return;
		const t = this.host.t;
		const files = s.kind === "ready" ? s.snapshot.status.files : null;
		const commits = s.kind === "ready" ? s.commits : null;
		const redrawFiles = files !== this.drawn.files || files === null;
		const redrawCommits = commits !== this.drawn.commits || commits === null || (s.kind === "ready" && s.moreCommits !== (p.commits.querySelector(".rb-vcs-more-commits") !== null));
		p.header.empty();
		p.banner.empty();
		if (redrawFiles) p.changes.empty();
		if (redrawCommits) p.commits.empty();
		this.drawn = { files, commits };
		this.contentEl.toggleClass("rb-vcs-not-ready", s.kind !== "ready");
		if (s.kind === "loading") {
			p.banner.createEl("p", { cls: "rb-vcs-empty", text: t("loading") });
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
			busy.createSpan({ text: t("busy", { task: t(taskKey(s.busy)) }) });
			if (s.busy.startsWith("sync:") || s.busy === "publish") this.iconButton(busy, "x", t("cancel"), () => this.host.session?.cancel());
		}
		if (operation) p.banner.createEl("p", { cls: "rb-vcs-state", text: t(operation === "merge" ? "mergeInProgress" : "rebaseInProgress") });
		if (lockPath && s.problem?.code !== "index_locked") this.drawFailure(p.banner, { code: "index_locked", message: "", detail: lockPath }, remotes);
		if (s.problem) this.drawFailure(p.banner, s.problem, remotes);
		else if (s.lastSync) {
			const r = s.lastSync;
			const text = r.pulled || r.pushed ? t("synced", { pulled: r.pulled, pushed: r.pushed }) : t("syncNothing");
			p.banner.createEl("p", { cls: "rb-vcs-ok", text: r.committed ? `${t("committed", { hash: r.committed.slice(0, 7) })}. ${text}` : text });
		}
		if (this.messageEl) this.messageEl.placeholder = t("messagePlaceholder", { example: this.host.session?.defaultMessage() ?? "" });
		if (redrawFiles) this.drawChanges(p.changes, status.files);
		if (redrawCommits) this.drawCommits(p.commits, s);
	}

	private drawHeader(el: HTMLElement, s: Extract<VcsState, { kind: "ready" }>): void {
		const t = this.host.t;
		const b = s.snapshot.status.branch;
		const branch = el.createEl("button", { cls: "rb-vcs-branch", attr: { "aria-label": t("switchBranch") } });
		setIcon(branch.createSpan(), "git-branch");
		branch.createSpan({ text: b.head ?? t("detached", { oid: (b.oid ?? "").slice(0, 7) }) });
		onClick(branch, () => void this.pickBranch());
		const upstream = el.createSpan({ cls: "rb-vcs-upstream" });
		if (!b.upstream) upstream.setText(t("noUpstream"));
		else if (b.upstreamGone) upstream.setText(t("upstreamGone", { upstream: b.upstream }));
		else upstream.setText(`${b.upstream} ${t("aheadBehind", { ahead: b.ahead, behind: b.behind })}`);
		const tools = el.createDiv({ cls: "rb-vcs-tools" });
		this.iconButton(tools, "refresh-cw", t("refresh"), () => void this.host.session?.refresh());
		this.iconButton(tools, "refresh-ccw-dot", t("sync"), () => void this.host.session?.sync());
	}

	private drawFailure(el: HTMLElement, f: GitFailure, remotes: readonly string[]): void {
		const t = this.host.t;
		const box = el.createDiv({ cls: "rb-vcs-problem", attr: { "data-code": f.code } });
		box.createEl("p", { text: t(f.code, { ahead: f.ahead ?? 0, behind: f.behind ?? 0 }) });
		if (f.detail && f.code !== "diverged") box.createEl("pre", { cls: "rb-vcs-detail", text: f.detail });
		const session = this.host.session;
		if (!session) return;
		const action = (label: string, run: () => void) => {
			const b = box.createEl("button", { text: label });
			onClick(b, run);
		};
		if (f.code === "not_repository") {
			box.createEl("p", { cls: "setting-item-description", text: t("initialiseDesc") });
			action(t("initialise"), () => void session.initialise());
		}
		if (f.code === "index_locked") action(t("removeLock"), () => void session.removeStaleLock());
		if (f.code === "no_upstream" && remotes.length) action(t("publish", { remote: remotes[0] }), () => void session.publish(remotes[0]));
		if (f.code === "diverged" || f.code === "push_rejected") {
			box.createEl("p", { text: t("nextSteps") });
			for (const cmd of ["git merge @{upstream}", "git rebase @{upstream}"]) {
				const line = box.createDiv({ cls: "rb-vcs-hint" });
				line.createEl("code", { text: cmd });
				this.iconButton(line, "copy", t("copy"), () => this.host.copy(cmd));
			}
		}
	}

	private drawChanges(el: HTMLElement, files: readonly FileChange[]): void {
		const t = this.host.t;
		const session = this.host.session;
		if (!session) return;
		if (files.length === 0) {
			el.createEl("p", { cls: "rb-vcs-empty", text: t("noChanges") });
			return;
		}
		const groups = groupChanges(files);
		const order: ChangeGroup[] = ["conflicted", "staged", "unstaged", "untracked"];
		for (const group of order) {
			const list = groups[group];
			if (list.length === 0) continue;
			const section = el.createDiv({ cls: "rb-vcs-group", attr: { "data-group": group } });
			const head = section.createDiv({ cls: "rb-vcs-group-head" });
			head.createSpan({ text: `${t(group)} (${list.length})` });
			const paths = list.map((f) => f.path);
			if (group === "staged") this.iconButton(head, "minus", t("unstageAll"), () => void session.unstage(paths));
			else this.iconButton(head, "plus", t("stageAll"), () => void session.stage(paths));
			for (const f of list.slice(0, ROWS_PER_GROUP)) this.drawFile(section, f, group);
			if (list.length > ROWS_PER_GROUP) section.createDiv({ cls: "rb-vcs-more", text: t("andMore", { n: list.length - ROWS_PER_GROUP }) });
		}
	}

	private drawFile(section: HTMLElement, f: FileChange, group: ChangeGroup): void {
		const t = this.host.t;
		const session = this.host.session!;
		const row = section.createDiv({ cls: "rb-vcs-file", attr: { "data-path": f.path } });
		const letter = group === "staged" ? f.index : group === "untracked" ? "U" : f.worktree;
		row.createSpan({ cls: `rb-vcs-letter rb-vcs-letter-${letter === "?" ? "U" : letter}`, text: letter });
		const name = row.createEl("a", { cls: "rb-vcs-name", text: f.path, attr: { title: f.origPath ? `${f.origPath} → ${f.path}` : f.path } });
		onClick(name, () => this.host.openFile(f.path));
		const tools = row.createDiv({ cls: "rb-vcs-file-tools" });
		this.iconButton(tools, "file-diff", t("showDiff"), () => void this.showDiff(f.path));
		if (group === "staged") this.iconButton(tools, "minus", t("unstage"), () => void session.unstage([f.path]));
		else this.iconButton(tools, "plus", t("stage"), () => void session.stage([f.path]));
	}

	private drawCommits(el: HTMLElement, s: Extract<VcsState, { kind: "ready" }>): void {
		const t = this.host.t;
		el.createDiv({ cls: "rb-vcs-group-head", text: t("recentCommits") });
		if (s.commits.length === 0) el.createEl("p", { cls: "rb-vcs-empty", text: t("noCommits") });
		for (const c of s.commits) {
			const row = el.createDiv({ cls: "rb-vcs-commit-row", attr: { title: `${c.hash}\n${c.author}\n${new Date(c.time * 1000).toLocaleString()}` } });
			row.createEl("code", { text: c.shortHash });
			row.createSpan({ text: c.subject });
		}
		if (s.moreCommits) {
			const more = el.createEl("button", { cls: "rb-vcs-more-commits", text: t("moreCommits") });
			onClick(more, () => void this.host.session?.moreCommits());
		}
	}

	private async showDiff(path: string): Promise<void> {
		const repo = this.host.session?.repository;
		if (!repo) return;
		const head = await repo.fileAtHead(path);
		const work = await repo.fileInWorktree(path).catch(() => null);
		new DiffModal(this.app, path, head.ok ? head.value : null, work, this.host.t).open();
	}

	private iconButton(parent: HTMLElement, icon: string, label: string, run: () => void): HTMLElement {
		const b = parent.createEl("button", { cls: "clickable-icon", attr: { "aria-label": label, "data-action": icon } });
		setIcon(b, icon);
		onClick(b, run);
		return b;
	}
}

function taskKey(task: string): VcsStringKey {
	if (task.startsWith("sync:")) return `taskSync:${task.slice(5)}` as VcsStringKey;
	return `task${task[0].toUpperCase()}${task.slice(1)}` as VcsStringKey;
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
