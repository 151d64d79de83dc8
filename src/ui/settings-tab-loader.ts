import { PluginSettingTab, type App, type Plugin } from "obsidian";
import type * as SettingsTabModule from "./settings-tab";

/**
 * The settings page as Obsidian registers it at start: the page itself (src/ui/settings-tab.ts,
 * with the Keymap section's tables) is required when it is first opened, since main.js carries it
 * as a text module, compiled then rather than at Obsidian's start (docs/architecture.md, "Text modules").
 */
export class SettingTabLoader extends PluginSettingTab {
	private page: SettingsTabModule.RunnableBlocksSettingTab | null = null;

	constructor(
		app: App,
		private readonly owner: Plugin,
		private readonly rest: Tail<ConstructorParameters<typeof SettingsTabModule.RunnableBlocksSettingTab>>,
	) {
		super(app, owner);
	}

	override display(): void {
		if (!this.page) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
			const { RunnableBlocksSettingTab } = require("./settings-tab") as typeof SettingsTabModule;
			this.page = new RunnableBlocksSettingTab(this.app, this.owner, ...this.rest);
			// The page draws into the element Obsidian shows: this tab's.
			this.page.containerEl = this.containerEl;
		}
		this.page.display();
	}

	override hide(): void {
		this.page?.hide();
	}
}

type Tail<T extends readonly unknown[]> = T extends readonly [unknown, unknown, ...infer R] ? R : never;
