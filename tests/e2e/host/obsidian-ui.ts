/**
 * The host's Obsidian UI primitives: scopes and the global keymap, Modal, SuggestModal,
 * Setting (and its components), PluginSettingTab. Real DOM, Obsidian's class names, and
 * Obsidian's behaviour where the plugin depends on it (a modal's scope takes keys first,
 * SuggestModal closes before onChooseSuggestion, Escape closes).
 */
type Modifier = "Mod" | "Ctrl" | "Meta" | "Shift" | "Alt";
type KeymapHandler = (evt: KeyboardEvent, ctx: { modifiers: string; key: string }) => boolean | void;
interface Registration {
	modifiers: Modifier[];
	key: string | null;
	func: KeymapHandler;
}

const isMac = () => false;

export function matches(r: { modifiers: Modifier[]; key: string | null }, e: KeyboardEvent): boolean {
	if (r.key !== null && r.key.toLowerCase() !== e.key.toLowerCase() && !(r.key.length === 1 && e.code === `Key${r.key.toUpperCase()}`)) return false;
	const want = new Set(r.modifiers.map((m) => (m === "Mod" ? (isMac() ? "Meta" : "Ctrl") : m)));
	return want.has("Ctrl") === e.ctrlKey && want.has("Meta") === e.metaKey && want.has("Shift") === e.shiftKey && want.has("Alt") === e.altKey;
}

export class Scope {
	readonly keys: Registration[] = [];
	constructor(public parent?: Scope) {}
	register(modifiers: Modifier[] | null, key: string | null, func: KeymapHandler): Registration {
		const r = { modifiers: modifiers ?? [], key, func };
		this.keys.push(r);
		return r;
	}
	unregister(r: Registration): void {
		const i = this.keys.indexOf(r);
		if (i >= 0) this.keys.splice(i, 1);
	}
	/** Returns true when a handler took the key (returned anything but true, as Obsidian). */
	handle(e: KeyboardEvent): boolean {
		for (const r of [...this.keys].reverse()) {
			if (!matches(r, e)) continue;
			if (r.func(e, { modifiers: r.modifiers.join(","), key: e.key }) !== true) return true;
		}
		return this.parent ? this.parent.handle(e) : false;
	}
}

/**
 * Obsidian's Keymap: a stack of scopes over the app's root scope, fed by window keydown. What
 * no scope takes goes to `afterScopes`: Obsidian's hotkey manager, which runs its commands'
 * hotkeys on the app scope after every handler registered there (host.ts).
 */
export class Keymap {
	private stack: Scope[] = [];
	afterScopes: ((e: KeyboardEvent) => boolean) | null = null;
	constructor(readonly root: Scope) {
		// An open modal or suggest takes its keys before the editor sees them…
		window.addEventListener(
			"keydown",
			(e) => {
				const top = this.stack[this.stack.length - 1];
				if (top?.handle(e)) {
					e.preventDefault();
					e.stopPropagation();
				}
			},
			true,
		);
		// …the app's scope gets what the editor left, then Obsidian's own hotkeys (not while a modal is open).
		window.addEventListener("keydown", (e) => {
			if (e.defaultPrevented) return;
			if (this.root.handle(e) || (this.stack.length === 0 && this.afterScopes?.(e))) e.preventDefault();
		});
	}
	pushScope(s: Scope): void {
		this.stack.push(s);
	}
	popScope(s: Scope): void {
		this.stack = this.stack.filter((x) => x !== s);
	}
	static isModEvent(e?: MouseEvent | KeyboardEvent | null): boolean {
		return !!e && (isMac() ? e.metaKey : e.ctrlKey);
	}
}

interface HostApp {
	keymap: Keymap;
	scope: Scope;
}

