import { normalizePath, type App, type EventRef } from "obsidian";

/**
 * Calls `onChange` when the file at `path` (inside the config folder) changes on disk — by hand,
 * by sync, or by another process such as the CLI. Obsidian reports changes inside the config
 * folder only through its undocumented "raw" vault event: feature-checked; where it is absent
 * nothing is watched (the file is re-read on the next explicit load). Returns the unsubscribe.
 */
export function watchConfigFile(app: App, path: string, onChange: () => void): () => void {
	const vault = app.vault as unknown as { on?(name: "raw", cb: (path: string) => void): EventRef; offref?(ref: EventRef): void };
	if (typeof vault.on !== "function") return () => undefined;
	const target = normalizePath(path);
	const ref = vault.on("raw", (changed) => {
		if (normalizePath(changed) === target) onChange();
	});
	return () => vault.offref?.(ref);
}
