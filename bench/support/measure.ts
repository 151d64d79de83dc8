/** Median-of-runs timing for benchmarks: ratios against a baseline measured in the same run. */
export interface Measurement {
	name: string;
	/** Median milliseconds per iteration. */
	median: number;
	min: number;
	runs: number;
}

export function measure(name: string, fn: () => void, { warmup = 5, runs = 30 } = {}): Measurement {
	for (let i = 0; i < warmup; i++) fn();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = process.hrtime.bigint();
		fn();
		times.push(Number(process.hrtime.bigint() - t0) / 1e6);
	}
	times.sort((a, b) => a - b);
	return { name, median: times[Math.floor(times.length / 2)], min: times[0], runs };
}

export async function measureAsync(name: string, fn: () => Promise<void>, { warmup = 1, runs = 5 } = {}): Promise<Measurement> {
	for (let i = 0; i < warmup; i++) await fn();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = process.hrtime.bigint();
		await fn();
		times.push(Number(process.hrtime.bigint() - t0) / 1e6);
	}
	times.sort((a, b) => a - b);
	return { name, median: times[Math.floor(times.length / 2)], min: times[0], runs };
}

export function printTable(rows: Measurement[], baseline: Measurement): void {
	for (const r of rows) {
		console.log(`${r.name.padEnd(28)} median ${r.median.toFixed(3).padStart(10)} ms  min ${r.min.toFixed(3).padStart(10)} ms  ratio ${(r.median / baseline.median).toFixed(2)}×`);
	}
}
