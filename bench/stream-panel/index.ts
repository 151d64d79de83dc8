/**
 * bench/stream-panel — 100,000 WebSocket messages through the stream panel in Chromium (issue 25):
 * messages per second from the socket's open until the last one is placed and drawn, and the
 * longest main-thread task meanwhile, against a bare WebSocket client in the same page and run
 * that only counts them (the floor: what Chromium's socket costs by itself). Both read the same
 * local `ws` server, which sends small JSON messages as fast as it can. Targets: ≥ 0.8× the bare
 * client's rate; no task over 50 ms. Each pass starts after a full GC (Chromium runs with
 * --expose-gc), so it is not charged for the previous pass's garbage (bench/README.md).
 * Usage: node bench/run.mjs stream-panel [rounds]
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";
import type { WebSocketServer as WsServer } from "ws";
import type { PassFigures } from "./page";
import { report } from "../support/report";

const ROUNDS = Number(process.argv[2] ?? 3);
const MESSAGES = 100_000;
const ROOT = process.cwd();

/** The page's bundle: the panel's modules with `obsidian` as the browser host's shim. */
async function bundlePage(): Promise<string> {
	const out = await esbuild.build({
		entryPoints: [join(ROOT, "bench", "stream-panel", "page.ts")],
		bundle: true,
		format: "iife",
		platform: "browser",
		target: "es2021",
		write: false,
		alias: { obsidian: join(ROOT, "tests", "e2e", "host", "obsidian-shim.ts") },
		logLevel: "error",
	});
	return out.outputFiles[0].text;
}

/** A `ws` server: "go N" makes it send N messages like a ticker feed's, as fast as the socket takes them. */
function startWs(server: http.Server): WsServer {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a benchmark's own dependency, loaded where it runs
	const { WebSocketServer } = require("ws") as typeof import("ws");
	const wss = new WebSocketServer({ server, path: "/ws" });
	wss.on("connection", (socket) => {
		socket.on("message", (raw: Buffer) => {
			const n = Number(/^go (\d+)$/.exec(raw.toString("utf8"))?.[1] ?? 0);
			for (let i = 0; i < n; i++) socket.send(JSON.stringify({ seq: i, symbol: "RB", price: 100 + (i % 97) / 10, side: i % 2 ? "buy" : "sell" }));
		});
	});
	return wss;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (p: PassFigures) => MESSAGES / (p.ms / 1000);
const ms = (n: number) => (n === 0 ? "none over 50 ms" : `${n.toFixed(0)} ms`);

async function main(): Promise<void> {
	const page = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/themes.css"><link rel="stylesheet" href="/styles.css"></head><body class="theme-light"><script src="/page.js"></script></body></html>`;
	const files: Record<string, [string, string]> = {
		"/": [page, "text/html"],
		"/page.js": [await bundlePage(), "text/javascript"],
		"/styles.css": [readFileSync(join(ROOT, "styles.css"), "utf8"), "text/css"],
		"/themes.css": [readFileSync(join(ROOT, "tests", "e2e", "host", "themes.css"), "utf8"), "text/css"],
	};
	const server = http.createServer((req, res) => {
		const file = files[req.url ?? ""];
		res.writeHead(file ? 200 : 404, file ? { "Content-Type": file[1] } : {});
		res.end(file?.[0]);
	});
	const wss = startWs(server);
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const port = (server.address() as AddressInfo).port;
	const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--js-flags=--expose-gc"] });
	try {
		const tab = await browser.newPage({ viewport: { width: 900, height: 700 } });
		await tab.goto(`http://127.0.0.1:${port}/`);
		const url = `ws://127.0.0.1:${port}/ws`;
		type Bench = { __bench: Record<"bare" | "panel", (url: string, n: number) => Promise<PassFigures>> };
		const run = (kind: "bare" | "panel") => tab.evaluate(([k, u, n]) => (window as unknown as Bench).__bench[k](u, n), [kind, url, MESSAGES] as const);
		const bare: PassFigures[] = [];
		const panel: PassFigures[] = [];
		// Alternated, so a drift in the machine's load hits both.
		for (let i = 0; i < ROUNDS; i++) {
			bare.push(await run("bare"));
			panel.push(await run("panel"));
		}
		const inDom = Math.max(...panel.map((p) => p.messagesInDom));
		if (inDom === 0 || inDom > 200) throw new Error(`the panel kept ${inDom} messages in the DOM: nothing drawn, or not virtual`);
		const bareRate = median(bare.map(rate));
		const panelRate = median(panel.map(rate));
		const longest = median(panel.map((p) => p.longestTaskMs));
		const floorLongest = median(bare.map((p) => p.longestTaskMs));
		const worst = { panel: Math.max(...panel.map((p) => p.longestTaskMs)), bare: Math.max(...bare.map((p) => p.longestTaskMs)) };
		const ratio = panelRate / bareRate;
		console.log(`100,000 messages: panel ${panelRate.toFixed(0)} msg/s, bare WebSocket ${bareRate.toFixed(0)} msg/s (${ratio.toFixed(2)}×), median of ${ROUNDS}`);
		console.log(`longest task while they arrive: panel ${ms(longest)} (worst of ${ROUNDS}: ${ms(worst.panel)}), bare ${ms(floorLongest)} (worst ${ms(worst.bare)}); ${inDom} messages in the DOM at the end`);
		report("stream-panel", { figure: "100,000 WebSocket messages: rate through the panel", value: `${panelRate.toFixed(0)} msg/s`, baseline: `bare WebSocket ${bareRate.toFixed(0)} msg/s`, result: `${ratio.toFixed(2)}×`, target: "≥ 0.8× (issue 25)", met: ratio >= 0.8 });
		report("stream-panel", { figure: "100,000 WebSocket messages: longest main-thread task", value: ms(longest), baseline: `bare ${ms(floorLongest)} (worst of ${ROUNDS}: ${ms(worst.bare)})`, result: `${ms(longest)} (worst of ${ROUNDS}: ${ms(worst.panel)})`, target: "≤ 50 ms (issue 25)", met: longest <= 50 });
	} finally {
		await browser.close();
		wss.close();
		await new Promise((r) => server.close(r));
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
