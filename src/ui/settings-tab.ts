import { Platform, type App } from "obsidian";
import { ACTION_SPECS, actionSpec, actsWhileOpen, chordFromKeyEvent, displayChord, findConflicts, findShadows, formatChord, KEYMAP_PRESETS, presetChords, presetWidenings, resolveKeymap, type Action, type ActionId, type Chord, type ChordSource, type KeymapPreset } from "../settings/keymap";
import type { SchemaCache } from "../runner/db/schema-cache";
import { deleteTomlTable } from "../settings/toml-patch";
import { MAX_PARALLEL, TRANSPORTS, type VariableValue } from "../settings/user-settings";
import { commitTemplateProblem } from "../settings/vcs-settings";
import { DEFAULT_COMMIT_TEMPLATE } from "../vcs/message";
import { environmentNames } from "../settings/variables";
import { connectionRows } from "./connection-settings";
import { alsoFoundBy, drawRows, headingRow, pageRow, type PageRow } from "./settings-rows";
import { tlsServerRows } from "./tls-settings-section";
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
 * The settings page: General, Environments, Keymap, Version control, Connections, TLS per server.
 * It is a list of rows (src/ui/settings-rows.ts): Obsidian 1.13 indexes them for its settings
 * search and draws them; on older versions the tab draws them itself (`draw`). It never holds
 * settings of its own: every change is a comment-preserving patch of user.toml, and the rows are
 * made again from the reloaded settings.
 */
export class SettingsPage {
	/** Where the page draws itself (older Obsidian), until hide(). */
	private drawnIn: HTMLElement | null = null;
	private unsubscribe: (() => void) | null = null;
	private stopCapture: (() => void) | null = null;
	/** Command ids of this plugin start with it; they are not "Obsidian's own" hotkeys. */
	private readonly ownPrefix: string;

	constructor(
		private readonly app: App,
		pluginId: string,
		private readonly store: SettingsStore,
		private readonly environments: EnvironmentActions,
		private readonly schemas: SchemaCache,
		/** Has Obsidian draw the rows again, where Obsidian draws them. */
		private readonly redrawDeclared: () => void,
	) {
		this.ownPrefix = `${pluginId}:`;
	}

	/** The rows, from the settings in force. */
	rows(): PageRow[] {
		return [
			pageRow(t("settingsFile"), t("settingsFileDesc", { path: this.store.path }), (row) => row.addButton((b) => b.setButtonText(t("reloadFromFile")).onClick(() => void this.store.load()))),
			...this.general(),
			...this.environmentRows(),
			...this.keymapRows(),
			...this.versionControl(),
			...connectionRows(this.app, this.store, this.schemas),
			...tlsServerRows(this.app, this.store),
		];
	}

	/** The page draws itself (Obsidian does not). */
	get drawn(): boolean {
		return this.drawnIn !== null;
	}

	/** Draws the rows into `el`, and again at each change of user.toml until hide(). */
	draw(el: HTMLElement): void {
		this.drawnIn = el;
		this.unsubscribe ??= this.store.onChange(() => this.redraw());
		this.redraw();
	}

	hide(): void {
		this.stopCapture?.();
		this.unsubscribe?.();
		this.unsubscribe = null;
		this.drawnIn = null;
	}

	/** The rows again, from the settings in force: after a change, or to show again what a refused one left. */
	private redraw(): void {
		this.stopCapture?.();
		const el = this.drawnIn;
		if (!el) return this.redrawDeclared();
		el.empty();
		drawRows(el, this.rows());
	}

	/** `[vcs]`: the commit message template, checked as user.toml checks it before it is written. */
	private versionControl(): PageRow[] {
		return [
			headingRow(t("versionControl")),
			alsoFoundBy(
				pageRow(t("commitTemplate"), t("commitTemplateDesc"), (row) =>
					row.addText((field) => {
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
					}),
				),
				["commit_template"],
			),
		];
	}

	private general(): PageRow[] {
		const s = this.store.settings;
		return [
			alsoFoundBy(
				pageRow(t("activeEnvironment"), t("activeEnvironmentDesc"), (row) =>
					row.addDropdown((d) => {
						d.addOption("", t("none"));
						for (const name of environmentNames(s)) d.addOption(name, name);
						d.setValue(s.general.environment).onChange((v) => void this.environments.switchTo(v));
					}),
				),
				["environment"],
			),
			this.wholeNumberRow(t("defaultTimeout"), t("defaultTimeoutDesc"), "timeout", (n) => n > 0, t("badTimeout")),
			alsoFoundBy(
				pageRow(t("transportSetting"), t("transportDesc"), (row) =>
					row.addDropdown((d) => {
						for (const name of TRANSPORTS) d.addOption(name, name);
						d.setValue(s.general.transport).onChange((v) => void this.store.set(["general", "transport"], v));
					}),
				),
				["transport", ...TRANSPORTS],
			),
			this.wholeNumberRow(t("parallelSetting"), t("parallelDesc"), "parallel", (n) => n >= 1 && n <= MAX_PARALLEL, t("badParallel", { max: MAX_PARALLEL })),
		];
	}