export class Modal {
	readonly containerEl: HTMLElement;
	readonly modalEl: HTMLElement;
	readonly titleEl: HTMLElement;
	readonly contentEl: HTMLElement;
	readonly scope: Scope;
	constructor(public app: HostApp) {
		this.scope = new Scope(app.scope);
		this.containerEl = document.createElement("div");
		this.containerEl.className = "modal-container";
		this.containerEl.createDiv({ cls: "modal-bg" });
		this.modalEl = this.containerEl.createDiv({ cls: "modal" });
		this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
		this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
		this.scope.register([], "Escape", () => {
			this.close();
			return false;
		});
	}
	setTitle(t: string): this {
		this.titleEl.setText(t);
		return this;
	}
	open(): void {
		document.body.appendChild(this.containerEl);
		this.app.keymap.pushScope(this.scope);
		this.onOpen();
	}
	close(): void {
		if (!this.containerEl.isConnected) return;
		this.app.keymap.popScope(this.scope);
		this.containerEl.remove();
		this.onClose();
	}
	onOpen(): void {}
	onClose(): void {}
}

/** A query box over a list: arrows move, Enter chooses (after closing), Escape closes. */
export abstract class SuggestModal<T> extends Modal {
	readonly inputEl: HTMLInputElement;
	readonly resultContainerEl: HTMLElement;
	emptyStateText = "No results found.";
	limit = 100;
	private items: T[] = [];
	private selected = 0;
	private generation = 0;
	constructor(app: HostApp) {
		super(app);
		this.modalEl.addClass("prompt");
		this.inputEl = this.modalEl.createEl("input", { cls: "prompt-input", type: "text" });
		this.resultContainerEl = this.modalEl.createDiv({ cls: "prompt-results" });
		this.inputEl.addEventListener("input", () => void this.hostRefresh());
		this.scope.register([], "ArrowDown", () => (this.hostSelect(this.selected + 1), false));
		this.scope.register([], "ArrowUp", () => (this.hostSelect(this.selected - 1), false));
		this.scope.register([], "Enter", (e) => {
			const item = this.items[this.selected];
			if (item !== undefined) this.hostChoose(item, e);
			return false;
		});
	}
	setPlaceholder(p: string): void {
		this.inputEl.placeholder = p;
	}
	setInstructions(_i: Array<{ command: string; purpose: string }>): void {}
	override open(): void {
		super.open();
		this.inputEl.focus();
		void this.hostRefresh();
	}
	private hostChoose(item: T, e: MouseEvent | KeyboardEvent): void {
		this.close();
		this.onChooseSuggestion(item, e);
	}
	private hostSelect(i: number): void {
		if (this.items.length === 0) return;
		this.selected = (i + this.items.length) % this.items.length;
		const els = Array.from(this.resultContainerEl.children);
		els.forEach((el, n) => el.classList.toggle("is-selected", n === this.selected));
	}
	private async hostRefresh(): Promise<void> {
		const gen = ++this.generation;
		const items = (await this.getSuggestions(this.inputEl.value)).slice(0, this.limit);
		if (gen !== this.generation) return;
		this.items = items;
		this.resultContainerEl.empty();
		if (items.length === 0) this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
		items.forEach((item) => {
			const el = this.resultContainerEl.createDiv({ cls: "suggestion-item" });
			this.renderSuggestion(item, el);
			el.addEventListener("click", (e) => this.hostChoose(item, e));
		});
		this.hostSelect(0);
	}
	abstract getSuggestions(query: string): T[] | Promise<T[]>;
	abstract renderSuggestion(value: T, el: HTMLElement): void;
	abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;
}

abstract class ValueComponent<V> {
	protected handler: ((v: V) => unknown) | null = null;
	onChange(cb: (v: V) => unknown): this {
		this.handler = cb;
		return this;
	}
	abstract getValue(): V;
	abstract setValue(v: V): this;
	setDisabled(_d: boolean): this {
		return this;
	}
}

export class TextComponent extends ValueComponent<string> {
	readonly inputEl: HTMLInputElement;
	constructor(containerEl: HTMLElement, type = "text") {
		super();
		this.inputEl = containerEl.createEl("input", { type });
		this.inputEl.addEventListener("input", () => this.handler?.(this.inputEl.value));
	}
	getValue(): string {
		return this.inputEl.value;
	}
	setValue(v: string): this {
		this.inputEl.value = v;
		return this;
	}
	setPlaceholder(p: string): this {
		this.inputEl.placeholder = p;
		return this;
	}
}

