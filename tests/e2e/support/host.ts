/**
 * Launches the browser test bed: a static server on 127.0.0.1 (host page, its bundle, the
 * production main.js and styles.css, plus a small API for the blocks to call, same origin)
 * and Debian's Chromium driven by playwright-core.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve, sep } from "node:path";
import * as esbuild from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { hostCalls, type HostCalls } from "./host-api";
import { handleBridge, whenBridgeIdle } from "./git-bridge";

/** The repository root: the nearest folder up from here with our package.json (also when bundled into bench/.cache). */
function repoRoot(): string {
	let dir = __dirname;
	while (!(existsSync(join(dir, "package.json")) && readFileSync(join(dir, "package.json"), "utf8").includes('"name": "runnable-blocks"'))) {
		const parent = resolve(dir, "..");
		if (parent === dir) throw new Error("cannot find the repository root");
		dir = parent;
	}
	return dir;
}

const ROOT = repoRoot();

/** The test bed; `api` and `until` call the page's `window.__host` (support/host-api.ts). */
export interface Host extends HostCalls {
	url: string;
	page: Page;
	/** Requests the API answered, by path. */
	hits: string[];
	/** The vault folder on disk: the host's adapter writes every file through to it. */
	vaultDir: string;
	/** Held responses (/api/drip) whose client hung up before the body ended. */
	closedEarly: string[];
	/** From now on, API answers wait until releaseAnswers (a test or script decides when a response arrives). */
	holdAnswers(): void;
	releaseAnswers(): void;
	close(): Promise<void>;
}

async function bundleHost(): Promise<string> {
	const result = await esbuild.build({
		entryPoints: [join(ROOT, "tests", "e2e", "host", "host.ts")],
		bundle: true,
		format: "iife",
		platform: "browser",
		target: "es2021",
		write: false,
		logLevel: "error",
	});
	return result.outputFiles[0].text;
}

/**
 * Hostile responses: every way markup could run script, navigate or fetch if it were ever
 * turned into live DOM. A request to /evil/* means it was.
 */
const XSS = [
	'<script>window.__pwned = "script"</script>',
	'<img src="/evil/img" onerror="window.__pwned = \'onerror\'">',
	'<a href="javascript:window.__pwned = \'js-url\'" id="xss-link">click</a>',
	'<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = \'svg\'"><image href="/evil/svg-image"/></svg>',
	'<meta http-equiv="refresh" content="0;url=/evil/refresh">',
	'<style>body { background: url("/evil/css"); }</style><div style="background:url(/evil/inline-css)">x</div>',
	'<iframe src="/evil/iframe"></iframe><object data="/evil/object"></object>',
].join("\n");
const XSS_TYPES: Record<string, string> = { html: "text/html", svg: "image/svg+xml", xml: "application/xml", json: "application/json" };

let bigJson: Buffer | null = null;

/** A realistic large JSON document (compact, as APIs send it) of about `mb` megabytes. */
export function bigJsonBody(mb: number): Buffer {
	if (bigJson && bigJson.length >= mb * 1024 * 1024) return bigJson;
	const items: string[] = [];
	let size = 0;
	for (let i = 0; size < mb * 1024 * 1024; i++) {
		const item = JSON.stringify({ id: i, title: `Book ${i}`, author: { name: `Author ${i % 977}`, born: 1900 + (i % 120) }, tags: ["sf", "classic", `t${i % 13}`], price: (i % 5000) / 100, available: i % 3 === 0 });
		items.push(item);
		size += item.length + 1;
	}
	bigJson = Buffer.from(`{"count":${items.length},"items":[${items.join(",")}]}`);
	return bigJson;
}

/**
 * Responses whose body is held back: /api/drip sends the status, headers and a first chunk,
 * then waits until the test calls /api/release (no timing guesses). Closed connections are
 * recorded, so a test can see that cancel really hung up.
 */
const held: http.ServerResponse[] = [];
const closedEarly: string[] = [];

/** While the host holds answers (Host.holdAnswers), API answers wait here for Host.releaseAnswers. */
const gate = { on: false, waiting: [] as Array<() => void> };

/** The body of /api/ten-mb.json, built once. */
let tenMb: Buffer | null = null;

/** Calls of /api/counter so far. */
let counter = 0;

