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