export class ToggleComponent extends ValueComponent<boolean> {
	readonly toggleEl: HTMLElement;
	private on = false;
	constructor(containerEl: HTMLElement) {
		super();
		this.toggleEl = containerEl.createDiv({ cls: "checkbox-container", attr: { role: "switch" } });
		this.toggleEl.addEventListener("click", () => {
			this.setValue(!this.on);
			this.handler?.(this.on);
		});
	}
	getValue(): boolean {
		return this.on;
	}
	setValue(v: boolean): this {
		this.on = v;
		this.toggleEl.classList.toggle("is-enabled", v);
		this.toggleEl.setAttribute("aria-checked", String(v));
		return this;
	}
	setTooltip(t: string): this {
		this.toggleEl.setAttribute("aria-label", t);
		return this;
	}
}

export class DropdownComponent extends ValueComponent<string> {
	readonly selectEl: HTMLSelectElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.selectEl = containerEl.createEl("select", { cls: "dropdown" });
		this.selectEl.addEventListener("change", () => this.handler?.(this.selectEl.value));
	}
	addOption(value: string, display: string): this {
		this.selectEl.createEl("option", { value, text: display });
		return this;
	}
	addOptions(o: Record<string, string>): this {
		for (const [v, d] of Object.entries(o)) this.addOption(v, d);
		return this;
	}
	getValue(): string {
		return this.selectEl.value;
	}
	setValue(v: string): this {
		this.selectEl.value = v;
		return this;
	}
}

export class ButtonComponent {
	readonly buttonEl: HTMLButtonElement;
	constructor(containerEl: HTMLElement) {
		this.buttonEl = containerEl.createEl("button");
	}
	setButtonText(t: string): this {
		this.buttonEl.setText(t);
		return this;
	}
	setCta(): this {
		this.buttonEl.addClass("mod-cta");
		return this;
	}
	setWarning(): this {
		this.buttonEl.addClass("mod-warning");
		return this;
	}
	setTooltip(t: string): this {
		this.buttonEl.setAttribute("aria-label", t);
		return this;
	}
	setIcon(name: string): this {
		this.buttonEl.setAttribute("data-icon", name);
		return this;
	}
	setDisabled(d: boolean): this {
		this.buttonEl.disabled = d;
		return this;
	}
	onClick(cb: (e: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener("click", (e) => void cb(e));
		return this;
	}
}

export class ExtraButtonComponent {
	readonly extraSettingsEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.extraSettingsEl = containerEl.createDiv({ cls: "clickable-icon extra-setting-button" });
	}
	setIcon(name: string): this {
		this.extraSettingsEl.setAttribute("data-icon", name);
		this.extraSettingsEl.textContent = name === "trash" ? "🗑" : "↺";
		return this;
	}
	setTooltip(t: string): this {
		this.extraSettingsEl.setAttribute("aria-label", t);
		return this;
	}
	onClick(cb: () => unknown): this {
		this.extraSettingsEl.addEventListener("click", () => void cb());
		return this;
	}
}

export class Setting {
	readonly settingEl: HTMLElement;
	readonly infoEl: HTMLElement;
	readonly nameEl: HTMLElement;
	readonly descEl: HTMLElement;
	readonly controlEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
		this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
		this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
		this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
		this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
	}
	setName(n: string | DocumentFragment): this {
		this.nameEl.empty();
		this.nameEl.append(n);
		return this;
	}
	setDesc(d: string | DocumentFragment): this {
		this.descEl.empty();
		this.descEl.append(d);
		return this;
	}
	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	setClass(c: string): this {
		this.settingEl.addClass(c);
		return this;
	}
	addText(cb: (c: TextComponent) => unknown): this {
		cb(new TextComponent(this.controlEl));
		return this;
	}
	addToggle(cb: (c: ToggleComponent) => unknown): this {
		cb(new ToggleComponent(this.controlEl));
		return this;
	}
	addDropdown(cb: (c: DropdownComponent) => unknown): this {
		cb(new DropdownComponent(this.controlEl));
		return this;
	}
	addButton(cb: (c: ButtonComponent) => unknown): this {
		cb(new ButtonComponent(this.controlEl));
		return this;
	}
	addExtraButton(cb: (c: ExtraButtonComponent) => unknown): this {
		cb(new ExtraButtonComponent(this.controlEl));
		return this;
	}
}

