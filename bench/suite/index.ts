/**
 * bench/suite — a vault run as a suite (issue 30): `runnable-blocks run notes --parallel N` for
 * N = 1, 2 and 4 against the serial run (`--parallel 1` is the serial run: one note after another,
 * as a loop over `run <note>` in one process would go), on a local server that answers every
 * request after 50 ms, as a remote API would. Wall time of the whole CLI process, median of the
 * rounds, the passes alternated in each round. Proves it measured: the server must see every
 * block's request once per pass. Target: ≥ 2.5× faster with 4. Usage: node bench/run.mjs suite [rounds] [notes]
 */
import { execFile } from "node:child_process";
import * as http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { report } from "../support/report";

const ROUNDS = Number(process.argv[2] ?? 3);
const NOTES = Number(process.argv[3] ?? 24);
const BLOCKS = 5;
const LATENCY_MS = 50;
const ROOT = process.cwd();
const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
	let requests = 0;
	const server = http.createServer((_req, res) => {
		requests++;
		setTimeout(() => {
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end('{"ok":true}');
		}, LATENCY_MS);
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const dir = mkdtempSync(join(tmpdir(), "rb-bench-suite-"));
	mkdirSync(join(dir, "notes"));
	for (let n = 0; n < NOTES; n++) {
		const blocks = Array.from({ length: BLOCKS }, (_, b) => `\`\`\`http alias=b${b}\nGET ${base}/n${n}/b${b}\n?? status == 200\n\`\`\``);
		writeFileSync(join(dir, "notes", `note-${String(n).padStart(2, "0")}.md`), blocks.join("\n\n") + "\n");
	}
	const levels = [1, 2, 4];
	const times = new Map<number, number[]>(levels.map((p) => [p, []]));
	try {
		for (let round = 0; round < ROUNDS; round++) {
			for (const parallel of levels) {
				requests = 0;
				const started = process.hrtime.bigint();
				await run(process.execPath, [join(ROOT, "bin", "runnable-blocks.js"), "run", "notes", "--parallel", String(parallel)], { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, timeout: 300_000 });
				times.get(parallel)?.push(Number(process.hrtime.bigint() - started) / 1e6);
				if (requests !== NOTES * BLOCKS) throw new Error(`--parallel ${parallel}: the server saw ${requests} requests, not ${NOTES * BLOCKS}`);
			}
			console.log(`round ${round + 1}: ${levels.map((p) => `--parallel ${p} ${(times.get(p)?.[round] ?? 0).toFixed(0)} ms`).join(", ")}`);
		}
	} finally {
		server.close();
		rmSync(dir, { recursive: true, force: true });
	}
	const serial = median(times.get(1) ?? []);
	const floor = (NOTES * BLOCKS * LATENCY_MS) / 1000;
	console.log(`${NOTES} notes × ${BLOCKS} blocks, ${LATENCY_MS} ms a request (serial floor ${floor.toFixed(1)} s):`);
	for (const p of levels) {
		const t = median(times.get(p) ?? []);
		const speedup = serial / t;
		console.log(`  --parallel ${p}: ${(t / 1000).toFixed(2)} s, ${speedup.toFixed(2)}× the serial run`);
		if (p > 1) report("suite", { figure: `${NOTES} notes × ${BLOCKS} blocks at ${LATENCY_MS} ms latency: --parallel ${p}`, value: `${(t / 1000).toFixed(2)} s`, baseline: `serial ${(serial / 1000).toFixed(2)} s`, result: `${speedup.toFixed(2)}×`, target: p === 4 ? "≥ 2.5× (issue 30)" : "—", met: p === 4 ? speedup >= 2.5 : null });
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
