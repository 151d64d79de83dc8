import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { executeRequest, type HistoryEntry } from "../../../src/runner/executor";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import { MAX_BODY_BYTES, type PreparedRequest } from "../../../src/runner/request";
import type { Transport, TransportOutcome } from "../../../src/runner/transport";
import { refusedPort, startHttpbin, startSilentServer, startTestServer, type Httpbin, type TestServer } from "../../support/servers";

jest.setTimeout(60_000);

let server: TestServer;
let transport: Transport & { close(): void };
let insecure: Transport & { close(): void };

beforeAll(async () => {
	server = await startTestServer();
	transport = createNodeTransport();
	insecure = createNodeTransport({ rejectUnauthorized: false });
});

afterAll(async () => {
	transport.close();
	insecure.close();
	await server.close();
});

function req(url: string, patch: Partial<PreparedRequest> = {}): PreparedRequest {
	return { method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 10_000, ...patch };
}

function text(o: TransportOutcome): string {
	if (o.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(o)}`);
	return new TextDecoder().decode(o.body);
}

describe("node transport against the test server", () => {
	it("sends method, headers (order, casing, repeats) and body exactly", async () => {
		const o = await transport.send(
			req(`${server.url}/echo?a=1&b=two`, {
				method: "POST",
				headers: [
					["X-First", "1"],
					["x-repeat", "a"],
					["X-Repeat", "b"],
					["Content-Type", "text/plain; charset=utf-8"],
				],
				body: "héllo\nworld",
			}),
		);
		const echo = JSON.parse(text(o)) as { method: string; url: string; headers: Array<[string, string]>; body: string };
		expect(echo.method).toBe("POST");
		expect(echo.url).toBe("/echo?a=1&b=two");
		const user = echo.headers.filter(([n]) => /^x-|content-type/i.test(n));
		expect(user).toEqual([
			["X-First", "1"],
			["x-repeat", "a"],
			["X-Repeat", "b"],
			["Content-Type", "text/plain; charset=utf-8"],
		]);
		expect(echo.headers).toContainEqual(["Content-Length", String(Buffer.byteLength("héllo\nworld"))]);
		expect(Buffer.from(echo.body, "base64").toString()).toBe("héllo\nworld");
		if (o.kind === "done") {
			expect(o.rawRequestHead.startsWith("POST /echo?a=1&b=two HTTP/1.1\r\n")).toBe(true);
			expect(o.rawRequestHead).toContain("X-Repeat: b\r\n");
			expect(o.requestBytes).toBe(Buffer.byteLength(o.rawRequestHead) + Buffer.byteLength("héllo\nworld"));
		}
	});

	it("delivers headers before the body finishes, then chunks with a running total", async () => {
		const events: string[] = [];
		const o = await transport.send(req(`${server.url}/stream?chunks=4&delay=40&size=10`), {
			onHeaders: (h) => events.push(`headers ${h.status}`),
			onChunk: (c, total) => events.push(`chunk ${c.byteLength} ${total}`),
		});
		expect(events[0]).toBe("headers 200");
		expect(events.slice(1)).toEqual(["chunk 10 10", "chunk 10 20", "chunk 10 30", "chunk 10 40"]);
		expect(text(o)).toHaveLength(40);
		if (o.kind === "done") {
			expect(o.timing.ttfb).toBeDefined();
			expect(o.timing.total).toBeGreaterThanOrEqual(o.timing.ttfb ?? 0);
		}
	});

	it("cancels mid-body: nothing after the cancel is kept, the socket is destroyed", async () => {
		const controller = new AbortController();
		let afterCancel = 0;
		let cancelled = false;
		const o = await transport.send(req(`${server.url}/stream?chunks=50&delay=30&size=100`), {
			signal: controller.signal,
			onChunk: (_c, total) => {
				if (cancelled) afterCancel++;
				if (total >= 300 && !cancelled) {
					cancelled = true;
					controller.abort();
				}
			},
		});
		expect(o).toMatchObject({ kind: "cancelled", reason: "user" });
		expect(afterCancel).toBe(0);
		expect(o).not.toHaveProperty("body");
		await new Promise((r) => setTimeout(r, 200));
		// The server stopped being able to write: far fewer than the 5,000 bytes it would send.
		expect(server.bytesWritten()).toBeLessThan(5000);
	});

	it("times out before the headers (connect + whole body is covered)", async () => {
		const silent = await startSilentServer();
		try {
			const o = await transport.send(req(silent.url, { timeoutMs: 200 }));
			expect(o).toMatchObject({ kind: "cancelled", reason: "timeout" });
		} finally {
			await silent.close();
		}
	});

	it("times out while connecting (the TLS handshake never completes)", async () => {
		const silent = await startSilentServer();
		try {
			const o = await insecure.send(req(silent.url.replace("http:", "https:"), { timeoutMs: 200 }));
			expect(o).toMatchObject({ kind: "cancelled", reason: "timeout" });
			expect(o.timing.connect).toBeDefined();
			expect(o.timing.tls).toBeUndefined();
			expect(o.timing.ttfb).toBeUndefined();
		} finally {
			await silent.close();
		}
	});

	it("times out during the body", async () => {
		let headers = false;
		const o = await transport.send(req(`${server.url}/slow-body?delay=3000`, { timeoutMs: 300 }), { onHeaders: () => (headers = true) });
		expect(headers).toBe(true);
		expect(o).toMatchObject({ kind: "cancelled", reason: "timeout" });
	});

	it("fails with [body_too_large] past the cap and stops reading", async () => {
		const o = await transport.send(req(`${server.url}/huge?bytes=300000`), { maxBodyBytes: 100_000 });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", message: "[body_too_large]" });
	});

	it("fails a 100 MB + 1 byte body at the default cap, memory bounded by the cap", async () => {
		global.gc?.();
		const before = process.memoryUsage();
		let peak = 0;
		const o = await transport.send(req(`${server.url}/huge?bytes=${MAX_BODY_BYTES + 1}`, { timeoutMs: 60_000 }), {
			onChunk: () => {
				peak = Math.max(peak, process.memoryUsage().arrayBuffers - before.arrayBuffers);
			},
		});
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", message: "[body_too_large]" });
		expect(peak).toBeLessThan(MAX_BODY_BYTES * 1.5);
	});

	it("applies the cap to decoded bytes (a gzip bomb)", async () => {
		const o = await transport.send(req(`${server.url}/gzip-bomb?bytes=5000000`), { maxBodyBytes: 1_000_000 });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large" });
	});

	it.each([["gzip"], ["deflate"], ["br"]])("decodes %s", async (enc) => {
		const o = await transport.send(req(`${server.url}/${enc}`));
		expect(JSON.parse(text(o))).toMatchObject({ encoded: enc });
	});

	it("reads chunked transfer encoding", async () => {
		expect(text(await transport.send(req(`${server.url}/chunked`)))).toBe("abc");
	});

	it("fails clearly when the server closes mid-body or resets", async () => {
		expect(await transport.send(req(`${server.url}/close-mid-body`))).toMatchObject({ kind: "failed", code: "protocol_error" });
		expect(await transport.send(req(`${server.url}/reset`))).toMatchObject({ kind: "failed" });
	});

	it("gives Failed to connect with the reason for a refused port", async () => {
		const port = await refusedPort();
		const o = await transport.send(req(`http://127.0.0.1:${port}/`));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed", message: "Failed to connect" });
		expect(o.kind === "failed" && o.detail).toContain("ECONNREFUSED");
	});

	it("gives Failed to connect for a host that does not resolve", async () => {
		const o = await transport.send(req("http://nonexistent.invalid/"));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed", message: "Failed to connect" });
	});

	it("follows redirects, counts them, and keeps the method for 307", async () => {
		const o = await transport.send(req(`${server.url}/redirect?n=3&status=302`));
		expect(o.kind === "done" && o.head.redirects).toBe(3);
		const post = await transport.send(req(`${server.url}/redirect?n=1&status=307`, { method: "POST", body: "keep" }));
		expect(JSON.parse(text(post))).toEqual({ method: "POST", body: "keep" });
		const see = await transport.send(req(`${server.url}/redirect?n=1&status=303`, { method: "POST", body: "drop" }));
		expect(JSON.parse(text(see))).toEqual({ method: "GET", body: "" });
	});

	it("returns the 3xx itself with # @no-redirect", async () => {
		const o = await transport.send(req(`${server.url}/redirect?n=2`, { followRedirects: false }));
		expect(o.kind === "done" && o.head.status).toBe(302);
		expect(o.kind === "done" && o.head.headers).toContainEqual(["Location", "/redirect?n=1&status=302"]);
	});

	it("stops after 10 redirects", async () => {
		expect(await transport.send(req(`${server.url}/redirect?n=11`))).toMatchObject({ kind: "failed", code: "too_many_redirects" });
		const ten = await transport.send(req(`${server.url}/redirect?n=10`));
		expect(ten.kind === "done" && ten.head.redirects).toBe(10);
	});

	it("keeps every Set-Cookie header separate", async () => {
		const o = await transport.send(req(`${server.url}/set-cookie`));
		const cookies = o.kind === "done" ? o.head.headers.filter(([n]) => n.toLowerCase() === "set-cookie") : [];
		expect(cookies.map(([, v]) => v)).toEqual(["session=abc; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Max-Age=3600; Secure"]);
	});

	it("refuses a self-signed certificate by default and accepts it when told to", async () => {
		const strict = await transport.send(req(`${server.httpsUrl}/json`));
		expect(strict).toMatchObject({ kind: "failed", code: "connect_failed" });
		expect(strict.kind === "failed" && strict.detail).toMatch(/self-signed|self signed/i);
		const o = await insecure.send(req(`${server.httpsUrl}/json`));
		expect(JSON.parse(text(o))).toMatchObject({ ok: true });
		expect(o.kind === "done" && o.timing.tls).toBeDefined();
	});

	it("reuses the keep-alive connection for a second request", async () => {
		await transport.send(req(`${server.url}/json`));
		const o = await transport.send(req(`${server.url}/json`));
		expect(o.kind === "done" && o.timing.connectionReused).toBe(true);
	});

	it("refuses an invalid header name before sending", async () => {
		const before = server.requests.length;
		const o = await transport.send(req(`${server.url}/json`, { headers: [["Bad Name", "x"]] }));
		expect(o).toMatchObject({ kind: "failed", code: "invalid_token", message: "Invalid HTTP token" });
		expect(server.requests.length).toBe(before);
	});
});