	/** A whole number of `[general]` (its input's class is `rb-setting-<key>`): refused with `refusal`, and the value in force shown again, unless it `fits`. */
	private wholeNumberRow(name: string, desc: string, key: "timeout" | "parallel", fits: (n: number) => boolean, refusal: string): PageRow {
		const inForce = () => String(this.store.settings.general[key]);
		const numberRow = pageRow(name, desc, (row) =>
			row.addText((field) => {
				field.inputEl.addClass(`rb-setting-${key}`);
				field.setValue(inForce());
				field.inputEl.addEventListener("change", () => {
					const n = Number(field.getValue());
					if (!Number.isInteger(n) || !fits(n)) {
						notify(refusal);
						field.setValue(inForce());
						return;
					}
					void this.store.set(["general", key], n);
				});
			}),
		);
		return alsoFoundBy(numberRow, [key]);
	}

	private environmentRows(): PageRow[] {
		const s = this.store.settings;
		const environment = (env: string) => {
			let renameTo = env;
			return pageRow(env, env === s.general.environment ? t("active") : undefined, (row) => {
				row.setClass("rb-env-row");
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
			});
		};
		const variable = (env: string, name: string, value: VariableValue) =>
			pageRow(name, "secret" in value ? t("secretStoredAs", { id: value.secret }) : undefined, (v) => {
				v.setClass("rb-variable-row");
				if ("secret" in value) v.addButton((b) => b.setButtonText(t("replaceSecret")).onClick(() => this.addVariable(env, name, true)));
				else {
					v.addText((field) => {
						field.setValue(value.value);
						field.inputEl.addEventListener("change", () => void this.store.set(["environments", env, name], field.getValue()));
					});
					v.addButton((b) => b.setButtonText(t("makeSecret")).onClick(() => void this.environments.setVariable(env, name, value.value, true)));
				}
				v.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name })).onClick(() => void this.store.delete(["environments", env, name])));
			});
		return [
			headingRow(t("environments")),
			...environmentNames(s).flatMap((env) => [environment(env), ...Object.entries(s.environments[env]).map(([name, value]) => variable(env, name, value))]),
			pageRow(t("newEnvironment"), t("newEnvironmentDesc"), (row) => row.addButton((b) => b.setButtonText(t("addEnvironment")).onClick(() => this.addVariable("")))),
		];
	}

	private addVariable(environment: string, name = "", secret = false): void {
		new NewVariableModal(this.app, { environment, name, secret }, async (v) => {
			await this.environments.setVariable(v.environment, v.name, v.value, v.secret);
		}).open();
	}

	private keymapRows(): PageRow[] {
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
		const defaultsNote = theirs.source === "defaults" ? [{ cls: "rb-keymap-defaults-note", text: t("hotkeysFromDefaults") }] : [];
		// The chords the preset registers today (reserved actions get theirs, but register nothing yet).
		const notebook = presetChords("notebook", {})
			.filter(({ action }) => !action.reserved)
			.map(({ chord }) => displayChord(chord, isMac))
			.join(", ");
		const preset = pageRow(t("keymapPreset"), t("keymapPresetDesc", { chords: notebook }), (row) =>
			row.setClass("rb-keymap-preset").addDropdown((d) => {
				d.addOption("obsidian", t("presetObsidian"));
				d.addOption("notebook", t("presetNotebook"));
				d.setValue(s.general.keymapPreset).onChange((v) => {
					const chosen = KEYMAP_PRESETS.find((p) => p === v);
					if (chosen) this.choosePreset(chosen);
				});
			}),
		);
		const actionRow = (action: Action) => {
			const chord = bindings.get(action.id);
			const source = sources.get(action.id) ?? "default";
			const clashes = chord && !action.reserved ? obsidianClashes(chord, theirs.hotkeys, isMac) : [];
			const warnings = [
				...(ours.get(action.id) ?? []).map((a) => t("sameChordAs", { action: a })),
				...clashes.map((h) => t(action.scope === "block" ? "obsidianOutsideBlocks" : "shadowsObsidian", { command: h.name })),
			];
			const keyRow = pageRow(action.id, action.scope === "block" ? t("insideBlock", { what: actionName(action.id) }) : actionName(action.id), (row) => {
				row.setClass("rb-keymap-row");
				row.settingEl.setAttr("data-action", action.id);
				row.settingEl.setAttr("data-source", source);
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
			});
			// Its chord finds it: "Ctrl+Enter" finds block.run.
			return alsoFoundBy(keyRow, chord ? [displayChord(chord, isMac)] : []);
		};
		return [alsoFoundBy(headingRow(t("keymap"), t("keymapDesc"), defaultsNote), ["keymap"]), alsoFoundBy(preset, ["keymap_preset", ...KEYMAP_PRESETS]), ...ACTION_SPECS.map(actionRow)];
	}

	/**
	 * Going back to "obsidian" takes nothing from Obsidian, so it applies at once; the Notebook
	 * preset first lists each chord it adds and the Obsidian command each one would shadow.
	 */
	private choosePreset(preset: KeymapPreset): void {
		const write = () => void this.store.set(["general", "keymap_preset"], preset).then((ok) => ok || this.redraw());
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
		new KeymapPresetModal(this.app, changes, write, () => this.redraw()).open();
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
			void this.store.set(["keymap", action], formatChord(chord)).then((ok) => ok || this.redraw());
		};
		const stop = (rerender: boolean) => {
			win.removeEventListener("keydown", onKey, true);
			this.stopCapture = null;
			if (rerender) this.redraw();
		};
		win.addEventListener("keydown", onKey, true);
		this.stopCapture = () => stop(false);
	}
}
