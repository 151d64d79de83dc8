/**
 * bench/runner — the engine against baselines measured in the same run, on 127.0.0.1:
 *  (a) 500 sequential GETs of a 1 KB JSON body through the runner vs bare node:http (keep-alive both);
 *  (b) a 100 MB body streamed through the runner vs bare node:http: throughput ratio and peak RSS
 *      increase as a multiple of the body size;
 *  (c) the whole CLI running a 200-block note vs `httpyac send --all` on the equivalent .http file
 *      (httpyac is installed on demand into bench/.cache, never a dependency).
 * Usage: node bench/run.mjs runner [a] [b] [c]
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createNodeTransport } from "../../src/runner/http/node-transport";

const ROOT = resolve(__dirname, "..", "..");
const run = promisify(execFile);
const JSON_1K = Buffer.from(JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })) }).padEnd(1024, " "));
const BIG = 100 * 1024 * 1024;

async function startServer(): Promise<{ port: number; close(): Promise<void> }> {
	const chunk = Buffer.alloc(256 * 1024, 120);
	const server = http.createServer((req, res) => {
		if (req.url?.startsWith("/big")) {
			res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(BIG) });
			let sent = 0;
			const pump = () => {
				while (sent < BIG) {
					const n = Math.min(chunk.length, BIG - sent);
					sent += n;
					if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once("drain", pump);
				}
				res.end();
			};
			return pump();
		}
		res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(JSON_1K.length) });
		res.end(JSON_1K);
	});
	server.keepAliveTimeout = 10_000;
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

/** The headers the runner sends by default, so both sides put the same request on the wire. */
const SAME_HEADERS = { "User-Agent": "runnable-blocks/0.1", "Accept-Encoding": "gzip, deflate, br" };

function bareGet(agent: http.Agent, port: number, path: string, onData?: (n: number) => void): Promise<number> {
	return new Promise((resolve, reject) => {
		http.get({ host: "127.0.0.1", port, path, agent, headers: SAME_HEADERS }, (res) => {
			const chunks: Buffer[] = [];
			let n = 0;
			res.on("data", (c: Buffer) => {
				chunks.push(c);
				n += c.length;
				onData?.(n);
			});
			res.on("end", () => resolve(Buffer.concat(chunks).length));
			res.on("error", reject);
		}).on("error", reject);
	});
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function benchA(port: number): Promise<string> {
	const N = 500;
	const transport = createNodeTransport();
	const agent = new http.Agent({ keepAlive: true });
	const url = `http://127.0.0.1:${port}/json`;
	const runner = async () => {
		for (let i = 0; i < N; i++) {
			const o = await transport.send({ method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 10_000 });
			if (o.kind !== "done") throw new Error(`run ${i} ended ${o.kind}`);
		}
	};
	const bare = async () => {
		for (let i = 0; i < N; i++) await bareGet(agent, port, "/json");
	};
	// Warm both paths, then alternate rounds so drift affects both alike; best of 5 each.
	await runner();
	await bare();
	const times = { runner: Infinity, bare: Infinity };
	for (let round = 0; round < 5; round++) {
		let t = process.hrtime.bigint();
		await bare();
		times.bare = Math.min(times.bare, ms(t));
		t = process.hrtime.bigint();
		await runner();
		times.runner = Math.min(times.runner, ms(t));
	}
	transport.close();
	agent.destroy();
	return `(a) 500 sequential GETs, 1 KB JSON: runner ${times.runner.toFixed(0)} ms, bare node:http ${times.bare.toFixed(0)} ms → ratio ${(times.runner / times.bare).toFixed(2)} (target ≤ 1.2)`;
}

async function benchB(port: number): Promise<string> {
	const transport = createNodeTransport();
	const agent = new http.Agent({ keepAlive: true });
	const url = `http://127.0.0.1:${port}/big`;
	const peakDuring = async (fn: (sample: () => void) => Promise<void>): Promise<{ ms: number; rss: number }> => {
		global.gc?.();
		await new Promise((r) => setTimeout(r, 100));
		const base = process.memoryUsage().rss;
		let peak = base;
		const sample = () => {
			const r = process.memoryUsage().rss;
			if (r > peak) peak = r;
		};
		const timer = setInterval(sample, 5);
		const t = process.hrtime.bigint();
		await fn(sample);
		const took = ms(t);
		clearInterval(timer);
		sample();
		return { ms: took, rss: peak - base };
	};
	const runs = { runner: { ms: Infinity, rss: 0 }, bare: { ms: Infinity, rss: 0 } };
	for (let round = 0; round < 3; round++) {
		const bare = await peakDuring(async (sample) => {
			await bareGet(agent, port, "/big", () => sample());
		});
		const runner = await peakDuring(async (sample) => {
			const o = await transport.send({ method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 120_000 }, { maxBodyBytes: BIG + 1, onChunk: () => sample() });
			if (o.kind !== "done" || o.body.byteLength !== BIG) throw new Error(`big body ended ${o.kind}`);
		});
		if (bare.ms < runs.bare.ms) runs.bare = bare;
		if (runner.ms < runs.runner.ms) runs.runner = runner;
	}
	transport.close();
	agent.destroy();
	const mbps = (t: number) => BIG / 1024 / 1024 / (t / 1000);
	return (
		`(b) 100 MB body: runner ${mbps(runs.runner.ms).toFixed(0)} MB/s, bare node:http ${mbps(runs.bare.ms).toFixed(0)} MB/s → throughput ratio ${(runs.bare.ms / runs.runner.ms).toFixed(2)} (target ≥ 0.7); ` +
		`peak RSS increase ${(runs.runner.rss / BIG).toFixed(2)}× body (bare ${(runs.bare.rss / BIG).toFixed(2)}×; target ≤ 1.5)`
	);
}

/** Installs httpyac into bench/.cache on first use (a benchmark tool, not a project dependency). */
function httpyacBin(): string {
	const dir = join(ROOT, "bench", ".cache", "httpyac");
	const bin = join(dir, "node_modules", ".bin", "httpyac");
	if (!existsSync(bin)) {
		mkdirSync(dir, { recursive: true });
		process.stderr.write("installing httpyac into bench/.cache (first run only)…\n");
		execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "httpyac@6"], { stdio: "inherit" });
	}
	return bin;
}

