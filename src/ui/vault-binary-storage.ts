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
		exists: (path) => adapter.exists(normalizePath(path)),
	};
}
