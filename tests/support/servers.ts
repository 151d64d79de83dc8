/**
 * Real servers on 127.0.0.1 for integration tests: a Node test server with the awkward
 * behaviours a REST client must survive, and Debian's httpbin run with /usr/bin/python3.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import * as path from "node:path";
import * as zlib from "node:zlib";

/** What the server saw of a request (raw header pairs in wire order). */
export interface RecordedRequest {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	body: Buffer;
}

export interface TestServer {
	url: string;
	httpsUrl: string;
	requests: RecordedRequest[];
	/** Bytes the server has written for /stream and /huge bodies, to prove reading stopped. */
	bytesWritten(): number;
	connections(): number;
	/** Request URLs whose connection closed before their response ended (the client went away). */
	closedEarly(): string[];
	/** Ends the `/held?id=<id>` response: until then it has sent its headers and a first part only. */
	release(id: string): void;
	close(): Promise<void>;
}

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const TLS_DIR = path.join(__dirname, "tls");

function pairs(raw: string[]): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
	return out;
}

export async function startTestServer(): Promise<TestServer> {
	const requests: RecordedRequest[] = [];
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let written = 0;
	let connections = 0;
	const closedEarly: string[] = [];
	const held = new Map<string, () => void>();
	const later = (ms: number, fn: () => void) => {
		const t = setTimeout(() => {
			timers.delete(t);
			fn();
		}, ms);
		timers.add(t);
	};

	const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
		res.on("close", () => {
			if (!res.writableFinished) closedEarly.push(req.url ?? "");
		});
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const body = Buffer.concat(chunks);
			requests.push({ method: req.method ?? "", url: req.url ?? "", headers: pairs(req.rawHeaders), body });
			route(req, res, body);
		});
	};

	const route = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => {
		const url = new URL(req.url ?? "/", "http://x");
		const q = (name: string, dflt: number) => Number(url.searchParams.get(name) ?? dflt);
		const p = url.pathname;
		if (p === "/json") {
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ ok: true, items: [{ id: 1, name: "one" }, { id: 2, name: "two" }], token: "tok-123" }));
		} else if (p === "/no-store") {
			res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "private, no-store" });
			res.end(JSON.stringify({ at: Date.now(), n: requests.length }));
		} else if (p.startsWith("/items")) {
			// A small collection: GET shows how many requests the server saw; POST /items creates one
			// (201 with Location); a write to /items/fail answers 409.
			if (p === "/items/fail") res.writeHead(409, { "Content-Type": "application/json" });
			else if (req.method === "POST") res.writeHead(201, { "Content-Type": "application/json", Location: "/items/7", "Content-Location": "http://127.0.0.1:1/elsewhere" });
			else res.writeHead(200, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ path: p, seen: requests.length }));
		} else if (p === "/echo") {
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ method: req.method, url: req.url, headers: pairs(req.rawHeaders), body: body.toString("base64") }));
		} else if (p === "/stream") {
			const n = q("chunks", 5);
			const delay = q("delay", 50);
			const size = q("size", 16);
			res.writeHead(200, { "Content-Type": "text/plain" });
			res.flushHeaders();
			let i = 0;
			const tick = () => {
				if (res.destroyed) return;
				if (i++ >= n) {
					res.end();
					return;
				}
				const chunk = Buffer.alloc(size, 97 + (i % 26));
				written += chunk.byteLength;
				res.write(chunk);
				later(delay, tick);
			};
			later(delay, tick);
		} else if (p === "/slow-headers") {
			later(q("delay", 1000), () => {
				if (!res.destroyed) res.end("late");
			});
		} else if (p === "/slow-body") {
			res.writeHead(200, { "Content-Type": "text/plain" });
			res.write("first part;");
			later(q("delay", 1000), () => {
				if (!res.destroyed) res.end("second part");
			});
		} else if (p === "/held") {
			res.writeHead(200, { "Content-Type": "text/plain" });
			res.write("first part;");
			held.set(url.searchParams.get("id") ?? "", () => {
				if (!res.destroyed) res.end("second part");
			});
		} else if (p === "/huge") {
			const total = q("bytes", 1024);
			res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(total) });
			const block = Buffer.alloc(64 * 1024, 120);
			let sent = 0;
			const pump = () => {
				while (sent < total && !res.destroyed) {
					const n = Math.min(block.byteLength, total - sent);
					sent += n;
					written += n;
					if (!res.write(n === block.byteLength ? block : block.subarray(0, n))) {
						res.once("drain", pump);
						return;
					}
				}
				if (!res.destroyed) res.end();
			};
			pump();
		} else if (p === "/chunked") {
			res.writeHead(200, { "Content-Type": "text/plain", "Transfer-Encoding": "chunked" });
			res.write("a");
			res.write("b");
			res.end("c");
		} else if (p === "/gzip" || p === "/deflate" || p === "/br") {
			const payload = Buffer.from(JSON.stringify({ encoded: p.slice(1), text: "x".repeat(1000) }));
			const data = p === "/gzip" ? zlib.gzipSync(payload) : p === "/deflate" ? zlib.deflateSync(payload) : zlib.brotliCompressSync(payload);
			res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": p.slice(1) });
			res.end(data);
		} else if (p === "/gzip-bomb") {
			const data = zlib.gzipSync(Buffer.alloc(q("bytes", 1024), 0));
			res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Encoding": "gzip" });
			res.end(data);
		} else if (p === "/close-mid-body") {
			res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "1000" });
			res.write("only part of it");
			later(20, () => res.socket?.destroy());
		} else if (p === "/reset") {
			req.socket.resetAndDestroy();
		} else if (p === "/redirect") {
			const n = q("n", 1);
			const status = q("status", 302);
			if (n <= 0) {
				res.writeHead(200, { "Content-Type": "application/json" });
				res.end(JSON.stringify({ method: req.method, body: body.toString() }));
			} else {
				res.writeHead(status, { Location: `/redirect?n=${n - 1}&status=${status}` });
				res.end();
			}
		} else if (p === "/set-cookie") {
			res.setHeader("Set-Cookie", ["session=abc; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Max-Age=3600; Secure"]);
			res.writeHead(200, { "Content-Type": "text/plain" });
			res.end("cookies set");
		} else if (p.startsWith("/status/")) {
			res.writeHead(Number(p.slice(8)) || 500, { "Content-Type": "text/plain" });
			res.end(`status ${p.slice(8)}`);
		} else if (p === "/image.png") {
			res.writeHead(200, { "Content-Type": "image/png" });
			res.end(PNG);
		} else if (p === "/xml") {
			res.writeHead(200, { "Content-Type": "application/xml" });
			res.end('<?xml version="1.0"?><books><book id="1"><title>Dune</title></book></books>');
		} else if (p === "/html") {
			res.writeHead(200, { "Content-Type": "text/html" });
			res.end("<!doctype html><html><body><h1>Hello</h1><script>window.pwned=1</script></body></html>");
		} else {
			res.writeHead(404, { "Content-Type": "text/plain" });
			res.end("not found");
		}
	};

	const server = http.createServer(handler);
	const tlsServer = https.createServer({ key: readFileSync(path.join(TLS_DIR, "key.pem")), cert: readFileSync(path.join(TLS_DIR, "cert.pem")) }, handler);
	for (const s of [server, tlsServer]) {
		s.on("connection", (socket: Socket) => {
			connections++;
			sockets.add(socket);
			socket.on("close", () => sockets.delete(socket));
		});
		// Idle connections stay open until close(). A server that drops them on a timer races the
		// client: Node 20's keep-alive agent (no `timeout`) ignores the Keep-Alive hint and reuses a
		// socket at any age, so a request sent as the timer fires (3 s idle: 2 s + Node's 1 s margin,
		// reached under load) is reset unread and fails the block.
		s.keepAliveTimeout = 0;
	}
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	await new Promise<void>((r) => tlsServer.listen(0, "127.0.0.1", r));
	const port = (server.address() as AddressInfo).port;
	const tlsPort = (tlsServer.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}`,
		httpsUrl: `https://localhost:${tlsPort}`,
		requests,
		bytesWritten: () => written,
		connections: () => connections,
		closedEarly: () => [...closedEarly],
		release: (id: string) => {
			held.get(id)?.();
			held.delete(id);
		},
		close: async () => {
			for (const t of timers) clearTimeout(t);
			for (const s of sockets) s.destroy();
			await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => tlsServer.close(r))]);
		},
	};
}