/** The API the test notes call: JSON, a body that arrives late, and the XSS corpus. */
function api(path: string, res: http.ServerResponse): boolean {
	if (gate.on && path.startsWith("/api/")) {
		gate.waiting.push(() => {
			if (!res.destroyed && !api(path, res)) {
				res.writeHead(404);
				res.end();
			}
		});
		return true;
	}
	if (path === "/api/book") {
		res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "X-Demo": "yes" });
		res.end(JSON.stringify({ id: 42, title: "Dune", author: { name: "Frank Herbert", born: 1920 }, tags: ["sf", "classic"], price: 9.99, available: true, isbn: null }));
		return true;
	}
	const status = /^\/api\/status\/([1-5]\d\d)$/.exec(path);
	if (status) {
		res.writeHead(Number(status[1]), { "Content-Type": "text/plain" });
		res.end(`status ${status[1]}`);
		return true;
	}
	if (path === "/api/drip") {
		res.writeHead(200, { "Content-Type": "application/json", "X-Drip": "first", "Access-Control-Allow-Origin": "*" });
		res.write('{"part": 1, "padding": "' + "x".repeat(2048) + '", ');
		held.push(res);
		res.on("close", () => {
			if (!res.writableEnded) closedEarly.push(path);
		});
		return true;
	}
	if (path === "/api/release") {
		for (const r of held.splice(0)) if (!r.destroyed) r.end('"part2": 2}');

		res.writeHead(204);
		res.end();
		return true;
	}
	// issue 28: a 10 MB JSON response to pin (the pin keeps its first 64 KiB).
	if (path === "/api/ten-mb.json") {
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end((tenMb ??= Buffer.from(`{"items":[${Array.from({ length: 135_000 }, (_, i) => JSON.stringify({ id: i, title: `Book ${i}`, note: "x".repeat(30) })).join(",")}]}`)));
		return true;
	}
	if (path === "/api/big.json") {
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end(bigJsonBody(50));
		return true;
	}
	const xss = /^\/api\/xss\.(html|svg|xml|json)$/.exec(path);
	if (xss) {
		res.writeHead(200, { "Content-Type": XSS_TYPES[xss[1]] });
		res.end(xss[1] === "json" ? JSON.stringify({ html: XSS, svg: XSS }) : XSS);
		return true;
	}
	if (path === "/api/counter") {
		// A different body and header on every call: what "Compare with previous run" shows.
		counter++;
		res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Run": String(counter) });
		res.end(JSON.stringify({ run: counter, title: "Dune", stock: 10 - counter }));
		return true;
	}
	if (path === "/api/json") {
		res.writeHead(200, { "Content-Type": "application/json", "X-Demo": "yes" });
		res.end(JSON.stringify({ title: "Dune", author: "Frank Herbert", tags: ["sf", "classic"] }));
		return true;
	}
	if (path === "/api/xml") {
		res.writeHead(200, { "Content-Type": "application/xml" });
		res.end('<?xml version="1.0"?><books><book id="1"><title>Dune</title></book></books>');
		return true;
	}
	if (path === "/api/image.png") {
		res.writeHead(200, { "Content-Type": "image/png" });
		res.end(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAHklEQVR42mNY4CZCEmIA4g89GkSiUQ2jGgZaA0kIAPxafDhbjPEnAAAAAElFTkSuQmCC", "base64"));
		return true;
	}
	if (path === "/api/binary") {
		res.writeHead(200, { "Content-Type": "application/octet-stream" });
		res.end(Buffer.from([0, 1, 2, 3, 254, 255, 0, 7]));
		return true;
	}
	if (path === "/api/slow") {
		setTimeout(() => {
			if (!res.destroyed) res.end("late");
		}, 3000).unref();
		return true;
	}
	if (path === "/api/html") {
		res.writeHead(200, { "Content-Type": "text/html" });
		res.end('<h1>hi</h1><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>');
		return true;
	}
	return false;
}

export interface HostOptions {
	/** Listen on this port (default: any free port). */
	port?: number;
	/** Install Playwright's fake clock at this time before the page loads (Date, timers, performance.now). */
	clock?: Date;
	/** Serve the desktop bridge (support/git-bridge.ts): git and files of the vault folder for the page. */
	desktopBridge?: boolean;
	/** A test's own endpoints, by path (a token endpoint, say), answered before the shared API. */
	routes?: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>;
}

