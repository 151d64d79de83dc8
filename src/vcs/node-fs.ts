import type { VcsFs } from "./ports";

/** The part of Node's fs/promises we use (declared here so the core names no Node module). */
export interface FsPromisesLike {
	access(path: string): Promise<void>;
	readFile(path: string, encoding: "utf8"): Promise<string>;
	writeFile(path: string, text: string, encoding: "utf8"): Promise<void>;
	unlink(path: string): Promise<void>;
	copyFile(from: string, to: string): Promise<void>;
}

/** VcsFs over Node's fs/promises, handed in by the caller (the plugin requires it behind its desktop guard). */
export function createNodeVcsFs(fsp: FsPromisesLike): VcsFs {
	return {
		exists: (path) =>
			fsp.access(path).then(
				() => true,
				() => false,
			),
		readText: (path) => fsp.readFile(path, "utf8").catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" || e.code === "EISDIR" ? null : Promise.reject(e))),
		writeText: (path, text) => fsp.writeFile(path, text, "utf8"),
		remove: (path) => fsp.unlink(path),
		copy: (from, to) => fsp.copyFile(from, to),
	};
}
