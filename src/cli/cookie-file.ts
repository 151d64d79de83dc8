import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CookieJars } from "../runner/cookie-jar";
import type { CliVault } from "./vault";

/** The plugin's cookies.json, beside history.sqlite; null outside a vault. */
function cookieFilePath(vault: CliVault): string | null {
	return vault.historyPath === null ? null : join(dirname(vault.historyPath), "cookies.json");
}

/**
 * `[general] persist_cookies = true` in the CLI (docs/architecture.md): the run starts with the jars of
 * the plugin's cookies.json and writes them back at its end when a response changed them, so a
 * login in Obsidian serves a CLI run and the other way round. A file that cannot be read is
 * left as it is (said on stderr): the run's jar is never written over it. Returns the save (a
 * no-op when the setting is off or the note is outside a vault).
 */
export function persistedCookies(jars: CookieJars, vault: CliVault, persist: boolean, warn: (s: string) => void): () => void {
	const path = persist ? cookieFilePath(vault) : null;
	if (path === null) return () => undefined;
	let readable = true;
	if (existsSync(path)) {
		let problem: string | null;
		try {
			problem = jars.restore(readFileSync(path, "utf8"));
		} catch (e) {
			problem = e instanceof Error ? e.message : String(e);
		}
		if (problem !== null) {
			readable = false;
			warn(`runnable-blocks: ${path}: cookies not read (${problem}); this run starts with an empty jar and leaves the file as it is\n`);
		}
	}
	let changed = false;
	jars.onChange = () => {
		changed = true;
	};
	return () => {
		jars.onChange = null;
		if (!changed || !readable) return;
		// A temp file renamed over: a reader (Obsidian) never sees half a file.
		const temp = `${path}.tmp-${process.pid}`;
		try {
			writeFileSync(temp, jars.serialize());
			renameSync(temp, path);
		} catch (e) {
			warn(`runnable-blocks: ${path}: cookies not saved (${e instanceof Error ? e.message : String(e)})\n`);
		}
	};
}