export async function launchHost(options: HostOptions = {}): Promise<Host> {
	const mainJs = join(ROOT, "main.js");
	if (!existsSync(mainJs)) throw new Error("main.js is not built: run `npm run build` first");
	const hostJs = await bundleHost();
	const hits: string[] = [];
	const vaultDir = mkdtempSync(join(tmpdir(), "rb-vault-"));
	const server = http.createServer((req, res) => {
		const path = (req.url ?? "/").split("?")[0];
		hits.push(path);
		if (options.desktopBridge && handleBridge(path, req, res, vaultDir)) return;
		const route = options.routes?.[path];
		if (route) return route(req, res);
		if (path.startsWith("/__vault/") && req.method === "PUT") {
			const target = resolve(vaultDir, decodeURIComponent(path.slice("/__vault/".length)));
			if (!target.startsWith(vaultDir + sep)) {
				res.writeHead(403);
				res.end();
				return;
			}
			const chunks: Buffer[] = [];
			req.on("data", (c: Buffer) => chunks.push(c));
			req.on("end", () => {
				mkdirSync(dirname(target), { recursive: true });
				writeFileSync(target, Buffer.concat(chunks));
				res.writeHead(204);
				res.end();
			});
			return;
		}
		const files: Record<string, [string, string]> = {
			"/": [join(ROOT, "tests", "e2e", "host", "index.html"), "text/html"],
			"/themes.css": [join(ROOT, "tests", "e2e", "host", "themes.css"), "text/css"],
			"/styles.css": [join(ROOT, "styles.css"), "text/css"],
			"/main.js": [mainJs, "text/javascript"],
		};
		if (path === "/host.js") {
			res.writeHead(200, { "Content-Type": "text/javascript" });
			res.end(hostJs);
		} else if (files[path]) {
			res.writeHead(200, { "Content-Type": files[path][1] });
			res.end(readFileSync(files[path][0]));
		} else if (!api(path, res)) {
			res.writeHead(404);
			res.end();
		}
	});
	await new Promise<void>((r) => server.listen(options.port ?? 0, "127.0.0.1", r));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const browser: Browser = await chromium.launch({
		executablePath: "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
	});
	const page = await browser.newPage({ viewport: { width: 900, height: 700 }, permissions: ["clipboard-read", "clipboard-write"] });
	const errors: string[] = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	if (options.clock) await page.clock.install({ time: options.clock });
	await page.goto(url);
	return {
		...hostCalls(page),
		url,
		page,
		hits,
		vaultDir,
		closedEarly,
		holdAnswers: () => {
			gate.on = true;
		},
		releaseAnswers: () => {
			gate.on = false;
			for (const answer of gate.waiting.splice(0)) answer();
		},
		close: async () => {
			await browser.close();
			await new Promise((r) => server.close(r));
			await whenBridgeIdle();
			rmSync(vaultDir, { recursive: true, force: true });
			if (errors.length) throw new Error(`page errors: ${errors.join("\n")}`);
		},
	};
}

/** Where the plugin reads the user's settings in the vault. */
export const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

export interface PluginHostOptions extends HostOptions {
	/** Written to user.toml before the plugin loads, as a file already in the vault (given the host's URL). */
	userToml?: string | ((url: string) => string);
	/** Load the plugin as the mobile app does (Platform.isMobileApp, no Node): the host's mobile emulation. */
	mobile?: boolean;
}

/** A host whose plugin is loaded: `processors` are the code block languages it registered. */
export type PluginHost = Host & { processors: string[] };

/** The usual start of a test: the host launched, user.toml in place if given, the plugin loaded. */
export async function launchPluginHost(options: PluginHostOptions = {}): Promise<PluginHost> {
	const host = await launchHost(options);
	const toml = typeof options.userToml === "function" ? options.userToml(host.url) : options.userToml;
	if (toml !== undefined) await host.api((h, [path, text]) => h.writeFile(path, text), [USER_TOML, toml] as const);
	if (options.mobile) await host.api((h) => h.useMobileApp());
	return { ...host, processors: await host.api((h) => h.loadPlugin()) };
}