async function benchC(port: number): Promise<string> {
	const N = 200;
	const dir = mkdtempSync(join(tmpdir(), "rb-bench-c-"));
	try {
		mkdirSync(join(dir, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
		writeFileSync(join(dir, ".obsidian", "plugins", "runnable-blocks", "user.toml"), `[general]\nenvironment = "b"\n[environments.b]\nbase = "http://127.0.0.1:${port}"\n`);
		const md: string[] = ["# 200 blocks"];
		const httpFile: string[] = [`@base = http://127.0.0.1:${port}`];
		for (let i = 0; i < N; i++) {
			md.push(`\`\`\`http alias=r${i}\nGET {{base}}/json?i=${i}\nAccept: application/json\n\`\`\``);
			httpFile.push(`###\n# @name r${i}\nGET {{base}}/json?i=${i}\nAccept: application/json\n`);
		}
		writeFileSync(join(dir, "note.md"), md.join("\n\n"));
		writeFileSync(join(dir, "note.http"), httpFile.join("\n"));
		const cli = join(ROOT, "bin", "runnable-blocks.js");
		const yac = httpyacBin();
		// Asynchronous: the server answering both tools runs in this process's event loop.
		const time = async (cmd: string, args: string[]): Promise<number> => {
			const t = process.hrtime.bigint();
			await run(cmd, args, { cwd: dir, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
			return ms(t);
		};
		const best = { cli: Infinity, yac: Infinity };
		for (let round = 0; round < 3; round++) {
			best.yac = Math.min(best.yac, await time(yac, ["send", "note.http", "--all", "--output", "none"]));
			best.cli = Math.min(best.cli, await time(process.execPath, [cli, "run", "note.md", "--no-cache"]));
		}
		return `(c) CLI on a 200-block note: runnable-blocks ${best.cli.toFixed(0)} ms, httpyac send --all ${best.yac.toFixed(0)} ms → ratio ${(best.cli / best.yac).toFixed(2)} (target < 1.0)`;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const which = new Set(process.argv.slice(2).length ? process.argv.slice(2) : ["a", "b", "c"]);
	if (!existsSync(join(ROOT, "dist", "cli.js"))) throw new Error("build first: npm run build");
	const server = await startServer();
	try {
		if (which.has("a")) console.log(await benchA(server.port));
		if (which.has("b")) console.log(await benchB(server.port));
		if (which.has("c")) console.log(await benchC(server.port));
	} finally {
		await server.close();
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
