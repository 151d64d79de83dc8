/**
 * The `obsidian` module for the browser test host: the subset of the API the plugin uses,
 * implemented on the real DOM and real CodeMirror 6 (the same instances handed to main.js).
 */
import { StateField } from "@codemirror/state";
import { icons as lucideIcons, type IconNode } from "lucide";
import { Keymap, Scope, settingTabAdded, type PluginSettingTab } from "./obsidian-ui";

export { ButtonComponent, closeSettingTab, DropdownComponent, ExtraButtonComponent, Keymap, Modal, openSettingTab, playSettingsApi, PluginSettingTab, requireApiVersion, Scope, Setting, SuggestModal, TextComponent, ToggleComponent } from "./obsidian-ui";

type Cb<T> = (el: T) => void;
interface ElInfo {
	cls?: string | string[];
	text?: string;
	attr?: Record<string, string | number | boolean | null>;
	title?: string;
	value?: string;
	type?: string;
	placeholder?: string;
	href?: string;
}

function applyInfo(el: HTMLElement, o?: ElInfo | string): void {
	if (o === undefined) return;
	if (typeof o === "string") {
		el.className = o;
		return;
	}
	if (o.cls) el.className = Array.isArray(o.cls) ? o.cls.join(" ") : o.cls;
	if (o.text !== undefined) el.textContent = o.text;
	if (o.title) el.title = o.title;
	if (o.value !== undefined) (el as HTMLInputElement).value = o.value;
	if (o.type) el.setAttribute("type", o.type);
	if (o.placeholder) el.setAttribute("placeholder", o.placeholder);
	if (o.href) el.setAttribute("href", o.href);
	for (const [k, v] of Object.entries(o.attr ?? {})) if (v !== null && v !== false) el.setAttribute(k, String(v));
}

/** Obsidian's DOM helpers, installed on the prototypes as the app does. */
export function installDomHelpers(): void {
	const proto = Node.prototype as unknown as Record<string, unknown>;
	proto.createEl = function <K extends keyof HTMLElementTagNameMap>(this: Node, tag: K, o?: ElInfo | string, cb?: Cb<HTMLElementTagNameMap[K]>) {
		const el = document.createElement(tag);
		applyInfo(el, o);
		this.appendChild(el);
		cb?.(el);
		return el;
	};
	proto.createDiv = function (this: Node & { createEl: (t: string, o?: ElInfo | string, cb?: Cb<HTMLElement>) => HTMLElement }, o?: ElInfo | string, cb?: Cb<HTMLElement>) {
		return this.createEl("div", o, cb);
	};
	proto.createSpan = function (this: Node & { createEl: (t: string, o?: ElInfo | string, cb?: Cb<HTMLElement>) => HTMLElement }, o?: ElInfo | string, cb?: Cb<HTMLElement>) {
		return this.createEl("span", o, cb);
	};
	proto.empty = function (this: Node) {
		while (this.firstChild) this.removeChild(this.firstChild);
	};
	proto.appendText = function (this: Node, t: string) {
		this.appendChild(document.createTextNode(t));
	};
	proto.setText = function (this: Node, t: string) {
		this.textContent = t;
	};
	const el = HTMLElement.prototype as unknown as Record<string, unknown>;
	el.addClass = function (this: HTMLElement, ...c: string[]) {
		this.classList.add(...c.flatMap((x) => x.split(" ").filter(Boolean)));
	};
	el.removeClass = function (this: HTMLElement, ...c: string[]) {
		this.classList.remove(...c);
	};
	el.toggleClass = function (this: HTMLElement, c: string, v: boolean) {
		this.classList.toggle(c, v);
	};
	el.hasClass = function (this: HTMLElement, c: string) {
		return this.classList.contains(c);
	};
	el.setAttr = function (this: HTMLElement, k: string, v: string | number | boolean | null) {
		if (v === null) this.removeAttribute(k);
		else this.setAttribute(k, String(v));
	};
	// Obsidian's show/hide/toggle: display none, or back to the stylesheet's.
	el.hide = function (this: HTMLElement) {
		this.setCssProps({ display: "none" });
	};
	el.show = function (this: HTMLElement) {
		this.style.removeProperty("display");
	};
	el.toggle = function (this: HTMLElement, show: boolean) {
		if (show) this.style.removeProperty("display");
		else this.setCssProps({ display: "none" });
	};
	el.setCssProps = function (this: HTMLElement, props: Record<string, string>) {
		for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
	};
	const g = window as unknown as Record<string, unknown>;
	const holder = () => document.createDocumentFragment() as unknown as { createEl: (t: string, o?: ElInfo | string, cb?: Cb<HTMLElement>) => HTMLElement };
	g.createFragment = () => document.createDocumentFragment();
	g.createEl = (t: string, o?: ElInfo | string, cb?: Cb<HTMLElement>) => holder().createEl(t, o, cb);
	g.createDiv = (o?: ElInfo | string, cb?: Cb<HTMLElement>) => holder().createEl("div", o, cb);
	g.createSpan = (o?: ElInfo | string, cb?: Cb<HTMLElement>) => holder().createEl("span", o, cb);
	g.activeWindow = window;
	g.activeDocument = document;
}

