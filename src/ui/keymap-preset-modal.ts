import { Modal, Setting, type App } from "obsidian";
import { t } from "./strings";

/** One chord a preset would bind: shown as the chord, our action, and the Obsidian hotkeys it would shadow. */
export interface PresetChange {
	chord: string;
	action: string;
	shadows: string[];
	/** A panel chord the preset widens from "panel focused" to "panel open" (vcs.commit's Mod+G). */
	whilePanelOpen: boolean;
}

/**
 * Asks before the Notebook preset takes chords from Obsidian: lists each chord it would bind
 * and each Obsidian command it would shadow (docs/shortcuts.md). Nothing is written until Apply.
 */
export class KeymapPresetModal extends Modal {
	constructor(
		app: App,
		private readonly changes: readonly PresetChange[],
		private readonly apply: () => void,
		private readonly cancel: () => void,
	) {
		super(app);
	}

	private applied = false;

	override onOpen(): void {
		this.setTitle(t("presetConfirmTitle"));
		const el = this.contentEl;
		el.addClass("rb-preset-confirm");
		el.createEl("p", { text: t("presetConfirmDesc") });
		const list = el.createEl("ul");
		for (const c of this.changes) {
			const vars = { chord: c.chord, action: c.action };
			if (c.shadows.length === 0) list.createEl("li", { cls: "rb-preset-free", text: t(c.whilePanelOpen ? "presetWhileOpen" : "presetTakesFree", vars) });
			for (const command of c.shadows) list.createEl("li", { cls: "rb-preset-shadow", text: t(c.whilePanelOpen ? "presetWhileOpenShadows" : "presetShadows", { ...vars, command }) });
		}
		if (!this.changes.some((c) => c.shadows.length > 0)) el.createEl("p", { text: t("presetShadowsNothing") });
		new Setting(el)
			.addButton((b) => b.setButtonText(t("cancel")).onClick(() => this.close()))
			.addButton((b) =>
				b
					.setButtonText(t("presetApply"))
					.setCta()
					.onClick(() => {
						this.applied = true;
						this.close();
						this.apply();
					}),
			);
	}

	override onClose(): void {
		this.contentEl.empty();
		if (!this.applied) this.cancel();
	}
}
