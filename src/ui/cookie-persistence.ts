import type { App } from "obsidian";
import type { CookieJars } from "../runner/cookie-jar";
import type { SettingsStore } from "./settings-store";
import { notify } from "./notify";
import { t } from "./strings";

const SAVE_DELAY_MS = 500;

/**
 * `[general] persist_cookies = true` (docs/architecture.md): the jars are read from `cookies.json` beside
 * user.toml when the plugin starts and written (debounced) after each change; never into history.
 * Off (the default): nothing is read or written, and a file left from before is not used.
 * Returns the unsubscribe (the last pending write is flushed).
 */
export function persistCookies(app: App, jars: CookieJars, settings: SettingsStore, pluginDir: string): () => void {
	const path = `${pluginDir}/cookies.json`;
	const adapter = app.vault.adapter;
	let timer: number | null = null;
	const save = () => {
		timer = null;
		if (settings.settings.general.persistCookies) void adapter.write(path, jars.serialize()).catch((e: unknown) => notify(t("cookiesNotSaved", { reason: e instanceof Error ? e.message : String(e) })));
	};
	jars.onChange = () => {
		if (!settings.settings.general.persistCookies) return;
		if (timer !== null) window.clearTimeout(timer);
		timer = window.setTimeout(save, SAVE_DELAY_MS);
	};
	void (async () => {
		if (!settings.settings.general.persistCookies || !(await adapter.exists(path))) return;
		const problem = jars.restore(await adapter.read(path));
		if (problem) notify(t("cookiesNotRead", { path, reason: problem }));
	})();
	return () => {
		jars.onChange = null;
		if (timer !== null) {
			window.clearTimeout(timer);
			save();
		}
	};
}
