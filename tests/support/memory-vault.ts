/**
 * An Obsidian vault in memory, as far as the db and diff views' specs reach into it: the adapter
 * (text and binary files, rename, list), notes as TFiles (`cachedRead`, `process`) and a
 * workspace with no open editor, so `Notes` reads and writes through the vault.
 */
import { TFile, type App } from "obsidian";

export interface MemoryVault {
	app: App;
	files: Map<string, string | Uint8Array>;
	/** Every write, rename and remove of the adapter, in order. */
	log: string[];
}

export function memoryVault(initial: Record<string, string | Uint8Array> = {}, extra: Partial<Record<keyof App, unknown>> = {}): MemoryVault {
	const files = new Map<string, string | Uint8Array>(Object.entries(initial));
	const log: string[] = [];
	const text = (p: string) => {
		const v = files.get(p);
		if (v === undefined) return Promise.reject(new Error(`ENOENT: ${p}`));
		return Promise.resolve(typeof v === "string" ? v : new TextDecoder().decode(v));
	};
	const bytes = (p: string) => {
		const v = files.get(p);
		if (v === undefined) return Promise.reject(new Error(`ENOENT: ${p}`));
		return Promise.resolve((typeof v === "string" ? new TextEncoder().encode(v) : v).slice().buffer);
	};
	const adapter = {
		exists: (p: string) => Promise.resolve(files.has(p)),
		read: text,
		readBinary: bytes,
		write: (p: string, d: string) => Promise.resolve(void (log.push(`write ${p}`), files.set(p, d))),
		writeBinary: (p: string, d: ArrayBuffer) => Promise.resolve(void (log.push(`write ${p}`), files.set(p, new Uint8Array(d)))),
		rename: (from: string, to: string) => {
			const v = files.get(from);
			if (v === undefined) return Promise.reject(new Error(`ENOENT: ${from}`));
			if (files.has(to)) return Promise.reject(new Error(`EEXIST: ${to}`));
			log.push(`rename ${from} ${to}`);
			files.delete(from);
			files.set(to, v);
			return Promise.resolve();
		},
		remove: (p: string) => Promise.resolve(void (log.push(`remove ${p}`), files.delete(p))),
		list: (dir: string) => Promise.resolve({ files: [...files.keys()].filter((f) => f.startsWith(dir === "/" ? "" : `${dir}/`)), folders: [] }),
	};
	const fileAt = (path: string) => (files.has(path) ? Object.assign(new TFile(), { path }) : null);
	const vault = {
		adapter,
		getAbstractFileByPath: fileAt,
		cachedRead: (f: TFile) => text(f.path),
		process: async (f: TFile, edit: (data: string) => string) => {
			const next = edit(await text(f.path));
			files.set(f.path, next);
			log.push(`process ${f.path}`);
			return next;
		},
	};
	const app = { vault, workspace: { getLeavesOfType: () => [] }, ...extra } as unknown as App;
	return { app, files, log };
}
