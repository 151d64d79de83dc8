/**
 * bench/runner — the engine against baselines measured in the same run, on 127.0.0.1:
 *  (a) 500 sequential GETs of a 1 KB JSON body through the runner vs bare node:http (keep-alive both);
 *  (b) a 100 MB body streamed through the runner vs bare node:http that keeps the body as the
 *      runner must, in one buffer of the Content-Length: throughput and peak RSS increase ratios;
 *  (c) the whole CLI running a 200-block note (GET/POST/PUT/DELETE, some chained) vs the same
 *      requests from one `curl -K` process (keep-alive), on a server with TCP_NODELAY and on one
 *      without it (Nagle + delayed ACKs: the setup behind the issue's 5.8× curl), and the same
 *      requests from a bare node:http process (the floor for any Node client); with `httpyac`
 *      also vs `httpyac send --all` (installed on demand into bench/.cache, never a dependency);
 *  (d) the CLI's `parse` of a 5,000-block note beyond process startup (`--version`), per block.
 * Usage: node bench/run.mjs runner [a] [b] [c] [d] [httpyac]
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createNodeTransport } from "../../src/runner/http/node-transport";
import { generateNote } from "../support/notes";
import { report } from "../support/report";

const ROOT = resolve(__dirname, "..", "..");
const run = promisify(execFile);
const JSON_1K = Buffer.from(JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })) }).padEnd(1024, " "));
const BIG = 100 * 1024 * 1024;

async function startServer(noDelay = true): Promise<{ port: number; close(): Promise<void> }> {
	const chunk = Buffer.alloc(256 * 1024, 120);
	let nextId = 1;
	const server = http.createServer({ noDelay }, (req, res) => {
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
		if (req.method === "POST" || req.method === "PUT") {
			// Read the body, answer with an id a later block can reference.
			req.resume();
			return void req.on("end", () => {
				const body = Buffer.from(JSON.stringify({ id: nextId++, ok: true }));
				res.writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json", "Content-Length": String(body.length) });
				res.end(body);
			});
		}
		if (req.method === "DELETE") {
			res.writeHead(204);
			return void res.end();
		}
		res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(JSON_1K.length) });
		res.end(JSON_1K);
	});
	server.keepAliveTimeout = 30_000;
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

/** The headers the runner sends by default, so both sides put the same request on the wire. */
const SAME_HEADERS = { "User-Agent": "runnable-blocks/0.1", "Accept-Encoding": "gzip, deflate, br" };

/**
 * A GET with bare node:http. `oneBuffer`: the body goes into one buffer of the Content-Length as
 * it arrives (what the runner does, so the RSS baseline is fair); otherwise chunks joined at the end.
 */
