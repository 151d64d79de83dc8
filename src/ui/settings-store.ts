import { normalizePath, type App } from "obsidian";
import { watchConfigFile } from "./config-file-watch";
import { notify } from "./notify";
import { t } from "./strings";
import { resolveKeymap } from "../settings/keymap";
import { locate } from "../settings/toml-locate";
import { deleteTomlKey, patchToml, renameTomlTable, setTomlValue, type PatchValue } from "../settings/toml-patch";
import { defaultSettings, formatProblem, parseSettings, type Settings } from "../settings/user-settings";

/**
 * The plugin's view of user.toml: the last good settings stay in force when the file is
 * broken, problems are shown with file:line:column, and the file is never written while
 * it does not parse.
 */
export class SettingsStore {
	settings: Settings = defaultSettings();
	private listeners = new Set<(s: Settings) => void>();

	constructor(
		private readonly app: App,
		private readonly pluginDir: string,
	) {}

	get path(): string {
		return normalizePath(`${this.pluginDir}/user.toml`);
	}

	onChange(listener: (s: Settings) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** The text of user.toml as last read, to tell a real change from a repeated event. */
	private lastText: string | null = null;

	/**
	 * Obsidian reports changes inside the config folder only through its undocumented "raw"
	 * vault event; where it exists, an edit of user.toml (by hand, by sync) is picked up
	 * without the "Reload settings" command. Returns the unsubscribe.
	 */
	watch(): () => void {
		return watchConfigFile(this.app, this.path, () => void this.load({ onlyIfChanged: true }));
	}

	/** Re-reads user.toml. Returns whether the settings in force changed. */
	async load(options: { onlyIfChanged?: boolean } = {}): Promise<boolean> {
		const adapter = this.app.vault.adapter;
		if (!(await adapter.exists(this.path))) return false;
		const text = await adapter.read(this.path);
		if (options.onlyIfChanged && text === this.lastText) return false;
		this.lastText = text;
		const result = parseSettings(text, this.path);
		if (!result.ok) {
			notify(`${result.errors.map(formatProblem).join("\n")}\n${t("lastGoodSettings")}`, 10000);
			return false;
		}
		const keymapProblems = resolveKeymap(result.settings.keymap).problems.map((p) => {
			const at = locate(text, ["keymap", p.action]);
			return `${this.path}:${at.line}:${at.column}: keymap."${p.action}": ${p.message} (ignored)`;
		});
		const messages = [...result.errors.map(formatProblem), ...keymapProblems];
		if (messages.length > 0) notify(messages.join("\n"), 10000);
		this.settings = result.settings;
		for (const l of this.listeners) l(this.settings);
		return true;
	}

	/** Changes one key in user.toml (comments and order kept) and reloads. */
	set(path: string[], value: PatchValue): Promise<boolean> {
		return this.patch((text) => setTomlValue(text, path, value));
	}

	/** Removes one key (e.g. a keymap override, to go back to the default). */
	delete(path: string[]): Promise<boolean> {
		return this.patch((text) => deleteTomlKey(text, path));
	}

	renameTable(from: string[], to: string[]): Promise<boolean> {
		return this.patch((text) => renameTomlTable(text, from, to));
	}

	/**
	 * Applies a comment-preserving edit to user.toml and reloads. The patch functions refuse a
	 * file that does not parse, so a broken file is reported and never overwritten.
	 */
	async patch(edit: (text: string) => string): Promise<boolean> {
		const adapter = this.app.vault.adapter;
		const text = (await adapter.exists(this.path)) ? await adapter.read(this.path) : "";
		const patched = patchToml(text, edit);
		if (!patched.ok) {
			notify(`${this.path}: ${patched.message}`, 10000);
			return false;
		}
		const next = patched.text;
		if (next !== text) await adapter.write(this.path, next);
		await this.load();
		return true;
	}
}