/** Obsidian's EventRef: the Events object that gave it, which can take it off again. */
export interface EventRef {
	e: { offref(ref: EventRef): void };
}

export class Component {
	private children: Component[] = [];
	private cleanups: Array<() => void> = [];
	private loaded = false;
	load(): void {
		if (this.loaded) return;
		this.loaded = true;
		this.onload();
		for (const c of this.children) c.load();
	}
	onload(): void {}
	unload(): void {
		if (!this.loaded) return;
		this.loaded = false;
		for (const c of this.children.splice(0)) c.unload();
		for (const f of this.cleanups.splice(0)) f();
		this.onunload();
	}
	onunload(): void {}
	addChild<T extends Component>(c: T): T {
		this.children.push(c);
		if (this.loaded) c.load();
		return c;
	}
	removeChild<T extends Component>(c: T): T {
		this.children = this.children.filter((x) => x !== c);
		c.unload();
		return c;
	}
	register(cb: () => void): void {
		this.cleanups.push(cb);
	}
	registerDomEvent(el: EventTarget, type: string, cb: EventListener): void {
		el.addEventListener(type, cb);
		this.register(() => el.removeEventListener(type, cb));
	}
	/** As Obsidian's: the ref's own Events object takes the handler off when the component unloads. */
	registerEvent(ref: EventRef): void {
		this.register(() => ref.e.offref(ref));
	}
	registerInterval(id: number): number {
		this.register(() => window.clearInterval(id));
		return id;
	}
}

export class MarkdownRenderChild extends Component {
	constructor(public containerEl: HTMLElement) {
		super();
	}
}

export const notices: string[] = [];
export class Notice {
	constructor(message: string) {
		notices.push(message);
		document.getElementById("notices")?.createDiv({ cls: "notice", text: message });
	}
	hide(): void {}
}

class MenuItem {
	title = "";
	handler: ((e: MouseEvent) => void) | null = null;
	setTitle(t: string): this {
		this.title = t;
		return this;
	}
	icon: string | null = null;
	setIcon(icon: string): this {
		this.icon = icon;
		return this;
	}
	onClick(h: (e: MouseEvent) => void): this {
		this.handler = h;
		return this;
	}
}

export class Menu extends Component {
	private items: Array<MenuItem | null> = [];
	addItem(cb: (i: MenuItem) => void): this {
		const i = new MenuItem();
		cb(i);
		this.items.push(i);
		return this;
	}
	addSeparator(): this {
		this.items.push(null);
		return this;
	}
	showAtMouseEvent(_e: MouseEvent): void {
		document.querySelector(".menu")?.remove();
		const menu = document.body.createDiv({ cls: "menu" });
		for (const item of this.items) {
			if (!item) {
				menu.createDiv({ cls: "menu-separator" });
				continue;
			}
			const el = menu.createDiv({ cls: "menu-item" });
			if (item.icon) setIcon(el.createDiv({ cls: "menu-item-icon" }), item.icon);
			el.createDiv({ cls: "menu-item-title", text: item.title });
			el.addEventListener("click", (e) => {
				menu.remove();
				item.handler?.(e);
			});
		}
	}
}

/** The Lucide icon named in kebab case ("refresh-cw"), as Obsidian's icon ids are. */
function lucideIcon(name: string): IconNode | undefined {
	const pascal = name.replace(/(^|-)([a-z0-9])/g, (_m, _d: string, c: string) => c.toUpperCase());
	return (lucideIcons as Record<string, IconNode | undefined>)[pascal];
}

/**
 * Obsidian's setIcon: the element's content becomes `<svg class="svg-icon lucide-NAME">` drawn
 * from the Lucide set; an unknown id does nothing. Built element by element (no markup parsing).
 */