/** A TCP server that accepts connections and never sends a byte (no HTTP, no TLS): requests to it can only time out. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
	const sockets = new Set<Socket>();
	const server = net.createServer();
	server.on("connection", (s: Socket) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			for (const s of sockets) s.destroy();
			await new Promise((r) => server.close(r));
		},
	};
}

/** A port on 127.0.0.1 that refuses connections (bound, then closed). */
export async function refusedPort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const port = (server.address() as AddressInfo).port;
	await new Promise((r) => server.close(r));
	return port;
}

export interface Httpbin {
	url: string;
	close(): Promise<void>;
}

/** Starts Debian's python3-httpbin on a free 127.0.0.1 port with /usr/bin/python3 and waits until it answers. */
export async function startHttpbin(): Promise<Httpbin> {
	const port = await refusedPort();
	const script = [
		"import sys, logging",
		"logging.getLogger('werkzeug').setLevel(logging.ERROR)",
		"from werkzeug.serving import run_simple",
		"from httpbin import app",
		`run_simple('127.0.0.1', ${port}, app, threaded=True)`,
	].join("\n");
	const child: ChildProcess = spawn("/usr/bin/python3", ["-c", script], { stdio: ["ignore", "ignore", "pipe"] });
	let stderr = "";
	child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 20_000;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`httpbin exited (${child.exitCode}): ${stderr}`);
		const up = await new Promise<boolean>((resolve) => {
			const req = http.get(`${url}/get`, (res) => {
				res.resume();
				resolve(res.statusCode === 200);
			});
			req.on("error", () => resolve(false));
		});
		if (up) break;
		if (Date.now() > deadline) {
			child.kill();
			throw new Error(`httpbin did not start within 20 s: ${stderr}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return {
		url,
		close: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once("exit", () => resolve());
				child.kill("SIGTERM");
			}),
	};
}
