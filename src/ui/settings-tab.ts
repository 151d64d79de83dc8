import { Platform, PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import { ACTION_SPECS, actionSpec, actsWhileOpen, chordFromKeyEvent, displayChord, findConflicts, findShadows, formatChord, KEYMAP_PRESETS, presetChords, presetWidenings, resolveKeymap, type Action, type ActionId, type Chord, type ChordSource, type KeymapPreset } from "../settings/keymap";
import type { SchemaCache } from "../runner/db/schema-cache";
import { deleteTomlTable } from "../settings/toml-patch";
import { MAX_PARALLEL, TRANSPORTS } from "../settings/user-settings";
import { commitTemplateProblem } from "../settings/vcs-settings";
import { DEFAULT_COMMIT_TEMPLATE } from "../vcs/message";
import { environmentNames } from "../settings/variables";
import { renderConnections } from "./connection-settings";
import { renderTlsServers } from "./tls-settings-section";
import { EnvironmentActions, NewVariableModal } from "./environments";
import { KeymapPresetModal, type PresetChange } from "./keymap-preset-modal";
import { obsidianClashes, obsidianHotkeys } from "./obsidian-hotkeys";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
import { t, type StringKey } from "./strings";

const SOURCE_NAMES: Record<ChordSource, StringKey> = { default: "sourceDefault", preset: "sourcePreset", user: "sourceUser" };
/** What an action does, for the Keymap section (`{n}` of go to block N is the id's last part). */
const actionName = (id: ActionId) => t(actionSpec(id).name, { n: id.split(".").pop() ?? "" });

/**
 * The settings page: General, Environments, Keymap, Version control, Connections. It never holds settings of
 * its own: every change is a comment-preserving patch of user.toml, and the page re-renders
 * from the reloaded settings.
 */
export class RunnableBlocksSettingTab extends PluginSettingTab {
	private unsubscribe: (() => void) | null = null;
	private stopCapture: (() => void) | null = null;
	/** Command ids of this plugin start with it; they are not "Obsidian's own" hotkeys. */
	private readonly ownPrefix: string;

	constructor(
		app: App,
		plugin: Plugin,
		private readonly store: SettingsStore,
		private readonly environments: EnvironmentActions,
		private readonly schemas: SchemaCache,
	) {
		super(app, plugin);
		this.ownPrefix = `${plugin.manifest.id}:`;
	}

	override display(): void {
		this.unsubscribe ??= this.store.onChange(() => this.render());
		this.render();
	}

	override hide(): void {
		this.stopCapture?.();
		this.unsubscribe?.();
		this.unsubscribe = null;
	}

	private render(): void {
		this.stopCapture?.();
		const el = this.containerEl;
		el.empty();
		el.addClass("rb-settings");
		new Setting(el)
			.setName(t("settingsFile"))
			.setDesc(t("settingsFileDesc", { path: this.store.path }))
			.addButton((b) => b.setButtonText(t("reloadFromFile")).onClick(() => void this.store.load()));
		this.general(el);
		this.environmentSection(el);
		this.keymap(el);
		this.versionControl(el);
		renderConnections(el, this.app, this.store, this.schemas);
		renderTlsServers(el, this.app, this.store);
	}

	/** `[vcs]`: the commit message template, checked as user.toml checks it before it is written. */
	private versionControl(el: HTMLElement): void {
		new Setting(el).setName(t("versionControl")).setHeading();
		new Setting(el)
			.setName(t("commitTemplate"))
			.setDesc(t("commitTemplateDesc"))
			.addText((field) => {
				field.inputEl.addClass("rb-setting-commit-template");
				field.setPlaceholder(DEFAULT_COMMIT_TEMPLATE).setValue(this.store.settings.vcs.commitTemplate);
				field.inputEl.addEventListener("change", () => {
					const value = field.getValue();
					if (value.trim() === "") {
						void this.store.delete(["vcs", "commit_template"]);
						return;
					}
					const problem = commitTemplateProblem(value);
					if (problem) {
						notify(t("badCommitTemplate", { problem }));
						field.setValue(this.store.settings.vcs.commitTemplate);
						return;
					}
					void this.store.set(["vcs", "commit_template"], value);
				});
			});
	}

	private general(el: HTMLElement): void {
		const s = this.store.settings;
		new Setting(el)
			.setName(t("activeEnvironment"))
			.setDesc(t("activeEnvironmentDesc"))
			.addDropdown((d) => {
				d.addOption("", t("none"));
				for (const name of environmentNames(s)) d.addOption(name, name);
				d.setValue(s.general.environment).onChange((v) => void this.environments.switchTo(v));
			});
		new Setting(el)
			.setName(t("defaultTimeout"))
			.setDesc(t("defaultTimeoutDesc"))
			.addText((field) => {
				field.inputEl.addClass("rb-setting-timeout");
				field.setValue(String(s.general.timeout));
				field.inputEl.addEventListener("change", () => {
					const n = Number(field.getValue());
					if (!Number.isInteger(n) || n <= 0) {
						notify(t("badTimeout"));
						field.setValue(String(this.store.settings.general.timeout));
						return;
					}
					void this.store.set(["general", "timeout"], n);
				});
			});
		new Setting(el)
			.setName(t("transportSetting"))
			.setDesc(t("transportDesc"))
			.addDropdown((d) => {
				for (const name of TRANSPORTS) d.addOption(name, name);
				d.setValue(s.general.transport).onChange((v) => void this.store.set(["general", "transport"], v));
			});
		new Setting(el)
			.setName(t("parallelSetting"))
			.setDesc(t("parallelDesc"))
			.addText((field) => {
				field.inputEl.addClass("rb-setting-parallel");
				field.setValue(String(s.general.parallel));
				field.inputEl.addEventListener("change", () => {
					const n = Number(field.getValue());
					if (!Number.isInteger(n) || n < 1 || n > MAX_PARALLEL) {
						notify(t("badParallel", { max: MAX_PARALLEL }));
						field.setValue(String(this.store.settings.general.parallel));
						return;
					}
					void this.store.set(["general", "parallel"], n);
				});
			});
	}

	private environmentSection(el: HTMLElement): void {
		const s = this.store.settings;
		new Setting(el).setName(t("environments")).setHeading();
		for (const env of environmentNames(s)) {
			const row = new Setting(el).setName(env).setClass("rb-env-row");
			if (env === s.general.environment) row.setDesc(t("active"));
			let renameTo = env;
			row.addText((field) => field.setValue(env).onChange((v) => (renameTo = v.trim())));
			row.addButton((b) =>
				b.setButtonText(t("rename")).onClick(() => {
					if (!renameTo || renameTo === env) return;
					void this.store.renameTable(["environments", env], ["environments", renameTo]).then((ok) => {
						if (ok && this.store.settings.general.environment === env) void this.environments.switchTo(renameTo);
					});
				}),
			);
			row.addButton((b) => b.setButtonText(t("addVariable")).onClick(() => this.addVariable(env)));
			row.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name: env })).onClick(() => void this.store.patch((text) => deleteTomlTable(text, ["environments", env]))));
			for (const [name, value] of Object.entries(s.environments[env])) {
				const v = new Setting(el).setName(name).setClass("rb-variable-row");
				if ("secret" in value) {
					v.setDesc(t("secretStoredAs", { id: value.secret }));
					v.addButton((b) => b.setButtonText(t("replaceSecret")).onClick(() => this.addVariable(env, name, true)));
				} else {
					v.addText((field) => {
						field.setValue(value.value);
						field.inputEl.addEventListener("change", () => void this.store.set(["environments", env, name], field.getValue()));
					});
					v.addButton((b) => b.setButtonText(t("makeSecret")).onClick(() => void this.environments.setVariable(env, name, value.value, true)));
				}
				v.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name })).onClick(() => void this.store.delete(["environments", env, name])));
			}
		}
		new Setting(el)
			.setName(t("newEnvironment"))
			.setDesc(t("newEnvironmentDesc"))
			.addButton((b) => b.setButtonText(t("addEnvironment")).onClick(() => this.addVariable("")));
	}

	private addVariable(environment: string, name = "", secret = false): void {
		new NewVariableModal(this.app, { environment, name, secret }, async (v) => {
			await this.environments.setVariable(v.environment, v.name, v.value, v.secret);
		}).open();
	}

	private keymap(el: HTMLElement): void {
		const isMac = Platform.isMacOS;
		const s = this.store.settings;
		const { bindings, sources } = resolveKeymap(s.keymap, s.general.keymapPreset);
		const ours = findConflicts(bindings, isMac, s.general.keymapPreset);
		// A narrower scope taking a chord where it acts is by design: a note on both rows, not a conflict.
		const notes = new Map<string, string[]>();
		const note = (id: string, text: string) => notes.set(id, [...(notes.get(id) ?? []), text]);
		for (const { narrow, wide } of findShadows(bindings, isMac, s.general.keymapPreset)) {
			const inBlock = actionSpec(narrow).scope === "block";
			note(narrow, t(inBlock ? "shadowInBlock" : "shadowInPanel", { action: wide }));
			note(wide, t(inBlock ? "shadowedInBlock" : "shadowedInPanel", { action: narrow }));
		}
		const theirs = obsidianHotkeys(this.app, this.ownPrefix, isMac);
		new Setting(el).setName(t("keymap")).setHeading().setDesc(t("keymapDesc"));
		// The chords the preset registers today (reserved actions get theirs, but register nothing yet).
		const notebook = presetChords("notebook", {})
			.filter(({ action }) => !action.reserved)
			.map(({ chord }) => displayChord(chord, isMac))
			.join(", ");
		new Setting(el)
			.setName(t("keymapPreset"))
			.setDesc(t("keymapPresetDesc", { chords: notebook }))
			.setClass("rb-keymap-preset")
			.addDropdown((d) => {
				d.addOption("obsidian", t("presetObsidian"));
				d.addOption("notebook", t("presetNotebook"));
				d.setValue(s.general.keymapPreset).onChange((v) => {
					const preset = KEYMAP_PRESETS.find((p) => p === v);
					if (preset) this.choosePreset(preset);
				});
			});
		if (theirs.source === "defaults") el.createEl("p", { cls: "setting-item-description rb-keymap-defaults-note", text: t("hotkeysFromDefaults") });
		for (const action of ACTION_SPECS) {
			const chord = bindings.get(action.id);
			const source = sources.get(action.id) ?? "default";
			const row = new Setting(el).setName(action.id).setClass("rb-keymap-row");
			row.settingEl.setAttr("data-action", action.id);
			row.settingEl.setAttr("data-source", source);
			const clashes = chord && !action.reserved ? obsidianClashes(chord, theirs.hotkeys, isMac) : [];
			const warnings = [
				...(ours.get(action.id) ?? []).map((a) => t("sameChordAs", { action: a })),
				...clashes.map((h) => t(action.scope === "block" ? "obsidianOutsideBlocks" : "shadowsObsidian", { command: h.name })),
			];
			row.setDesc(action.scope === "block" ? t("insideBlock", { what: actionName(action.id) }) : actionName(action.id));
			row.descEl.createDiv({ cls: "rb-keymap-source", text: t(SOURCE_NAMES[source]) });
			if (action.reserved) row.descEl.createDiv({ cls: "rb-keymap-reserved", text: t("reservedAction") });
			if (warnings.length) row.descEl.createDiv({ cls: "rb-keymap-conflict", text: warnings.join(" ") });
			if (notes.has(action.id)) row.descEl.createDiv({ cls: "rb-keymap-shadow", text: notes.get(action.id)!.join(" ") });
			if (actsWhileOpen(action.id, s.general.keymapPreset)) row.descEl.createDiv({ cls: "rb-keymap-while-open", text: t("actsWhileOpen") });
			row.addButton((b) => {
				b.buttonEl.addClass("rb-keymap-chord");
				b.setButtonText(chord ? displayChord(chord, isMac) : t("unbound"));
				b.onClick(() => this.capture(action.id, b.buttonEl));
			});
			if (action.id in s.keymap) row.addExtraButton((b) => b.setIcon("rotate-ccw").setTooltip(t("resetDefault")).onClick(() => void this.store.delete(["keymap", action.id])));
		}
	}

	/**
	 * Going back to "obsidian" takes nothing from Obsidian, so it applies at once; the Notebook
	 * preset first lists each chord it adds and the Obsidian command each one would shadow.
	 */
	private choosePreset(preset: KeymapPreset): void {
		const write = () => void this.store.set(["general", "keymap_preset"], preset).then((ok) => ok || this.render());
		if (preset === "obsidian") return write();
		const isMac = Platform.isMacOS;
		const theirs = obsidianHotkeys(this.app, this.ownPrefix, isMac).hotkeys;
		const change = ({ action, chord }: { action: Action; chord: Chord }, whilePanelOpen: boolean): PresetChange => ({ chord: displayChord(chord, isMac), action: actionName(action.id), shadows: obsidianClashes(chord, theirs, isMac).map((h) => h.name), whilePanelOpen });
		const changes = [
			...presetChords(preset, this.store.settings.keymap)
				.filter(({ action }) => !action.reserved)
				.map((c) => change(c, false)),
			// Panel chords the preset makes act while the panel is open, unfocused too (Mod+G over graph view).
			...presetWidenings(preset, this.store.settings.keymap).map((c) => change(c, true)),
		];
		new KeymapPresetModal(this.app, changes, write, () => this.render()).open();
	}

	/** Captures the next chord for an action and writes it to [keymap]. */
	private capture(action: string, button: HTMLElement): void {
		this.stopCapture?.();
		button.setText(t("pressChord"));
		button.addClass("is-capturing");
		const win = activeWindow;
		const onKey = (e: KeyboardEvent) => {
			e.preventDefault();
			e.stopPropagation();
			if (e.key === "Escape") return stop(true);
			const chord = chordFromKeyEvent(e, Platform.isMacOS);
			if (!chord) return;
			stop(false);
			// On success the reload re-renders the page; on failure show the binding in force again.
			void this.store.set(["keymap", action], formatChord(chord)).then((ok) => ok || this.render());
		};
		const stop = (rerender: boolean) => {
			win.removeEventListener("keydown", onKey, true);
			this.stopCapture = null;
			if (rerender) this.render();
		};
		win.addEventListener("keydown", onKey, true);
		this.stopCapture = () => stop(false);
	}
}
