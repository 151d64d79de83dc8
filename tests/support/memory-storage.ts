import type { BinaryStorage } from "../../src/runner/binary-storage";

/** A BinaryStorage in memory that logs every write, rename and remove, in order, and can be made to refuse a method. */
export interface MemoryStorage extends BinaryStorage {
	files: Map<string, Uint8Array>;
	log: string[];
	/** Methods that reject with `disk full` until removed from this set. */
	refusing: Set<keyof BinaryStorage>;
}

export function memoryStorage(files: Record<string, Uint8Array | string> = {}): MemoryStorage {
	const map = new Map<string, Uint8Array>(Object.entries(files).map(([p, d]) => [p, typeof d === "string" ? new TextEncoder().encode(d) : d]));
	const log: string[] = [];
	const refusing = new Set<keyof BinaryStorage>();
	const act = <T>(method: keyof BinaryStorage, entry: string | null, work: () => T): Promise<T> => {
		if (refusing.has(method)) return Promise.reject(new Error("disk full"));
		if (entry) log.push(entry);
		try {
			return Promise.resolve(work());
		} catch (e) {
			return Promise.reject(e instanceof Error ? e : new Error(String(e)));
		}
	};
	return {
		files: map,
		log,
		refusing,
		read: (p) => act("read", null, () => map.get(p) ?? null),
		write: (p, d) => act("write", `write ${p}`, () => void map.set(p, d)),
		createExclusive: (p, d) => act("createExclusive", null, () => (map.has(p) ? false : (map.set(p, d), true))),
		rename: (from, to) =>
			act("rename", `rename ${from} ${to}`, () => {
				const d = map.get(from);
				if (!d) throw new Error(`no ${from}`);
				map.delete(from);
				map.set(to, d);
			}),
		remove: (p) => act("remove", `remove ${p}`, () => void map.delete(p)),
		exists: (p) => act("exists", null, () => map.has(p)),
		siblings: (p) => act("siblings", null, () => [...map.keys()].filter((k) => k !== p && k.startsWith(p))),
	};
}
