/**
 * Jest stand-in for the `obsidian` module, which ships type declarations only.
 * It implements just the pieces unit tests touch; the browser test host (tests/e2e)
 * provides a fuller one for the production bundle.
 */
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
