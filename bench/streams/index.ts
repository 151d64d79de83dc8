/**
 * bench/streams — WebSocket messages per second through the CLI (issue 25): `dist/cli.js run` of
 * a websocket block that receives N small messages from a local `ws` server, against a bare `ws`
 * client process receiving the same, alternated in the same run. Each rate is timed by the server,
 * from the client's "go" to the close handshake's end (the client answers the close only after
 * handling every message before it), so process start-up is not in it. Target: ≥ 0.8× the bare
 * client's rate. Usage: node bench/run.mjs streams [rounds] [messages]
 */
import { execFile } from "node:child_process";
import * as http from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { WebSocketServer as WsServer } from "ws";
import { report } from "../support/report";

const ROUNDS = Number(process.argv[2] ?? 3);
const MESSAGES = Number(process.argv[3] ?? 100_000);
const ROOT = process.cwd();
const run = promisify(execFile);

/** The bare client: sends "go N", counts the messages, exits when the server has closed. */
const BARE = `
const WebSocket = require("ws");
const socket = new WebSocket(process.argv[1]);
let n = 0;
socket.on("open", () => socket.send("go " + process.argv[2]));
socket.on("message", () => n++);
socket.on("close", () => { if (n !== Number(process.argv[2])) { console.error("got " + n); process.exit(1); } });
`;

/** A `ws` server: "go N" sends N ticker-like messages as fast as the socket takes them, then closes (1000); each finished pass's milliseconds go to `done`. */
function startWs(server: http.Server, done: (ms: number) => void): WsServer {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a benchmark's own dependency, loaded where it runs
	const { WebSocketServer } = require("ws") as typeof import("ws");
	const wss = new WebSocketServer({ server, path: "/ws" });
	wss.on("connection", (socket) => {
		let started = 0n;
		socket.on("message", (raw: Buffer) => {
			const n = Number(/^go (\d+)$/.exec(raw.toString("utf8"))?.[1] ?? 0);
			started = process.hrtime.bigint();
			for (let i = 0; i < n; i++) socket.send(JSON.stringify({ seq: i, symbol: "RB", price: 100 + (i % 97) / 10, side: i % 2 ? "buy" : "sell" }));
			socket.close(1000, "done");
		});
		socket.on("close", () => done(Number(process.hrtime.bigint() - started) / 1e6));
	});
	return wss;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
	let finished: (ms: number) => void = () => undefined;
	const server = http.createServer();
	const wss = startWs(server, (ms) => finished(ms));
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
	const dir = mkdtempSync(join(tmpdir(), "rb-bench-streams-"));
	writeFileSync(join(dir, "stream.md"), ["```http", "# @name feed", `WEBSOCKET ${url}`, "", `go ${MESSAGES}`, "```", ""].join("\n"));
	const env = { ...process.env, NODE_PATH: join(ROOT, "node_modules"), NO_COLOR: "1" };
	/** One pass of a client process: the server's time for it. */
	const pass = async (args: string[]): Promise<number> => {
		const timed = new Promise<number>((r) => (finished = r));
		await run(process.execPath, args, { cwd: dir, env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
		return timed;
	};
	const cli: number[] = [];
	const bare: number[] = [];
	try {
		for (let round = 0; round < ROUNDS; round++) {
			bare.push(await pass(["-e", BARE, url, String(MESSAGES)]));
			cli.push(await pass([join(ROOT, "bin", "runnable-blocks.js"), "run", "stream.md"]));
			console.log(`round ${round + 1}: cli ${cli[round].toFixed(0)} ms, bare ws ${bare[round].toFixed(0)} ms`);
		}
	} finally {
		wss.close();
		server.close();
		rmSync(dir, { recursive: true, force: true });
	}
	const cliRate = MESSAGES / (median(cli) / 1000);
	const bareRate = MESSAGES / (median(bare) / 1000);
	const ratio = cliRate / bareRate;
	console.log(`${MESSAGES} messages: cli ${cliRate.toFixed(0)} msg/s, bare ws ${bareRate.toFixed(0)} msg/s, ${ratio.toFixed(2)}× (target ≥ 0.8×)`);
	report("streams", { figure: `${MESSAGES.toLocaleString("en")} WebSocket messages: rate through the CLI`, value: `${cliRate.toFixed(0)} msg/s`, baseline: `bare ws client ${bareRate.toFixed(0)} msg/s`, result: `${ratio.toFixed(2)}×`, target: "≥ 0.8× (issue 25)", met: ratio >= 0.8 });
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
