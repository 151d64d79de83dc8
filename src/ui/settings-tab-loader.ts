import { PluginSettingTab, requireApiVersion, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { SchemaCache } from "../runner/db/schema-cache";
import type { EnvironmentActions } from "./environments";
import type { SettingsStore } from "./settings-store";
import type * as SettingsTabModule from "./settings-tab";
import { whenIdle } from "./when-idle";

/**
 * The settings page as Obsidian registers it at start. The page itself (src/ui/settings-tab.ts,
 * its rows and the Keymap section's tables) is required when first needed, since main.js carries
 * it as a text module, compiled then rather than at Obsidian's start (docs/architecture.md, "Text
 * modules").
 *
 * Obsidian 1.13 asks for the rows (getSettingDefinitions) as the tab is added, to index them for
 * its settings search, and draws them itself. The tab answers none then, so the start compiles
 * nothing of the page, and gives them in the next idle moment (`update`), again at each change of
 * user.toml. Older versions call display(), which draws the same rows; so does 1.13 when the tab
 * is opened before that idle moment, and the rows go to Obsidian once it is closed.
 */
export class SettingTabLoader extends PluginSettingTab {
	private page: SettingsTabModule.SettingsPage | null = null;

	constructor(
		app: App,
		private readonly owner: Plugin,
		private readonly store: SettingsStore,
		private readonly environments: EnvironmentActions,
		private readonly schemas: SchemaCache,
	) {
		super(app, owner);
		this.containerEl.addClass("rb-settings");
		// Obsidian 1.13's settings API: the tab's definitions are drawn and searched by Obsidian.
		if (!requireApiVersion("1.13.0")) return;
		// A plugin disabled before its idle moment compiles nothing for a tab Obsidian has let go.
		let unloaded = false;
		owner.register(() => (unloaded = true));
		whenIdle(() => {
			if (!unloaded && !this.loaded().drawn) this.giveRows();
		});
		owner.register(store.onChange(() => this.page && !this.page.drawn && this.giveRows()));
	}

	override getSettingDefinitions(): SettingDefinitionItem[] {
		return this.page?.rows() ?? [];
	}

	/** Obsidian before 1.13, or 1.13 before the idle moment: the tab draws the rows itself. */
	override display(): void {
		this.loaded().draw(this.containerEl);
	}

	override hide(): void {
		const drawn = this.page?.drawn ?? false;
		this.page?.hide();
		if (drawn) this.giveRows();
	}

	/** Obsidian stores the rows again, for its search, and draws them again where it shows the tab. */
	private giveRows(): void {
		if (requireApiVersion("1.13.0")) this.update();
	}

	private loaded(): SettingsTabModule.SettingsPage {
		if (this.page) return this.page;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const { SettingsPage } = require("./settings-tab") as typeof SettingsTabModule;
		this.page = new SettingsPage(this.app, this.owner.manifest.id, this.store, this.environments, this.schemas, () => this.giveRows());
		return this.page;
	}
}