export class PluginSettingTab {
	readonly containerEl: HTMLElement;
	constructor(
		public app: HostApp,
		public plugin: unknown,
	) {
		this.containerEl = document.createElement("div");
		this.containerEl.className = "vertical-tab-content";
	}
	display(): void {}
	hide(): void {}
}

/** A definition as the host draws it: the plugin's rows are `render` definitions; the other shapes are not played. */
interface RenderDefinition {
	name: string;
	desc?: string;
	render?: (setting: Setting, group: unknown) => void;
}
/** A tab as the host sees it (the plugin's, typed by the real API, or the host's own). */
type AnyTab = Pick<PluginSettingTab, "containerEl" | "display" | "hide">;
interface DeclarativeTab extends AnyTab {
	settingItems: RenderDefinition[];
	getSettingDefinitions(): RenderDefinition[];
	update(): void;
}

/** The tabs Obsidian 1.13 shows drawn from their definitions. */
const drawnFromDefinitions = new WeakSet<AnyTab>();

/** Draws a tab's definitions as Obsidian 1.13 does: each row named and described, then its `render` called. */
function drawDefinitions(tab: DeclarativeTab): void {
	tab.containerEl.empty();
	for (const item of tab.settingItems) {
		if (typeof item.render !== "function") throw new Error(`the host draws render definitions only (${item.name})`);
		const setting = new Setting(tab.containerEl).setName(item.name);
		if (item.desc !== undefined) setting.setDesc(item.desc);
		item.render(setting, null);
	}
}

/** What Obsidian 1.13 adds to a setting tab: its definitions (none by default), and update(), which stores them again and draws them again where shown. */
const DECLARATIVE_API = {
	getSettingDefinitions(): RenderDefinition[] {
		return [];
	},
	update(this: DeclarativeTab): void {
		this.settingItems = this.getSettingDefinitions();
		if (drawnFromDefinitions.has(this)) drawDefinitions(this);
	},
};

/**
 * Which settings API the host plays: "1.12" (display() only, as the hosts always did) or "1.13"
 * (getSettingDefinitions, update: the tab is drawn from its definitions when it gives any).
 */
export function playSettingsApi(version: "1.12" | "1.13"): void {
	apiVersion = version === "1.13" ? "1.13.1" : "1.12.7";
	const proto = PluginSettingTab.prototype as Partial<typeof DECLARATIVE_API>;
	if (version === "1.13") Object.assign(proto, DECLARATIVE_API);
	else {
		delete proto.getSettingDefinitions;
		delete proto.update;
	}
}

/** The Obsidian version the host plays. */
let apiVersion = "1.12.7";

/** Obsidian's check of its own version: true when it is `version` or later. */
export function requireApiVersion(version: string): boolean {
	const parts = (v: string) => v.split(".").map(Number);
	const [have, want] = [parts(apiVersion), parts(version)];
	for (let i = 0; i < Math.max(have.length, want.length); i++) if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
	return true;
}

/** Whether the host plays Obsidian 1.13's settings API. */
const playsDeclarative = (tab: AnyTab): tab is DeclarativeTab => typeof (tab as Partial<DeclarativeTab>).update === "function";

/** What Obsidian does as a plugin adds its tab: 1.13 stores its definitions, for the settings search. */
export function settingTabAdded(tab: AnyTab): void {
	if (playsDeclarative(tab)) tab.update();
}

/** Opens a tab as Obsidian does: 1.13 asks for its definitions and draws them if there are any; otherwise display(). */
export function openSettingTab(tab: AnyTab): void {
	if (playsDeclarative(tab)) {
		tab.settingItems = tab.getSettingDefinitions();
		if (tab.settingItems.length > 0) {
			drawnFromDefinitions.add(tab);
			return drawDefinitions(tab);
		}
	}
	tab.display();
}

/** Closes a tab (another tab chosen, or the settings closed). */
export function closeSettingTab(tab: AnyTab): void {
	drawnFromDefinitions.delete(tab);
	tab.hide();
}