function bareGet(agent: http.Agent, port: number, path: string, { oneBuffer = false, onData }: { oneBuffer?: boolean; onData?: (n: number) => void } = {}): Promise<number> {
	return new Promise((resolve, reject) => {
		http.get({ host: "127.0.0.1", port, path, agent, headers: SAME_HEADERS }, (res) => {
			const length = Number(res.headers["content-length"]);
			const buffer = oneBuffer && Number.isSafeInteger(length) ? Buffer.allocUnsafe(length) : null;
			const chunks: Buffer[] = [];
			let n = 0;
			res.on("data", (c: Buffer) => {
				if (buffer) c.copy(buffer, n);
				else chunks.push(c);
				n += c.length;
				onData?.(n);
			});
			res.on("end", () => resolve(buffer ? buffer.length : Buffer.concat(chunks).length));
			res.on("error", reject);
		}).on("error", reject);
	});
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchA(port: number): Promise<string> {
	const N = 500;
	const ROUNDS = 9;
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
	// Warm both paths, then alternate rounds so drift affects both alike; the ratio is the median
	// of the rounds' ratios (each pair ran side by side), times the median of each side.
	await runner();
	await bare();
	// Wall time, and CPU time of the process (client and server both run here, so a side's CPU
	// includes the server's share, the same for both): on a loaded machine the rounds' wall
	// ratios spread far wider than the gap, CPU far less.
	const t = { runner: [] as number[], bare: [] as number[], ratio: [] as number[], cpuRatio: [] as number[] };
	const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
	for (let round = 0; round < ROUNDS; round++) {
		let c0 = process.cpuUsage();
		let t0 = process.hrtime.bigint();
		await bare();
		const b = ms(t0);
		const bCpu = cpuMs(process.cpuUsage(c0));
		c0 = process.cpuUsage();
		t0 = process.hrtime.bigint();
		await runner();
		const r = ms(t0);
		const rCpu = cpuMs(process.cpuUsage(c0));
		t.bare.push(b);
		t.runner.push(r);
		t.ratio.push(r / b);
		t.cpuRatio.push(rCpu / bCpu);
	}
	transport.close();
	agent.destroy();
	const ratio = median(t.ratio);
	const cpuRatio = median(t.cpuRatio);
	report("runner", { figure: "(a) 500 sequential 1 KB GETs", value: `${median(t.runner).toFixed(0)} ms`, baseline: `bare node:http ${median(t.bare).toFixed(0)} ms`, result: `${ratio.toFixed(2)}× (CPU ${cpuRatio.toFixed(2)}×)`, target: "≤ 1.05×", met: ratio <= 1.05 });
	return `(a) 500 sequential GETs, 1 KB JSON: runner ${median(t.runner).toFixed(0)} ms, bare node:http ${median(t.bare).toFixed(0)} ms (medians of ${ROUNDS}) → ratio ${ratio.toFixed(2)} (median of the rounds' ratios, range ${Math.min(...t.ratio).toFixed(2)}–${Math.max(...t.ratio).toFixed(2)}; target ≤ 1.05); by CPU time ${cpuRatio.toFixed(2)} (range ${Math.min(...t.cpuRatio).toFixed(2)}–${Math.max(...t.cpuRatio).toFixed(2)})`;
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
	const runs = { runner: [] as Array<{ ms: number; rss: number }>, bare: [] as Array<{ ms: number; rss: number }> };
	for (let round = 0; round < 3; round++) {
		runs.bare.push(await peakDuring(async (sample) => {
			if ((await bareGet(agent, port, "/big", { oneBuffer: true, onData: () => sample() })) !== BIG) throw new Error("bare: short body");
		}));
		runs.runner.push(await peakDuring(async (sample) => {
			const o = await transport.send({ method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 120_000 }, { maxBodyBytes: BIG + 1, onChunk: () => sample() });
			if (o.kind !== "done" || o.body.byteLength !== BIG) throw new Error(`big body ended ${o.kind}`);
		}));
	}
	transport.close();
	agent.destroy();
	const m = (xs: Array<{ ms: number; rss: number }>, k: "ms" | "rss") => median(xs.map((x) => x[k]));
	const mbps = (t: number) => BIG / 1024 / 1024 / (t / 1000);
	const rssRatio = m(runs.runner, "rss") / m(runs.bare, "rss");
	const throughput = m(runs.bare, "ms") / m(runs.runner, "ms");
	report("runner", { figure: "(b) 100 MB body: peak RSS increase", value: `${(m(runs.runner, "rss") / BIG).toFixed(2)}× body`, baseline: `bare node:http, one buffer: ${(m(runs.bare, "rss") / BIG).toFixed(2)}× body`, result: `${rssRatio.toFixed(2)}×`, target: "≤ 1.2×", met: rssRatio <= 1.2 });
	report("runner", { figure: "(b) 100 MB body: throughput", value: `${mbps(m(runs.runner, "ms")).toFixed(0)} MB/s`, baseline: `bare node:http ${mbps(m(runs.bare, "ms")).toFixed(0)} MB/s`, result: `${throughput.toFixed(2)}×`, target: "≥ 0.7×", met: throughput >= 0.7 });
	return (
		`(b) 100 MB body (medians of 3): runner ${mbps(m(runs.runner, "ms")).toFixed(0)} MB/s, bare node:http ${mbps(m(runs.bare, "ms")).toFixed(0)} MB/s → throughput ratio ${throughput.toFixed(2)} (target ≥ 0.7); ` +
		`peak RSS increase ${(m(runs.runner, "rss") / BIG).toFixed(2)}× body vs bare with one buffer ${(m(runs.bare, "rss") / BIG).toFixed(2)}× → ${rssRatio.toFixed(2)} (target ≤ 1.2)`
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

/** Runs a command to its end; the server answering it runs in this process's event loop, hence async. */
async function timeCommand(cwd: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
	const t = process.hrtime.bigint();
	await run(cmd, args, { cwd, timeout: 300_000, maxBuffer: 64 * 1024 * 1024, env });
	return ms(t);
}

/** Runs the CLI to its end: wall time and the CPU time of its process (bench/support/cpu-at-exit.cjs). */
async function timeCli(cwd: string, args: string[], compileCache: string, env: NodeJS.ProcessEnv = process.env): Promise<{ wall: number; cpu: number }> {
	const cpuFile = join(cwd, ".cpu");
	const t = process.hrtime.bigint();
	await run(process.execPath, ["--require", join(ROOT, "bench", "support", "cpu-at-exit.cjs"), join(ROOT, "bin", "runnable-blocks.js"), ...args], {
		cwd,
		timeout: 300_000,
		maxBuffer: 64 * 1024 * 1024,
		env: { ...env, RB_CPU_FILE: cpuFile, RUNNABLE_BLOCKS_COMPILE_CACHE: compileCache },
	});
	const wall = ms(t);
	return { wall, cpu: Number(readFileSync(cpuFile, "utf8")) };
}

interface Request {
	method: "GET" | "POST" | "PUT" | "DELETE";
	path: string;
	body: string | null;
	/** The alias whose response id the path uses, for the note; curl gets the value the server will give. */
	chainedTo: string | null;
}

/**
 * 200 requests: each group of four creates an item (POST), reads it back through a reference to
 * the POST's id (GET, chained), updates it (PUT, chained) and deletes it (DELETE, chained); every
 * fifth group reads the 1 KB list instead of creating. The server numbers items 1, 2, … per run.
 */
function requests(): Request[] {
	const out: Request[] = [];
	let id = 0;
	for (let g = 0; out.length < 200; g++) {
		if (g % 5 === 4) {
			for (let k = 0; k < 4; k++) out.push({ method: "GET", path: `/json?g=${g}&k=${k}`, body: null, chainedTo: null });
			continue;
		}
		id++;
		const alias = `c${g}`;
		out.push({ method: "POST", path: "/items", body: `{"name": "item ${g}"}`, chainedTo: null });
		out.push({ method: "GET", path: `/items/${id}`, body: null, chainedTo: alias });
		out.push({ method: "PUT", path: `/items/${id}`, body: `{"name": "item ${g}", "done": true}`, chainedTo: alias });
		out.push({ method: "DELETE", path: `/items/${id}`, body: null, chainedTo: alias });
	}
	return out;
}

async function benchC(noDelay: boolean, withHttpyac: boolean): Promise<string> {
	const server = await startServer(noDelay);
	const base = `http://127.0.0.1:${server.port}`;
	const dir = mkdtempSync(join(tmpdir(), "rb-bench-c-"));
	try {
		mkdirSync(join(dir, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
		writeFileSync(join(dir, ".obsidian", "plugins", "runnable-blocks", "user.toml"), `[general]\nenvironment = "b"\n[environments.b]\nbase = "${base}"\n`);
		const md: string[] = ["# 200 blocks"];
		const httpFile: string[] = [`@base = ${base}`];
		const curl: string[] = [];
		requests().forEach((r, i) => {
			const alias = r.method === "POST" ? `c${/item (\d+)/.exec(r.body ?? "")?.[1]}` : `r${i}`;
			const path = r.chainedTo ? r.path.replace(/\/items\/\d+$/, `/items/{{${r.chainedTo}.response.body.$.id}}`) : r.path;
			const head = `${r.method} {{base}}${path}\nAccept: application/json${r.body ? "\nContent-Type: application/json" : ""}`;
			md.push(`\`\`\`http alias=${alias}\n${head}${r.body ? `\n\n${r.body}` : ""}\n\`\`\``);
			httpFile.push(`###\n# @name ${alias}\n${head.replace(/\{\{(c\d+)\.response\.body\.\$\.id\}\}/, "{{$1.id}}")}${r.body ? `\n\n${r.body}` : ""}\n`);
			// curl: the same requests, ids as the server will number them; `next` keeps one process
			// (and one keep-alive connection) for all of them.
			if (i > 0) curl.push("next");
			curl.push(`url = "${base}${r.path}"`, `request = "${r.method}"`, `header = "Accept: application/json"`, `output = "/dev/null"`, "silent");
			if (r.body) curl.push(`header = "Content-Type: application/json"`, `data = ${JSON.stringify(r.body)}`);
		});
		writeFileSync(join(dir, "note.md"), md.join("\n\n"));
		writeFileSync(join(dir, "note.http"), httpFile.join("\n"));
		writeFileSync(join(dir, "curl.cfg"), curl.join("\n") + "\n");
		writeFileSync(join(dir, "floor.cjs"), floorScript(base, requests()));
		// Every block must succeed (exit 0, or execFile rejects): a failed block would make the CLI look fast.
		// The check also writes the CLI's compile cache (bin/compile-cache.js), as a user's first run does.
		const compileCache = join(dir, "compile-cache");
		const check = await run(process.execPath, [join(ROOT, "bin", "runnable-blocks.js"), "run", "note.md", "--no-cache"], { cwd: dir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, RUNNABLE_BLOCKS_COMPILE_CACHE: compileCache } });
		if (!check.stdout.includes("200 done")) throw new Error(`the CLI did not run all 200 blocks: ${check.stdout.slice(-300)}`);
		const yac = withHttpyac ? httpyacBin() : null;
		// Seven rounds: three could not tell a 50 ms change from this machine's noise. Without TCP_NODELAY a run takes seconds: one shows it.
		const rounds = noDelay ? 7 : 1;
		// Node reads NODE_EXTRA_CA_CERTS' bundle as every process starts (some 65 ms on this machine, where it is set):
		// the CLI and the floor are also timed without it, which is how most users run Node.
		const noExtraCa = noDelay && process.env.NODE_EXTRA_CA_CERTS ? { ...process.env, NODE_EXTRA_CA_CERTS: undefined } : null;
		const t = { cli: [] as number[], cliCpu: [] as number[], uncached: [] as number[], curl: [] as number[], yac: [] as number[], floor: [] as number[], node: [] as number[], cliNoCa: [] as number[], floorNoCa: [] as number[], nodeNoCa: [] as number[] };
		for (let round = 0; round < rounds; round++) {
			t.curl.push(await timeCommand(dir, "curl", ["-K", "curl.cfg"]));
			t.node.push(await timeCommand(dir, process.execPath, ["-e", "0"]));
			t.floor.push(await timeCommand(dir, process.execPath, ["floor.cjs"]));
			if (noExtraCa) {
				t.nodeNoCa.push(await timeCommand(dir, process.execPath, ["-e", "0"], noExtraCa));
				t.floorNoCa.push(await timeCommand(dir, process.execPath, ["floor.cjs"], noExtraCa));
				t.cliNoCa.push((await timeCli(dir, ["run", "note.md", "--no-cache"], compileCache, noExtraCa)).wall);
			}
			const c = await timeCli(dir, ["run", "note.md", "--no-cache"], compileCache);
			t.cli.push(c.wall);
			t.cliCpu.push(c.cpu);
			t.uncached.push((await timeCli(dir, ["run", "note.md", "--no-cache"], "off")).wall);
			if (yac) t.yac.push(await timeCommand(dir, yac, ["send", "note.http", "--all", "--output", "none"]));
		}
		const ratio = median(t.cli) / median(t.curl);
		const server_ = noDelay ? "TCP_NODELAY server" : "server without TCP_NODELAY";
		const floor = median(t.floor) / median(t.curl);
		const uncached = `without its compile cache ${median(t.uncached).toFixed(0)} ms (${(median(t.uncached) / median(t.curl)).toFixed(2)}× curl)`;
		const nodeStart = `; node -e 0 ${median(t.node).toFixed(0)} ms`;
		report("runner", { figure: `(c) CLI, 200-block note, ${server_}`, value: `${median(t.cli).toFixed(0)} ms; ${uncached}`, baseline: `curl -K ${median(t.curl).toFixed(0)} ms; bare node:http process ${median(t.floor).toFixed(0)} ms (${floor.toFixed(2)}× curl)${nodeStart}${yac ? `; httpyac ${median(t.yac).toFixed(0)} ms` : ""}`, result: `${ratio.toFixed(2)}× curl, ${(median(t.cli) / median(t.floor)).toFixed(2)}× bare node`, target: noDelay ? "≤ 3×" : "(shows the setup)", met: noDelay ? ratio <= 3 : null });
		const noCa = noExtraCa ? { cli: median(t.cliNoCa), floor: median(t.floorNoCa), node: median(t.nodeNoCa) } : null;
		if (noCa) {
			const r = noCa.cli / median(t.curl);
			report("runner", { figure: `(c) CLI, 200-block note, ${server_}, NODE_EXTRA_CA_CERTS unset`, value: `${noCa.cli.toFixed(0)} ms`, baseline: `curl -K ${median(t.curl).toFixed(0)} ms; bare node:http process ${noCa.floor.toFixed(0)} ms (${(noCa.floor / median(t.curl)).toFixed(2)}× curl); node -e 0 ${noCa.node.toFixed(0)} ms`, result: `${r.toFixed(2)}× curl, ${(noCa.cli / noCa.floor).toFixed(2)}× bare node`, target: "≤ 3×", met: r <= 3 });
		}
		return (
			`(c) CLI on a 200-block note (GET/POST/PUT/DELETE, chained), ${server_}, medians of ${rounds}: runnable-blocks ${median(t.cli).toFixed(0)} ms, ${uncached}, curl -K ${median(t.curl).toFixed(0)} ms → ${ratio.toFixed(2)}× curl (target ≤ 3; the CLI's own CPU time ${median(t.cliCpu).toFixed(0)} ms); ` +
			`the floor for any Node client, a bare node:http process sending the same 200 requests, ${median(t.floor).toFixed(0)} ms (${floor.toFixed(2)}× curl) → the CLI is ${(median(t.cli) / median(t.floor)).toFixed(2)}× it` +
			`; Node's own start (node -e 0) ${median(t.node).toFixed(0)} ms` +
			(noCa ? `; with NODE_EXTRA_CA_CERTS unset: the CLI ${noCa.cli.toFixed(0)} ms (${(noCa.cli / median(t.curl)).toFixed(2)}× curl), the floor ${noCa.floor.toFixed(0)} ms, node -e 0 ${noCa.node.toFixed(0)} ms` : "") +
			(yac ? `; httpyac send --all ${median(t.yac).toFixed(0)} ms → ${(median(t.cli) / median(t.yac)).toFixed(2)}× httpyac` : "")
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
		await server.close();
	}
}

/**
 * The floor of (c) for any Node client: a fresh `node` process sending the same 200 requests,
 * in order, with bare node:http and one keep-alive agent (what the CLI does, without the CLI).
 * The ids are the server's numbering, as curl's are.
 */
function floorScript(base: string, reqs: Request[]): string {
	const list = reqs.map((r) => [r.method, r.path, r.body]);
	return `const http = require("node:http");
const agent = new http.Agent({ keepAlive: true });
const base = new URL(${JSON.stringify(base)});
const reqs = ${JSON.stringify(list)};
const one = ([method, path, body]) => new Promise((resolve, reject) => {
	const headers = { Accept: "application/json", ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}) };
	const q = http.request({ host: base.hostname, port: base.port, path, method, agent, headers }, (res) => {
		const chunks = [];
		res.on("data", (c) => chunks.push(c));
		res.on("end", () => (res.statusCode < 400 ? resolve(Buffer.concat(chunks)) : reject(new Error(method + " " + path + " " + res.statusCode))));
	});
	q.on("error", reject);
	q.end(body ?? undefined);
});
(async () => {
	for (const r of reqs) await one(r);
	agent.destroy();
})().catch((e) => {
	console.error(e);
	process.exit(1);
});
`;
}

/**
 * (d) `runnable-blocks parse` of a 5,000-block note beyond process startup (`--version`), per
 * block: by CPU time of the process (the figure; medians of 5, alternated) and by wall time.
 */
async function benchD(): Promise<string> {
	const BLOCKS = 5000;
	const dir = mkdtempSync(join(tmpdir(), "rb-bench-d-"));
	try {
		writeFileSync(join(dir, "note.md"), generateNote(BLOCKS));
		const t = { parse: [] as Array<{ wall: number; cpu: number }>, start: [] as Array<{ wall: number; cpu: number }> };
		// Both commands with their compile caches written, as after a user's first run.
		const compileCache = join(dir, "compile-cache");
		for (const args of [["--version"], ["parse", "note.md"]]) await timeCli(dir, args, compileCache);
		for (let round = 0; round < 5; round++) {
			t.start.push(await timeCli(dir, ["--version"], compileCache));
			t.parse.push(await timeCli(dir, ["parse", "note.md"], compileCache));
		}
		const m = (xs: Array<{ wall: number; cpu: number }>, k: "wall" | "cpu") => median(xs.map((x) => x[k]));
		const perBlock = (k: "wall" | "cpu") => ((m(t.parse, k) - m(t.start, k)) * 1000) / BLOCKS;
		report("runner", { figure: "(d) CLI parse, 5,000-block note (CPU time)", value: `${m(t.parse, "cpu").toFixed(0)} ms`, baseline: `startup (--version) ${m(t.start, "cpu").toFixed(0)} ms`, result: `${perBlock("cpu").toFixed(1)} µs per block`, target: "≤ 10 µs per block", met: perBlock("cpu") <= 10 });
		return (
			`(d) CLI parse of a ${BLOCKS}-block note, CPU time: ${m(t.parse, "cpu").toFixed(0)} ms, startup (--version) ${m(t.start, "cpu").toFixed(0)} ms → ${perBlock("cpu").toFixed(1)} µs per block beyond startup (target ≤ 10); ` +
			`wall: ${m(t.parse, "wall").toFixed(0)} ms vs ${m(t.start, "wall").toFixed(0)} ms → ${perBlock("wall").toFixed(1)} µs per block`
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const withHttpyac = args.includes("httpyac");
	const parts = args.filter((a) => a !== "httpyac");
	const which = new Set(parts.length ? parts : ["a", "b", "c", "d"]);
	if (!existsSync(join(ROOT, "dist", "cli.js"))) throw new Error("build first: npm run build");
	const server = await startServer();
	try {
		if (which.has("a")) console.log(await benchA(server.port));
		if (which.has("b")) console.log(await benchB(server.port));
	} finally {
		await server.close();
	}
	if (which.has("c")) {
		console.log(await benchC(true, withHttpyac));
		console.log(await benchC(false, withHttpyac));
	}
	if (which.has("d")) console.log(await benchD());
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
