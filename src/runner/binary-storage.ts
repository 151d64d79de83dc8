/**
 * Where the history database lives: the vault adapter in the plugin, the file system in the
 * CLI. Paths are the adapter's own (vault-relative in the plugin, absolute in the CLI).
 */
export interface BinaryStorage {
	read(path: string): Promise<Uint8Array | null>;
	write(path: string, data: Uint8Array): Promise<void>;
	/** Renames, replacing `to` if it exists. */
	rename(from: string, to: string): Promise<void>;
	remove(path: string): Promise<void>;
	exists(path: string): Promise<boolean>;
}

/** Writes to `<path>.tmp` first, then renames over `path`: a crash never leaves a half-written file. */
export async function writeAtomically(storage: BinaryStorage, path: string, data: Uint8Array): Promise<void> {
	const tmp = `${path}.tmp`;
	await storage.write(tmp, data);
	await storage.rename(tmp, path);
}
