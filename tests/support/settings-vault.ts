/**
 * A vault adapter in memory holding the plugin's folder, and a real SettingsStore over it: the
 * UI specs that change settings read back what was written to user.toml.
 */
import type { App } from "obsidian";
import { SettingsStore } from "../../src/ui/settings-store";
import { until } from "./until";

export const PLUGIN_DIR = ".obsidian/plugins/runnable-blocks";
export const USER_TOML = `${PLUGIN_DIR}/user.toml`;

export interface MemoryAdapter {
	exists(path: string): Promise<boolean>;
	read(path: string): Promise<string>;
	write(path: string, data: string): Promise<void>;
	files: Map<string, string>;
	/** Paths whose writes reject with `disk full` while listed. */
	refusing: Set<string>;
}

export function memoryAdapter(files: Record<string, string> = {}): MemoryAdapter {
	const map = new Map(Object.entries(files));
	const refusing = new Set<string>();
	return {
		files: map,
		refusing,
		exists: (p) => Promise.resolve(map.has(p)),
		read: (p) => (map.has(p) ? Promise.resolve(map.get(p) ?? "") : Promise.reject(new Error(`ENOENT: ${p}`))),
		write: (p, d) => (refusing.has(p) ? Promise.reject(new Error("disk full")) : Promise.resolve(void map.set(p, d))),
	};
}

/** A SettingsStore over `app`'s vault adapter, loaded from its user.toml. */
export async function loadedStore(app: App): Promise<SettingsStore> {
	const store = new SettingsStore(app, PLUGIN_DIR);
	await store.load();
	return store;
}

/** Waits for a file's text to change (a settings patch is a few awaits away), and gives the new text. */
export async function changedText(read: () => string, before: string): Promise<string> {
	await until(() => read() !== before);
	return read();
}

/** Sets a field's value as the user would, then fires `event` (`input` while typing, `change` when it loses focus). */
export function typeInto(input: HTMLInputElement | HTMLSelectElement, value: string, event = "input"): void {
	input.value = value;
	input.dispatchEvent(new Event(event));
}
