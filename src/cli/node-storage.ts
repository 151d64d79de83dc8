import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { BinaryStorage } from "../runner/binary-storage";

/** BinaryStorage on the local file system, for the CLI. */
export const nodeStorage: BinaryStorage = {
	async read(path) {
		try {
			return new Uint8Array(await readFile(path));
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw e;
		}
	},
	async write(path, data) {
		await mkdir(dirname(path), { recursive: true });
		await writeFile(path, data);
	},
	async rename(from, to) {
		await rename(from, to);
	},
	async remove(path) {
		await rm(path, { force: true });
	},
	async exists(path) {
		try {
			await stat(path);
			return true;
		} catch {
			return false;
		}
	},
};
