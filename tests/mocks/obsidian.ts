/**
 * Jest stand-in for the `obsidian` module, which ships type declarations only.
 * It implements just the pieces unit tests touch; the browser test host (tests/e2e)
 * provides a fuller one for the production bundle.
 */
import { StateField } from "@codemirror/state";

/** The note an editor shows, as Obsidian's `editorInfoField` (a field of every markdown editor's state). */
export const editorInfoField = StateField.define<{ file: { path: string } | null }>({ create: () => ({ file: null }), update: (v) => v });

export class Notice {
	static shown: string[] = [];
	constructor(public message: string) {
		Notice.shown.push(message);
	}
	hide(): void {}
}

export const Platform = { isDesktopApp: true, isMobile: false, isMacOS: false };

export class Component {
	private cleanups: Array<() => void> = [];
	load(): void {}
	onload(): void {}
	unload(): void {
		for (const c of this.cleanups.splice(0)) c();
	}
	onunload(): void {}
	register(cb: () => void): void {
		this.cleanups.push(cb);
	}
	registerDomEvent<K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, listener: (evt: HTMLElementEventMap[K]) => unknown): void {
		el.addEventListener(type, listener);
		this.register(() => el.removeEventListener(type, listener));
	}
	addChild<T extends Component>(child: T): T {
		return child;
	}
}

export class MarkdownRenderChild extends Component {
	constructor(public containerEl: HTMLElement) {
		super();
	}
}

export class Plugin extends Component {}

export function requestUrl(): never {
	throw new Error("requestUrl is not available in unit tests");
}

type KeyHandler = (evt: KeyboardEvent) => boolean | void;
/** Obsidian's Scope: keeps the registrations, so a test can press a key through them. */
export class Scope {
	readonly keys: Array<{ modifiers: string[]; key: string; func: KeyHandler }> = [];
	register(modifiers: string[], key: string, func: KeyHandler) {
		const handler = { modifiers, key, func };
		this.keys.push(handler);
		return handler;
	}
}

/** Obsidian's EditorSuggest, as far as a subclass sees it: its app, scope, context and close(). */
export class EditorSuggest<T> {
	readonly scope = new Scope();
	context: { editor: unknown; start: unknown; end: unknown; query: string; file: unknown } | null = null;
	closed = false;
	constructor(public app: unknown) {}
	close(): void {
		this.closed = true;
	}
	/** Marker so TypeScript sees the type parameter used. */
	protected readonly _items?: T[];
}

/** Obsidian's normalizePath: forward slashes, no duplicate, leading or trailing slash. */
export function normalizePath(p: string): string {
	return p.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
}

/** Obsidian's TFile, as far as `instanceof` and a path go. */
export class TFile {
	path = "";
}
