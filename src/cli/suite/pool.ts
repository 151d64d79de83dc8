/**
 * Runs `work` over the items with at most `concurrency` at once, starting them in order;
 * once `mayStart` says no, the items not started stay undefined in the result (which keeps
 * the items' order).
 */
export async function runPool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>, mayStart: () => boolean = () => true): Promise<Array<R | undefined>> {
	const results: Array<R | undefined> = new Array<R | undefined>(items.length).fill(undefined);
	let next = 0;
	const lane = async () => {
		while (next < items.length && mayStart()) {
			const index = next++;
			results[index] = await work(items[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
	return results;
}
