/**
 * Where the history database lives: the vault adapter in the plugin, the file system in the
 * CLI. Paths are the adapter's own (vault-relative in the plugin, absolute in the CLI).
 */
export interface BinaryStorage {
	read(path: string): Promise<Uint8Array | null>;
	write(path: string, data: Uint8Array): Promise<void>;
	/**
	 * Creates `path` with `data` only if it does not exist; false when it did. Atomic on the file
	 * system (O_EXCL); the vault adapter can only check, then write (documented as best effort).
	 */
	createExclusive(path: string, data: Uint8Array): Promise<boolean>;
	/** Renames, replacing `to` if it exists. */
	rename(from: string, to: string): Promise<void>;
	remove(path: string): Promise<void>;
	exists(path: string): Promise<boolean>;
	/** Paths of the files in `path`'s folder whose name starts with `path`'s name. */
	siblings(path: string): Promise<string[]>;
}

/** Temp files of `path` are `<path>.tmp-<time>-<unique>`: sortable by time, never shared by two writers. */
export function tempPathOf(path: string, now: number = Date.now()): string {
	return `${path}.tmp-${String(now).padStart(15, "0")}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Writes to a temp file of its own, then renames it over `path`: a crash never leaves a
 * half-written file, and two writers never share (or delete) each other's temp file.
 */
export async function writeAtomically(storage: BinaryStorage, path: string, data: Uint8Array): Promise<void> {
	const tmp = tempPathOf(path);
	await storage.write(tmp, data);
	await storage.rename(tmp, path);
}

/** The newest complete temp file of `path` left by an interrupted write (the older name `<path>.tmp` too). */
export async function newestTemp(storage: BinaryStorage, path: string): Promise<string | null> {
	const temps = (await storage.siblings(path)).filter((p) => p === `${path}.tmp` || p.startsWith(`${path}.tmp-`));
	return temps.sort().pop() ?? null;
}
