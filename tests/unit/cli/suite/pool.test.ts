import { runPool } from "../../../../src/cli/suite/pool";

/** A task that ends when the test says so: the pool's concurrency is seen, never timed. */
function gate() {
	let open!: () => void;
	const opened = new Promise<void>((r) => (open = r));
	return { open, opened };
}

describe("runPool", () => {
	it("runs at most `concurrency` at once, starts in order and keeps the results' order", async () => {
		const gates = [gate(), gate(), gate(), gate()];
		const started: number[] = [];
		const done = runPool([0, 1, 2, 3], 2, async (item) => {
			started.push(item);
			await gates[item].opened;
			return item * 10;
		});
		await Promise.resolve();
		expect(started).toEqual([0, 1]);
		gates[1].open();
		await new Promise((r) => setImmediate(r));
		expect(started).toEqual([0, 1, 2]);
		gates[0].open();
		gates[2].open();
		gates[3].open();
		await expect(done).resolves.toEqual([0, 10, 20, 30]);
	});

	it("starts nothing more once mayStart says no; those items stay undefined", async () => {
		let stop = false;
		const results = await runPool([1, 2, 3, 4], 1, async (item) => {
			if (item === 2) stop = true;
			return item;
		}, () => !stop);
		expect(results).toEqual([1, 2, undefined, undefined]);
	});

	it("handles no items and more lanes than items", async () => {
		await expect(runPool([], 4, async (x: number) => x)).resolves.toEqual([]);
		await expect(runPool([7], 8, async (x: number) => x)).resolves.toEqual([7]);
	});
});