describe("node transport against httpbin", () => {
	let bin: Httpbin;
	beforeAll(async () => {
		bin = await startHttpbin();
	});
	afterAll(async () => {
		await bin.close();
	});

	it("GETs with query args and headers", async () => {
		const o = await transport.send(req(`${bin.url}/get?q=a%20b&n=1`, { headers: [["X-Custom-Header", "Value 1"]] }));
		const json = JSON.parse(text(o)) as { args: Record<string, string>; headers: Record<string, string> };
		expect(json.args).toEqual({ q: "a b", n: "1" });
		expect(json.headers["X-Custom-Header"]).toBe("Value 1");
	});

	it("POSTs a JSON body byte for byte", async () => {
		const body = '{"title": "Dune", "year": 1965}';
		const o = await transport.send(req(`${bin.url}/post`, { method: "POST", headers: [["Content-Type", "application/json"]], body }));
		const json = JSON.parse(text(o)) as { data: string; json: unknown };
		expect(json.data).toBe(body);
		expect(json.json).toEqual({ title: "Dune", year: 1965 });
	});

	it("decodes gzip and follows redirects", async () => {
		expect(JSON.parse(text(await transport.send(req(`${bin.url}/gzip`))))).toMatchObject({ gzipped: true });
		const r = await transport.send(req(`${bin.url}/redirect/3`));
		expect(r.kind === "done" && [r.head.status, r.head.redirects]).toEqual([200, 3]);
	});

	it("returns status codes and Set-Cookie as sent", async () => {
		const teapot = await transport.send(req(`${bin.url}/status/418`));
		expect(teapot.kind === "done" && teapot.head.status).toBe(418);
		const cookies = await transport.send(req(`${bin.url}/cookies/set?flavour=oat`, { followRedirects: false }));
		expect(cookies.kind === "done" && cookies.head.headers.some(([n, v]) => n.toLowerCase() === "set-cookie" && v.startsWith("flavour=oat"))).toBe(true);
	});
});

