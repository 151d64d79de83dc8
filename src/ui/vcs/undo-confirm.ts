import { Modal, type App } from "obsidian";
import type { ChangesSince, SafetyPoint } from "../../vcs";
import { t, type StringKey } from "../strings";

/** How many changed paths the question lists before "and N more". */
const PATHS_SHOWN = 10;

export function actionKey(action: SafetyPoint["action"]): StringKey {
	return `vcsAction:${action}`;
}

/**
 * Asked before an undo would overwrite what changed after the action it undoes (docs/vcs.md):
 * says what changed, and only "Undo anyway" goes ahead. Closing the dialog keeps everything.
 */
export function confirmUndo(app: App, point: SafetyPoint, changes: ChangesSince): Promise<boolean> {
	return new Promise((resolve) => {
		let answer = false;
		const modal = new Modal(app);
		modal.titleEl.setText(t("vcsUndoChangedTitle", { action: t(actionKey(point.action)) }));
		const el = modal.contentEl;
		el.addClass("rb-vcs-undo-confirm");
		if (changes.changed === "unknown") el.createEl("p", { text: t("vcsUndoUnknown", { action: t(actionKey(point.action)) }) });
		else {
			el.createEl("p", { text: t("vcsUndoChanged", { action: t(actionKey(point.action)) }) });
			if (changes.headMoved) el.createEl("p", { text: t("vcsUndoHeadMoved") });
			const list = el.createEl("ul");
			for (const p of changes.paths.slice(0, PATHS_SHOWN)) list.createEl("li", { text: p });
			if (changes.paths.length > PATHS_SHOWN) list.createEl("li", { text: t("vcsAndMore", { n: changes.paths.length - PATHS_SHOWN }) });
		}
		el.createEl("p", { cls: "setting-item-description", text: t("vcsUndoKept") });
		const row = el.createDiv({ cls: "modal-button-container" });
		const keep = row.createEl("button", { text: t("vcsKeep"), cls: "mod-cta" });
		keep.addEventListener("click", () => modal.close());
		const go = row.createEl("button", { text: t("vcsUndoAnyway"), cls: "mod-warning", attr: { "data-action": "undo-anyway" } });
		go.addEventListener("click", () => {
			answer = true;
			modal.close();
		});
		modal.onClose = () => resolve(answer);
		modal.open();
	});
}
