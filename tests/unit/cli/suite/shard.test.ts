import fc from "fast-check";
import { parseShard, partition, shardOf } from "../../../../src/cli/suite/shard";
import { UsageError } from "../../../../src/cli/usage";

const notes = (n: number) => Array.from({ length: n }, (_, i) => `notes/${String(i).padStart(3, "0")}.md`);

describe("parseShard", () => {
	it("reads i/n, 1-based", () => expect(parseShard("2/4")).toEqual({ index: 2, count: 4 }));
	it.each(["0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2"])("refuses %s", (text) => {
		expect(() => parseShard(text)).toThrow(UsageError);
	});
});

describe("partition", () => {
	it("deals the notes in path order without durations, each part in path order", () => {
		expect(partition(["c.md", "a.md", "b.md", "d.md", "e.md"], 2)).toEqual([
			["a.md", "c.md", "e.md"],
			["b.md", "d.md"],
		]);
	});

	it("puts every note in exactly one part, whatever the order it is given in, the count of parts and the durations", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.nat(10_000)), (names, count, times) => {
				const durations = new Map(names.slice(0, times.length).map((n, i) => [n, times[i]]));
				for (const d of [undefined, durations]) {
					const parts = partition(names, count, d);
					const reversed = partition([...names].reverse(), count, d);
					expect(parts).toHaveLength(count);
					expect(parts.flat().sort()).toEqual([...names].sort());
					expect(reversed).toEqual(parts);
				}
			}),
		);
	});

	it("balances by durations: longest first onto the least loaded part", () => {
		const durations = new Map([
			["a.md", 10],
			["b.md", 70],
			["c.md", 30],
			["d.md", 40],
			["e.md", 50],
		]);
		// b 70 → part 1; e 50 → part 2; d 40 → part 2 (90); c 30 → part 1 (100); a 10 → part 2 (100).
		expect(partition([...durations.keys()], 2, durations)).toEqual([
			["b.md", "c.md"],
			["a.md", "d.md", "e.md"],
		]);
	});

	it("gives a note without a duration the median of the known ones", () => {
		const durations = new Map([
			["a.md", 100],
			["b.md", 1],
			["c.md", 3],
		]);
		// new.md weighs 3 (the median): a → part 1, c → 2, new → 3 (c before new on the tie), b → 2 (parts 2 and 3 tie: the lower).
		expect(partition(["a.md", "b.md", "c.md", "new.md"], 3, durations)).toEqual([["a.md"], ["b.md", "c.md"], ["new.md"]]);
	});

	it("keeps the largest part near the ideal share on skewed durations", () => {
		const all = notes(200);
		const durations = new Map(all.map((n, i) => [n, ((i * 7919) % 1000) + (i % 50 === 0 ? 5000 : 0)]));
		const parts = partition(all, 4, durations);
		const loads = parts.map((p) => p.reduce((s, n) => s + (durations.get(n) ?? 0), 0));
		const total = loads.reduce((a, b) => a + b, 0);
		// Greedy longest-first is within 4/3 of the optimum; here the biggest note is far below a share.
		expect(Math.max(...loads)).toBeLessThan((total / 4) * 1.05);
		// Dealing by path alone would not balance it: notes 0, 50, 100 and 150 carry the weight and land together.
		const byPath = partition(all, 4).map((p) => p.reduce((s, n) => s + (durations.get(n) ?? 0), 0));
		expect(Math.max(...byPath)).toBeGreaterThan(Math.max(...loads));
	});
});

describe("shardOf", () => {
	it("gives shard i/n the i-th part", () => {
		expect(shardOf(notes(5), { index: 2, count: 2 })).toEqual(["notes/001.md", "notes/003.md"]);
	});
	it("gives an extra shard nothing", () => expect(shardOf(notes(2), { index: 3, count: 3 })).toEqual([]));
});
