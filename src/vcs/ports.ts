import type { GitFailure } from "./failures";

/** What the version-control core needs from the file system; Node's fs/promises in the plugin and tests. */
export interface VcsFs {
	exists(path: string): Promise<boolean>;
	/** The file's text, or null when it does not exist. */
	readText(path: string): Promise<string | null>;
	writeText(path: string, text: string): Promise<void>;
	remove(path: string): Promise<void>;
	/** Copies a file byte for byte (the index, which is binary, for a safety point's snapshot). */
	copy(from: string, to: string): Promise<void>;
}

/** An operation's value, or the failure that ended it; never an exception. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: GitFailure };

/** Joins a path git printed (maybe relative to `cwd`) onto cwd. */
export function resolveFrom(cwd: string, path: string): string {
	if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
	return `${cwd.replace(/[\\/]+$/, "")}/${path}`;
}
