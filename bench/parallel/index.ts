/**
 * bench/parallel — "Run all" of a note of 8 independent GETs against a server that answers each
 * request 50 ms after it arrives (a slow API on 127.0.0.1): `[general] parallel = 4` against
 * `parallel = 1` (one block after another, the baseline), through `runBlocks` and the node
 * transport, as the plugin and the CLI run a note. The server counts the requests it held at once:
 * the proof that the parallel run overlapped them and the serial one did not.
 * Usage: node bench/run.mjs parallel
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { parseNote } from "../../src/blocks";
import { createNodeTransport } from "../../src/runner/http/node-transport";
import type { BlockResult } from "../../src/runner/result";
import { runBlocks } from "../../src/runner/run-note";
import { measureAsync } from "../support/measure";
import { report } from "../support/report";

const LATENCY_MS = 50;
const BLOCKS = 8;

async function startSlowServer(): Promise<{ url: string; maxInFlight(): number; reset(): void; close(): Promise<void> }> {
	let inFlight = 0;
	let max = 0;
	const server = http.createServer((req, res) => {
		req.resume();
		inFlight++;
		max = Math.max(max, inFlight);
		setTimeout(() => {
			inFlight--;
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ path: req.url }));
		}, LATENCY_MS);
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		maxInFlight: () => max,
		reset: () => (max = 0),
		close: () => new Promise((r) => server.close(() => r())),
	};
}

async function main(): Promise<void> {
	const server = await startSlowServer();
	const transport = createNodeTransport();
	const note = parseNote(Array.from({ length: BLOCKS }, (_, i) => `\`\`\`http alias=b${i}\nGET ${server.url}/item/${i}\n\`\`\``).join("\n\n"));
	const inFlight: Record<number, number> = {};
	const runAll = (parallel: number) => async () => {
		server.reset();
		const runs = await runBlocks(note, note, { filePath: "bench.md", env: {}, results: new Map<string, BlockResult>(), deps: { transport, cacheKey: () => "" }, parallel });
		if (runs.length !== BLOCKS || runs.some((r) => r.result.state !== "done")) throw new Error(`a block did not finish: ${runs.map((r) => r.result.state).join(", ")}`);
		inFlight[parallel] = server.maxInFlight();
	};
	const serial = await measureAsync("parallel = 1 (serial)", runAll(1), { warmup: 1, runs: 7 });
	const four = await measureAsync("parallel = 4", runAll(4), { warmup: 1, runs: 7 });
	transport.close();
	await server.close();
	if (inFlight[1] !== 1 || inFlight[4] !== 4) throw new Error(`the server held ${inFlight[1]} (serial) and ${inFlight[4]} (parallel = 4) requests at once: nothing measured`);

	const speedup = serial.median / four.median;
	console.log(`${BLOCKS} independent GETs, ${LATENCY_MS} ms each on the server; median of ${serial.runs} runs`);
	for (const m of [serial, four]) console.log(`${m.name.padEnd(24)} median ${m.median.toFixed(1).padStart(7)} ms  min ${m.min.toFixed(1).padStart(7)} ms  in flight at once ${m === serial ? inFlight[1] : inFlight[4]}`);
	console.log(`speed-up ${speedup.toFixed(2)}× (ideal ${(BLOCKS / Math.ceil(BLOCKS / 4)).toFixed(0)}× minus the runner's own time)`);
	report("parallel", {
		figure: `run all, ${BLOCKS} independent GETs at ${LATENCY_MS} ms: parallel = 4 vs 1`,
		value: `${four.median.toFixed(0)} ms`,
		baseline: `${serial.median.toFixed(0)} ms`,
		result: `${speedup.toFixed(2)}×`,
		target: "≥ 2.5×",
		met: speedup >= 2.5,
	});
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
