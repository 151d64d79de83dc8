/** Default bound of the response cache: 64 MiB of bodies per vault. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A least-recently-used map bounded by the byte size its entries declare. An entry larger
 * than the whole bound is not stored (it would evict everything and then itself).
 */
export class ByteLruCache<V> {
	private readonly entries = new Map<string, { value: V; size: number }>();
	private bytes = 0;

	constructor(readonly maxBytes: number = DEFAULT_CACHE_BYTES) {}

	/** How many entries it holds. */
	get size(): number {
		return this.entries.size;
	}

	get(key: string): V | undefined {
		const e = this.entries.get(key);
		if (!e) return undefined;
		// Map keeps insertion order: re-inserting marks it most recently used.
		this.entries.delete(key);
		this.entries.set(key, e);
		return e.value;
	}

	set(key: string, value: V, size: number): void {
		this.delete(key);
		if (size > this.maxBytes) return;
		this.entries.set(key, { value, size });
		this.bytes += size;
		for (const [k, e] of this.entries) {
			if (this.bytes <= this.maxBytes) break;
			this.entries.delete(k);
			this.bytes -= e.size;
		}
	}

	delete(key: string): boolean {
		const e = this.entries.get(key);
		if (!e) return false;
		this.entries.delete(key);
		this.bytes -= e.size;
		return true;
	}

	/** Removes every entry whose value matches; returns how many. */
	deleteWhere(match: (value: V) => boolean): number {
		let n = 0;
		for (const [key, e] of [...this.entries]) if (match(e.value) && this.delete(key)) n++;
		return n;
	}

	clear(): void {
		this.entries.clear();
		this.bytes = 0;
	}

	stats(): { entries: number; bytes: number; maxBytes: number } {
		return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes };
	}
}