export function setIcon(el: HTMLElement, name: string): void {
	const node = lucideIcon(name);
	if (!node) return;
	const NS = "http://www.w3.org/2000/svg";
	const svg = document.createElementNS(NS, "svg");
	const attrs: Record<string, string> = { width: "24", height: "24", viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round", class: `svg-icon lucide-${name}` };
	for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
	for (const [tag, a] of node) {
		const child = document.createElementNS(NS, tag);
		for (const [k, v] of Object.entries(a)) if (v !== undefined) child.setAttribute(k, String(v));
		svg.appendChild(child);
	}
	el.empty();
	el.appendChild(svg);
}

export const Platform = { isDesktopApp: false, isDesktop: true, isMobile: false, isMobileApp: false, isMacOS: false };
export function getLanguage(): string {
	return "en";
}
export function normalizePath(p: string): string {
	return p.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
}

type RequestUrlBridge = (r: { url: string; method?: string; headers?: Record<string, string>; body?: string }) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

export async function requestUrl(r: { url: string; method?: string; headers?: Record<string, string>; body?: string | ArrayBuffer }) {
	// A test that gives the page a Node-side bridge gets Obsidian's requestUrl as it is: outside the page, so no CORS.
	const bridge = (window as unknown as { __requestUrlBridge?: RequestUrlBridge }).__requestUrlBridge;
	if (bridge && typeof r.body !== "object") {
		const out = await bridge({ url: r.url, method: r.method, headers: r.headers, body: r.body });
		const bytes = Uint8Array.from(atob(out.body), (c) => c.charCodeAt(0));
		return { status: out.status, headers: out.headers, arrayBuffer: bytes.buffer, text: new TextDecoder().decode(bytes), json: undefined };
	}
	const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
	const arrayBuffer = await res.arrayBuffer();
	const headers: Record<string, string> = {};
	res.headers.forEach((v, k) => (headers[k] = v));
	// Like Obsidian's, text is only decoded when read.
	return {
		status: res.status,
		headers,
		arrayBuffer,
		get text() {
			return new TextDecoder().decode(arrayBuffer);
		},
		json: undefined,
	};
}

export class TFile {
	readonly stat = { mtime: Date.now(), ctime: Date.now(), size: 0 };
	constructor(public path: string) {}
}
/** Obsidian's Editor, over a CodeMirror view: the calls the plugin makes. */
export class Editor {
	constructor(public cm: import("@codemirror/view").EditorView) {}
	getValue(): string {
		return this.cm.state.doc.toString();
	}
	offsetToPos(offset: number): { line: number; ch: number } {
		const line = this.cm.state.doc.lineAt(offset);
		return { line: line.number - 1, ch: offset - line.from };
	}
	posToOffset(pos: { line: number; ch: number }): number {
		return this.cm.state.doc.line(pos.line + 1).from + pos.ch;
	}
	getCursor(): { line: number; ch: number } {
		return this.offsetToPos(this.cm.state.selection.main.head);
	}
	getSelection(): string {
		const { from, to } = this.cm.state.selection.main;
		return this.cm.state.sliceDoc(from, to);
	}
	getLine(line: number): string {
		return this.cm.state.doc.line(line + 1).text;
	}
	lineCount(): number {
		return this.cm.state.doc.lines;
	}
	setValue(text: string): void {
		this.cm.dispatch({ changes: { from: 0, to: this.cm.state.doc.length, insert: text } });
	}
	replaceRange(text: string, from: Pos, to?: Pos): void {
		this.cm.dispatch({ changes: { from: this.posToOffset(from), to: to ? this.posToOffset(to) : undefined, insert: text } });
	}
	setCursor(pos: Pos | number, ch?: number): void {
		const p = typeof pos === "number" ? { line: pos, ch: ch ?? 0 } : pos;
		this.cm.dispatch({ selection: { anchor: this.posToOffset(p) }, scrollIntoView: true });
	}
	scrollIntoView(_range: unknown, _center?: boolean): void {}
	focus(): void {
		this.cm.focus();
	}
	/** One transaction, so one undo step — as Obsidian's Editor.transaction. */
	transaction(tx: { changes: Array<{ from: { line: number; ch: number }; to?: { line: number; ch: number }; text: string }> }): void {
		this.cm.dispatch({ changes: tx.changes.map((c) => ({ from: this.posToOffset(c.from), to: c.to ? this.posToOffset(c.to) : undefined, insert: c.text })) });
	}
}

export class MarkdownView {
	constructor(
		public file: TFile,
		public editor: Editor,
	) {}
}

export const editorInfoField = StateField.define<{ file: TFile | null }>({ create: () => ({ file: new TFile("note.md") }), update: (v) => v });
export const editorLivePreviewField = StateField.define<boolean>({ create: () => false, update: (v) => v });

type Pos = { line: number; ch: number };
interface SuggestContext {
	editor: Editor;
	file: TFile | null;
	start: Pos;
	end: Pos;
	query: string;
}

/**
 * Obsidian's EditorSuggest, driven by the host after every editor update: onTrigger →
 * getSuggestions → a `.suggestion-container` popover; while open, its scope takes
 * ArrowUp/ArrowDown/Enter/Escape (and whatever the plugin registers) before the editor.
 * `suggestions.useSelectedItem` mirrors Obsidian's internal chooser, which plugins call for Tab.
 */
export class EditorSuggest<T> {
	context: SuggestContext | null = null;
	limit = 100;
	readonly scope = new Scope();
	private el: HTMLElement | null = null;
	private items: T[] = [];
	private selected = 0;
	readonly suggestions = {
		useSelectedItem: (evt: KeyboardEvent | MouseEvent) => this.hostChoose(evt),
	};
	constructor(public app: { keymap: Keymap }) {
		this.scope.register([], "ArrowDown", () => (this.hostSelect(this.selected + 1), false));
		this.scope.register([], "ArrowUp", () => (this.hostSelect(this.selected - 1), false));
		this.scope.register([], "Enter", (e) => (this.hostChoose(e), false));
		this.scope.register([], "Escape", () => (this.close(), false));
	}
	setInstructions(_i: unknown): void {}
	isOpen(): boolean {
		return this.el !== null;
	}
	close(): void {
		if (this.el) this.app.keymap.popScope(this.scope);
		this.el?.remove();
		this.el = null;
		this.context = null;
	}
	onTrigger(_cursor: Pos, _editor: Editor, _file: TFile | null): { start: Pos; end: Pos; query: string } | null {
		return null;
	}
	getSuggestions(_ctx: SuggestContext): T[] | Promise<T[]> {
		return [];
	}
	renderSuggestion(_value: T, _el: HTMLElement): void {}
	selectSuggestion(_value: T, _evt: KeyboardEvent | MouseEvent): void {}

	/** Host hook: re-evaluates the trigger at the cursor. */
	async hostUpdate(editor: Editor, file: TFile | null): Promise<void> {
		const info = this.onTrigger(editor.getCursor(), editor, file);
		if (!info) return this.close();
		const ctx = { ...info, editor, file };
		this.context = ctx;
		const items = (await this.getSuggestions(ctx)).slice(0, this.limit);
		if (this.context !== ctx) return;
		if (items.length === 0) return this.close();
		this.items = items;
		if (!this.el) {
			this.el = document.body.createDiv({ cls: "suggestion-container" });
			this.app.keymap.pushScope(this.scope);
		}
		const at = editor.cm.coordsAtPos(editor.posToOffset(info.end));
		this.el.style.setProperty("left", `${at?.left ?? 0}px`);
		this.el.style.setProperty("top", `${at?.bottom ?? 0}px`);
		const list = this.el;
		list.empty();
		for (const item of items) {
			const row = list.createDiv({ cls: "suggestion-item" });
			this.renderSuggestion(item, row);
			row.addEventListener("mousedown", (e) => {
				e.preventDefault();
				this.selected = items.indexOf(item);
				this.hostChoose(e);
			});
		}
		this.hostSelect(0);
	}
	private hostSelect(i: number): void {
		if (!this.el || this.items.length === 0) return;
		this.selected = (i + this.items.length) % this.items.length;
		Array.from(this.el.children).forEach((el, n) => el.classList.toggle("is-selected", n === this.selected));
	}
	private hostChoose(evt: KeyboardEvent | MouseEvent): void {
		const item = this.items[this.selected];
		if (item === undefined || !this.context) return;
		this.selectSuggestion(item, evt);
		this.close();
	}
}

/** A leaf of the host's right sidebar (`#sidebar`), holding one view. */
export class WorkspaceLeaf {
	view: ItemView | null = null;
	constructor(
		readonly app: unknown,
		private readonly factories: Map<string, (leaf: WorkspaceLeaf) => ItemView>,
		private readonly onDetach: (leaf: WorkspaceLeaf) => void,
	) {}
	async setViewState(state: { type: string }): Promise<void> {
		const factory = this.factories.get(state.type);
		if (!factory) throw new Error(`no view registered for ${state.type}`);
		this.view = factory(this);
		(document.getElementById("sidebar") ?? document.body).appendChild(this.view.containerEl);
		this.view.load();
		await this.view.onOpen();
	}
	detach(): void {
		const view = this.view;
		this.view = null;
		if (view) {
			void view.onClose();
			view.unload();
			view.containerEl.remove();
		}
		this.onDetach(this);
	}
}

/** Obsidian's ItemView: a container with a content element, opened and closed by its leaf. */
export class ItemView extends Component {
	readonly app: unknown;
	readonly containerEl: HTMLElement;
	readonly contentEl: HTMLElement;
	scope: Scope | null = null;
	constructor(readonly leaf: WorkspaceLeaf) {
		super();
		this.app = leaf.app;
		this.containerEl = createDiv({ cls: "workspace-leaf-content" });
		this.containerEl.createDiv({ cls: "view-header" });
		this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
	}
	getIcon(): string {
		return "";
	}
	getViewType(): string {
		return "";
	}
	async onOpen(): Promise<void> {}
	async onClose(): Promise<void> {}
}

/**
 * Obsidian's renderer, as far as the tests need it: fenced code blocks become <pre><code> and the
 * rest paragraphs, all through text nodes (as Obsidian, it never parses HTML out of the text).
 */
export const MarkdownRenderer = {
	render(_app: unknown, markdown: string, el: HTMLElement, _sourcePath: string, _component: Component): Promise<void> {
		const lines = markdown.split("\n");
		let paragraph: string[] = [];
		const flush = () => {
			if (paragraph.join("").trim()) el.createEl("p", { text: paragraph.join("\n") });
			paragraph = [];
		};
		for (let i = 0; i < lines.length; i++) {
			const open = /^(`{3,}|~{3,})(\S*)/.exec(lines[i]);
			if (!open) {
				if (lines[i].trim() === "") flush();
				else paragraph.push(lines[i]);
				continue;
			}
			flush();
			const body: string[] = [];
			for (i++; i < lines.length && !lines[i].startsWith(open[1]); i++) body.push(lines[i]);
			el.createEl("pre").createEl("code", { cls: open[2] ? `language-${open[2]}` : "", text: body.join("\n") });
		}
		flush();
		return Promise.resolve();
	},
};

export class Plugin extends Component {
	readonly views = new Map<string, (leaf: WorkspaceLeaf) => ItemView>();
	registerView(type: string, factory: (leaf: WorkspaceLeaf) => ItemView): void {
		this.views.set(type, factory);
	}
	readonly suggests: unknown[] = [];
	readonly processors = new Map<string, (source: string, el: HTMLElement, ctx: unknown) => void>();
	readonly extensions: unknown[] = [];
	readonly commands: Array<{ id: string; name: string; callback?: () => unknown; checkCallback?: (checking: boolean) => boolean | void; editorCheckCallback?: (checking: boolean, editor: Editor, view: MarkdownView) => boolean | void; editorCallback?: (editor: Editor, view: MarkdownView) => unknown }> = [];
	readonly settingTabs: PluginSettingTab[] = [];
	constructor(
		public app: unknown,
		public manifest: { id: string },
	) {
		super();
	}
	registerMarkdownCodeBlockProcessor(lang: string, handler: (source: string, el: HTMLElement, ctx: unknown) => void): void {
		this.processors.set(lang, handler);
	}
	registerEditorExtension(ext: unknown): void {
		this.extensions.push(ext);
	}
	registerEditorSuggest(s: unknown): void {
		this.suggests.push(s);
	}
	addCommand(c: Plugin["commands"][number]): void {
		this.commands.push(c);
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
		settingTabAdded(tab);
	}
	addStatusBarItem(): HTMLElement {
		return (document.getElementById("status-bar") ?? document.body).createDiv({ cls: "status-bar-item" });
	}
	/** By action: what Obsidian calls for an `obsidian://<action>?…` link, with the action and the query's parameters. */
	readonly protocolHandlers = new Map<string, (params: Record<string, string>) => unknown>();
	registerObsidianProtocolHandler(action: string, handler: (params: Record<string, string>) => unknown): void {
		this.protocolHandlers.set(action, handler);
	}
}

/** Obsidian desktop's vault adapter class; the hosts' adapters are plain objects, so `instanceof` is false (no git in the page). */
export class FileSystemAdapter {
	constructor(private readonly basePath: string) {}
	getBasePath(): string {
		return this.basePath;
	}
}
