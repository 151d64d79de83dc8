import { Platform, PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import { ACTIONS, chordFromKeyEvent, displayChord, findConflicts, formatChord, resolveKeymap } from "../settings/keymap";
import { deleteTomlTable, setTomlValue } from "../settings/toml-patch";
import { TRANSPORTS } from "../settings/user-settings";
import { environmentNames } from "../settings/variables";
import { EnvironmentActions, NewVariableModal } from "./environments";
import { obsidianClashes, obsidianHotkeys } from "./obsidian-hotkeys";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";

/** What each action does, for the Keymap section. */
const ACTION_NAMES: Record<string, string> = {
	"block.run": "Run the block at the cursor",
	"block.run_all": "Run every block of the note",
	"block.cancel": "Cancel the running block",
	"block.copy_curl": "Copy the block as curl",
	"block.explain": "Explain the block (reserved for the chat panel)",
	"block.force_run": "Run the block, skipping the cache",
	"search.blocks": "Search runnable blocks and variables",
	"env.switch": "Switch environment",
	"env.new_variable": "New variable in the active environment",
	"chat.toggle": "Toggle the chat panel (reserved)",
};
const actionName = (id: string) => ACTION_NAMES[id] ?? `Go to block ${id.split(".").pop() ?? ""} of the note`;

/**
 * The settings page: General, Environments, Keymap, Connections. It never holds settings of
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
			.setName("Settings file")
			.setDesc(`Everything here is written to ${this.store.path}; comments and unknown keys there are kept.`)
			.addButton((b) => b.setButtonText("Reload from file").onClick(() => void this.store.load()));
		this.general(el);
		this.environmentSection(el);
		this.keymap(el);
		this.connections(el);
	}

	private general(el: HTMLElement): void {
		const s = this.store.settings;
		new Setting(el)
			.setName("Active environment")
			.setDesc("Variables of this environment fill {{name}} references.")
			.addDropdown((d) => {
				d.addOption("", "None");
				for (const name of environmentNames(s)) d.addOption(name, name);
				d.setValue(s.general.environment).onChange((v) => void this.environments.switchTo(v));
			});
		new Setting(el)
			.setName("Default timeout")
			.setDesc("Milliseconds a block may run before it is cancelled; a block's timeout= overrides it.")
			.addText((t) => {
				t.inputEl.addClass("rb-setting-timeout");
				t.setValue(String(s.general.timeout));
				t.inputEl.addEventListener("change", () => {
					const n = Number(t.getValue());
					if (!Number.isInteger(n) || n <= 0) {
						notify("The timeout is a whole number of milliseconds above 0.");
						t.setValue(String(this.store.settings.general.timeout));
						return;
					}
					void this.store.set(["general", "timeout"], n);
				});
			});
		new Setting(el)
			.setName("Transport")
			.setDesc("Auto streams on desktop and uses Obsidian's request API elsewhere.")
			.addDropdown((d) => {
				for (const t of TRANSPORTS) d.addOption(t, t);
				d.setValue(s.general.transport).onChange((v) => void this.store.set(["general", "transport"], v));
			});
	}

	private environmentSection(el: HTMLElement): void {
		const s = this.store.settings;
		new Setting(el).setName("Environments").setHeading();
		for (const env of environmentNames(s)) {
			const row = new Setting(el).setName(env).setClass("rb-env-row");
			if (env === s.general.environment) row.setDesc("Active");
			let renameTo = env;
			row.addText((t) => t.setValue(env).onChange((v) => (renameTo = v.trim())));
			row.addButton((b) =>
				b.setButtonText("Rename").onClick(() => {
					if (!renameTo || renameTo === env) return;
					void this.store.renameTable(["environments", env], ["environments", renameTo]).then((ok) => {
						if (ok && this.store.settings.general.environment === env) void this.environments.switchTo(renameTo);
					});
				}),
			);
			row.addButton((b) => b.setButtonText("Add variable").onClick(() => this.addVariable(env)));
			row.addExtraButton((b) => b.setIcon("trash").setTooltip(`Delete ${env}`).onClick(() => void this.store.patch((text) => deleteTomlTable(text, ["environments", env]))));
			for (const [name, value] of Object.entries(s.environments[env])) {
				const v = new Setting(el).setName(name).setClass("rb-variable-row");
				if ("secret" in value) {
					v.setDesc(`Secret, stored as “${value.secret}”.`);
					v.addButton((b) => b.setButtonText("Replace…").onClick(() => this.addVariable(env, name, true)));
				} else {
					v.addText((t) => {
						t.setValue(value.value);
						t.inputEl.addEventListener("change", () => void this.store.set(["environments", env, name], t.getValue()));
					});
					v.addButton((b) => b.setButtonText("Make secret").onClick(() => void this.environments.setVariable(env, name, value.value, true)));
				}
				v.addExtraButton((b) => b.setIcon("trash").setTooltip(`Delete ${name}`).onClick(() => void this.store.delete(["environments", env, name])));
			}
		}
		new Setting(el)
			.setName("New environment")
			.setDesc("Starts with its first variable.")
			.addButton((b) => b.setButtonText("Add environment").onClick(() => this.addVariable("")));
	}

	private addVariable(environment: string, name = "", secret = false): void {
		new NewVariableModal(this.app, { environment, name, secret }, async (v) => {
			await this.environments.setVariable(v.environment, v.name, v.value, v.secret);
		}).open();
	}

	private keymap(el: HTMLElement): void {
		const isMac = Platform.isMacOS;
		const { bindings } = resolveKeymap(this.store.settings.keymap);
		const ours = new Map<string, string[]>();
		for (const group of findConflicts(bindings, isMac)) for (const a of group) ours.set(a, group.filter((x) => x !== a));
		const theirs = obsidianHotkeys(this.app, this.ownPrefix);
		new Setting(el).setName("Keymap").setHeading().setDesc("Click a binding, then press the new chord (escape cancels).");
		for (const action of ACTIONS) {
			const chord = bindings.get(action.id);
			const row = new Setting(el).setName(action.id).setClass("rb-keymap-row");
			row.settingEl.setAttr("data-action", action.id);
			const warnings = [
				...(ours.get(action.id) ?? []).map((a) => `Same chord as ${a}.`),
				...(chord ? obsidianClashes(chord, theirs, isMac).map((c) => `Obsidian's “${c}” uses it too.`) : []),
			];
			row.setDesc(actionName(action.id) + (action.scope === "block" ? " (inside a block)" : ""));
			if (warnings.length) row.descEl.createDiv({ cls: "rb-keymap-conflict", text: warnings.join(" ") });
			row.addButton((b) => {
				b.buttonEl.addClass("rb-keymap-chord");
				b.setButtonText(chord ? displayChord(chord, isMac) : "Unbound");
				b.onClick(() => this.capture(action.id, b.buttonEl));
			});
			if (action.id in this.store.settings.keymap) row.addExtraButton((b) => b.setIcon("rotate-ccw").setTooltip("Reset to default").onClick(() => void this.store.delete(["keymap", action.id])));
		}
	}

	/** Captures the next chord for an action and writes it to [keymap]. */
	private capture(action: string, button: HTMLElement): void {
		this.stopCapture?.();
		button.setText("Press a chord…");
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

	private connections(el: HTMLElement): void {
		new Setting(el).setName("Connections").setHeading().setDesc("Database files that db blocks query, by name.");
		const entries = Object.entries(this.store.settings.connections);
		if (entries.length === 0) el.createEl("p", { cls: "setting-item-description", text: "No connections yet." });
		for (const [name, c] of entries) {
			new Setting(el)
				.setName(name)
				.setDesc(`${c.type} · ${c.path}${c.readonly ? " · read-only" : ""}`)
				.addExtraButton((b) => b.setIcon("trash").setTooltip(`Delete ${name}`).onClick(() => void this.store.patch((text) => deleteTomlTable(text, ["connections", name]))));
		}
		let name = "";
		let path = "";
		new Setting(el)
			.setName("New connection")
			.addText((t) => t.setPlaceholder("Name").onChange((v) => (name = v.trim())))
			.addText((t) => t.setPlaceholder("Path in the vault").onChange((v) => (path = v.trim())))
			.addButton((b) =>
				b.setButtonText("Add").onClick(async () => {
					if (!/^[A-Za-z0-9_-]+$/.test(name) || !path) {
						notify("A connection needs a name (letters, digits, _ and -) and a vault path.");
						return;
					}
					if (name in this.store.settings.connections) {
						notify(`A connection named ${name} exists already.`);
						return;
					}
					const at = (key: string) => ["connections", name, key];
					await this.store.patch((text) => setTomlValue(setTomlValue(setTomlValue(text, at("type"), "sqlite"), at("path"), path), at("readonly"), true));
				}),
			);
	}
}
