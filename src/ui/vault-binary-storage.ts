import { normalizePath, type DataAdapter } from "obsidian";
import type { BinaryStorage } from "../runner/binary-storage";

/** BinaryStorage over the vault adapter (paths are vault-relative, e.g. under the config folder). */
export function vaultBinaryStorage(adapter: DataAdapter): BinaryStorage {
	return {
		async read(path) {
			const p = normalizePath(path);
			return (await adapter.exists(p)) ? new Uint8Array(await adapter.readBinary(p)) : null;
		},
		async write(path, data) {
			await adapter.writeBinary(normalizePath(path), data.slice().buffer);
		},
		async rename(from, to) {
			// The adapter refuses to rename onto an existing file: remove it first. A crash in
			// between leaves the complete temp file, which the history store recovers from.
			if (await adapter.exists(normalizePath(to))) await adapter.remove(normalizePath(to));
			await adapter.rename(normalizePath(from), normalizePath(to));
		},
		async remove(path) {
			if (await adapter.exists(normalizePath(path))) await adapter.remove(normalizePath(path));
		},
		// The adapter has no exclusive create: check, then write. Another writer on the same vault
		// (the CLI) uses O_EXCL, so the window is this adapter's check-then-write alone.
		async createExclusive(path, data) {
			const p = normalizePath(path);
			if (await adapter.exists(p)) return false;
			await adapter.writeBinary(p, data.slice().buffer);
			return true;
		},
		exists: (path) => adapter.exists(normalizePath(path)),
		async siblings(path) {
			const p = normalizePath(path);
			const slash = p.lastIndexOf("/");
			const dir = slash < 0 ? "" : p.slice(0, slash);
			try {
				return (await adapter.list(dir || "/")).files.map(normalizePath).filter((f) => f.startsWith(p));
			} catch {
				return []; // no such folder yet
			}
		},
	};
}
