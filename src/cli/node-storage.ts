import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import type { BinaryStorage } from "../runner/binary-storage";
import type { LockOptions } from "../runner/file-lock";

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
	async createExclusive(path, data) {
		await mkdir(dirname(path), { recursive: true });
		try {
			await writeFile(path, data, { flag: "wx" });
			return true;
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
			throw e;
		}
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
	async siblings(path) {
		const name = basename(path);
		try {
			return (await readdir(dirname(path))).filter((f) => f.startsWith(name)).map((f) => join(dirname(path), f));
		} catch {
			return [];
		}
	},
};

/** This process as a history lock owner; a lock of a process of this machine that is gone is recovered at once. */
export function nodeLockOptions(): LockOptions {
	return {
		owner: { pid: process.pid, host: hostname() },
		isAlive: (pid) => {
			try {
				process.kill(pid, 0);
				return true;
			} catch (e) {
				return (e as NodeJS.ErrnoException).code === "EPERM";
			}
		},
	};
}
