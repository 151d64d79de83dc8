import { UsageError } from "../usage";
import { byPath } from "./collect";

/** `--shard i/n`: this machine's part, 1-based as Playwright and Jest write it. */
export interface Shard {
	index: number;
	count: number;
}

export function parseShard(text: string): Shard {
	const m = /^(\d+)\/(\d+)$/.exec(text.trim());
	const index = m ? Number(m[1]) : NaN;
	const count = m ? Number(m[2]) : NaN;
	if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard takes i/n with 1 ≤ i ≤ n (like --shard 2/4), not "${text}"`);
	return { index, count };
}

/** Last known run times in ms, by suite path. */
export type Durations = ReadonlyMap<string, number>;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Splits the notes (sorted by path) into `count` parts; every note falls in exactly one, and
 * every machine computes the same split from the same notes. Without durations the notes
 * are dealt in path order (note k to part k mod n). With durations: longest first onto the
 * least loaded part (ties: the shorter path order, then the lower part), notes without a
 * duration counted at the median of the known ones. Each part keeps path order.
 */
export function partition(notes: readonly string[], count: number, durations?: Durations): string[][] {
	const parts: string[][] = Array.from({ length: count }, () => []);
	const sorted = [...notes].sort(byPath);
	const known = sorted.map((n) => durations?.get(n)).filter((d): d is number => d !== undefined);
	if (known.length === 0) {
		sorted.forEach((note, k) => parts[k % count].push(note));
		return parts;
	}
	const fallback = median(known);
	const weight = (n: string) => durations?.get(n) ?? fallback;
	const loads: number[] = new Array<number>(count).fill(0);
	const order = [...sorted].sort((a, b) => weight(b) - weight(a) || byPath(a, b));
	for (const note of order) {
		let least = 0;
		for (let p = 1; p < count; p++) if (loads[p] < loads[least]) least = p;
		loads[least] += weight(note);
		parts[least].push(note);
	}
	return parts.map((p) => p.sort(byPath));
}

/** The notes of shard i/n. */
export function shardOf(notes: readonly string[], shard: Shard, durations?: Durations): string[] {
	return partition(notes, shard.count, durations)[shard.index - 1];
}