/**
 * A keep-alive server on 127.0.0.1 that numbers the requests of each connection. `?drop=` makes
 * it destroy the connection instead of answering: `reused` on a connection's second request
 * (what a server's idle close does to a request that crosses it), `always` on any request,
 * `partial` on a second request after sending a status line. `?hold` never answers; `?pair`
 * answers when two of them are waiting (two connections at once); `?to=<url>` redirects there
 * (302). It never closes an idle
 * connection itself: when one closes, the client dropped it.
 */
interface DroppingServer {
	url: string;
	/** Every request that arrived, with its number on its connection (1 = the connection's first). */
	requests: Array<{ method: string; url: string; nth: number }>;
	connections(): number;
	/** Resolves when `n` requests have arrived. */
	arrived(n: number): Promise<void>;
	/** Resolves when `n` connections have closed. */
	closed(n: number): Promise<void>;
	close(): Promise<void>;
}

async function startDroppingServer(keepAlive?: string): Promise<DroppingServer> {
	const requests: DroppingServer["requests"] = [];
	const nth = new WeakMap<Socket, number>();
	const sockets = new Set<Socket>();
	const waiters = new Set<() => void>();
	const paired: http.ServerResponse[] = [];
	let connections = 0;
	let closed = 0;
	const changed = () => waiters.forEach((w) => w());
	const until = (met: () => boolean) =>
		new Promise<void>((resolve) => {
			const check = () => {
				if (!met()) return;
				waiters.delete(check);
				resolve();
			};
			waiters.add(check);
			check();
		});
	const answer = (res: http.ServerResponse, text: string) => {
		res.writeHead(200, { "Content-Type": "text/plain", ...(keepAlive ? { "Keep-Alive": keepAlive } : {}) });
		res.end(text);
	};
	const server = http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			const n = (nth.get(req.socket) ?? 0) + 1;
			nth.set(req.socket, n);
			requests.push({ method: req.method ?? "", url: req.url ?? "", nth: n });
			const url = new URL(req.url ?? "/", "http://x");
			const drop = url.searchParams.get("drop");
			changed();
			if (drop === "always" || ((drop === "reused" || drop === "partial") && n === 2)) {
				if (drop === "partial") req.socket.end("HTTP/1.1 200 OK\r\n");
				else req.socket.destroy();
			} else if (url.searchParams.has("to")) {
				res.writeHead(302, { Location: url.searchParams.get("to") ?? "/" });
				res.end();
			} else if (url.searchParams.has("pair")) {
				paired.push(res);
				if (paired.length === 2) paired.splice(0).forEach((r) => answer(r, "paired"));
			} else if (!url.searchParams.has("hold")) {
				answer(res, `answer ${requests.length}`);
			}
		});
	});
	server.keepAliveTimeout = 0;
	server.on("connection", (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on("close", () => {
			sockets.delete(socket);
			closed++;
			changed();
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		connections: () => connections,
		arrived: (n) => until(() => requests.length >= n),
		closed: (n) => until(() => closed >= n),
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((r) => server.close(r));
		},
	};
}

describe("node transport on a keep-alive connection the server has closed", () => {
	let dropping: DroppingServer;
	let client: Transport & { close(): void };
	beforeEach(async () => {
		dropping = await startDroppingServer();
		client = createNodeTransport();
	});
	afterEach(async () => {
		client.close();
		await dropping.close();
	});

	/** Opens the connection the next request will reuse. */
	async function pooled(): Promise<void> {
		expect(text(await client.send(req(`${dropping.url}/first`)))).toBe("answer 1");
	}

	it("sends a request lost on a reused connection once more, on a fresh one, and times the attempt that answered", async () => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/again?drop=reused`));
		expect(text(o)).toBe("answer 3");
		expect(dropping.connections()).toBe(2);
		expect(dropping.requests.map((r) => r.nth)).toEqual([1, 2, 1]);
		if (o.kind === "done") {
			expect(o.timing.connectionReused).toBe(false);
			expect(o.timing.connect).toBeDefined();
			expect(o.rawRequestHead.startsWith("GET /again?drop=reused HTTP/1.1\r\n")).toBe(true);
			expect(o.requestBytes).toBe(Buffer.byteLength(o.rawRequestHead));
		}
	});

	it.each([["PUT"], ["DELETE"], ["HEAD"], ["OPTIONS"]] as const)("sends an idempotent %s again", async (method) => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/again?drop=reused`, { method, body: method === "PUT" ? "same" : "" }));
		expect(o).toMatchObject({ kind: "done", head: { status: 200 } });
		expect(dropping.connections()).toBe(2);
	});

	it.each([["POST"], ["PATCH"]] as const)("never sends a %s the server read again: it fails with its error", async (method) => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/order?drop=reused`, { method, body: "one order" }));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed", detail: "socket hang up" });
		expect(dropping.requests.filter((r) => r.method === method)).toHaveLength(1);
		expect(dropping.connections()).toBe(1);
	});

	it("sends a POST again when its Idempotency-Key lets the server deduplicate it", async () => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/order?drop=reused`, { method: "POST", headers: [["Idempotency-Key", "8e03"]], body: "one order" }));
		expect(o).toMatchObject({ kind: "done", head: { status: 200 } });
		expect(dropping.connections()).toBe(2);
	});

	it.each([["POST"], ["GET"]] as const)("never sends a %s lost on a fresh connection again", async (method) => {
		const o = await client.send(req(`${dropping.url}/order?drop=always`, { method, body: method === "POST" ? "one order" : "" }));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed", detail: "socket hang up" });
		expect(dropping.requests).toHaveLength(1);
		expect(dropping.connections()).toBe(1);
	});

	it("sends a request again only once", async () => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/again?drop=always`));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed" });
		expect(dropping.requests.map((r) => r.nth)).toEqual([1, 2, 1]);
		expect(dropping.connections()).toBe(2);
	});

	it("sends a run's requests again only once, over all its redirects", async () => {
		const other = await startDroppingServer();
		try {
			await pooled();
			expect(text(await client.send(req(`${other.url}/first`)))).toBe("answer 1");
			const target = `${other.url}/target?drop=reused`;
			const o = await client.send(req(`${dropping.url}/moved?drop=reused&to=${encodeURIComponent(target)}`));
			expect(o).toMatchObject({ kind: "failed", code: "connect_failed", detail: "socket hang up" });
			expect(dropping.requests.map((r) => r.nth)).toEqual([1, 2, 1]);
			expect(other.requests.map((r) => r.nth)).toEqual([1, 2]);
		} finally {
			await other.close();
		}
	});

	it("never sends a request again once a byte of its response has arrived", async () => {
		await pooled();
		const o = await client.send(req(`${dropping.url}/again?drop=partial`));
		expect(o).toMatchObject({ kind: "failed" });
		expect(dropping.requests).toHaveLength(2);
		expect(dropping.connections()).toBe(1);
	});

	it("never sends a request again after the user's cancel", async () => {
		await pooled();
		const controller = new AbortController();
		const sent = client.send(req(`${dropping.url}/again?hold`), { signal: controller.signal });
		await dropping.arrived(2);
		controller.abort();
		expect(await sent).toMatchObject({ kind: "cancelled", reason: "user" });
		await dropping.closed(1);
		expect(dropping.requests).toHaveLength(2);
		expect(dropping.connections()).toBe(1);
	});

	it("goes to a fresh connection, not to another pooled one", async () => {
		const both = await Promise.all([client.send(req(`${dropping.url}/a?pair`)), client.send(req(`${dropping.url}/b?pair`))]);
		expect(both.map(text)).toEqual(["paired", "paired"]);
		const o = await client.send(req(`${dropping.url}/again?drop=reused`));
		expect(o).toMatchObject({ kind: "done", timing: { connectionReused: false } });
		expect(dropping.connections()).toBe(3);
		expect(dropping.requests.at(-1)?.nth).toBe(1);
	});

	it("records one history row for the run, with the bytes of the attempt that answered", async () => {
		await pooled();
		const rows: HistoryEntry[] = [];
		const result = await executeRequest(req(`${dropping.url}/again?drop=reused`), { transport: client, cacheKey: () => "key", history: { record: (row) => rows.push(row) } }, { envSnapshot: {}, filePath: "api.md", historyAlias: "again" });
		expect(result).toMatchObject({ state: "done", timing: { connectionReused: false } });
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({ outcome: "done", status: 200, requestBytes: Buffer.byteLength(result.rawRequestHead ?? "") });
	});
});

describe("node transport and the server's Keep-Alive hint", () => {
	let client: Transport & { close(): void };
	beforeEach(() => {
		client = createNodeTransport();
	});
	afterEach(() => client.close());

	it("does not keep a connection the server will close within the margin (timeout=1)", async () => {
		const server = await startDroppingServer("timeout=1");
		try {
			await client.send(req(`${server.url}/one`));
			const o = await client.send(req(`${server.url}/two`));
			expect(o).toMatchObject({ kind: "done", timing: { connectionReused: false } });
			expect(server.connections()).toBe(2);
		} finally {
			await server.close();
		}
	});

	it("drops an idle connection before the server's announced timeout (timeout=2)", async () => {
		const server = await startDroppingServer("timeout=2, max=100");
		try {
			const o = await client.send(req(`${server.url}/one`));
			expect(o).toMatchObject({ kind: "done" });
			// The server never closes an idle connection: only the client's idle limit can.
			await server.closed(1);
			expect(server.connections()).toBe(1);
		} finally {
			await server.close();
		}
	});
});
