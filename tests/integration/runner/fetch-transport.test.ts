import { FetchTransport } from "../../../src/runner/http/fetch-transport";
import type { PreparedRequest } from "../../../src/runner/request";
import type { TransportOutcome } from "../../../src/runner/transport";
import { refusedPort, startSilentServer, startTestServer, type TestServer } from "../../support/servers";

jest.setTimeout(30_000);

let server: TestServer;
// Node 20's own fetch (undici), passed explicitly as the runtime's fetch would be.
const transport = new FetchTransport(globalThis.fetch);

beforeAll(async () => {
	server = await startTestServer();
});

afterAll(async () => {
	await server.close();
});

function req(url: string, patch: Partial<PreparedRequest> = {}): PreparedRequest {
	return { method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 10_000, ...patch };
}

function done(o: TransportOutcome): Extract<TransportOutcome, { kind: "done" }> {
	if (o.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(o)}`);
	return o;
}

function text(o: TransportOutcome): string {
	return new TextDecoder().decode(done(o).body);
}

/** Waits until `check` holds, for at most `ms`; returns whether it did. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
	const until = Date.now() + ms;
	while (!check()) {
		if (Date.now() > until) return false;
		await new Promise((r) => setTimeout(r, 20));
	}
	return true;
}

describe("fetch transport against the test server", () => {
	it("is the streaming fetch transport", () => {
		expect(transport.name).toBe("fetch");
		expect(transport.streams).toBe(true);
	});

	it("GETs JSON: status, headers, body, raw request head, timing", async () => {
		const o = done(await transport.send(req(`${server.url}/json`)));
		expect(o.head).toMatchObject({ status: 200, statusText: "OK", httpVersion: "1.1", url: `${server.url}/json`, redirects: 0 });
		expect(o.head.headers).toContainEqual(["content-type", "application/json"]);
		expect(JSON.parse(text(o))).toMatchObject({ ok: true, token: "tok-123" });
		const host = new URL(server.url).host;
		expect(o.rawRequestHead).toBe(`GET /json HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
		expect(o.requestBytes).toBe(Buffer.byteLength(o.rawRequestHead));
		expect(o.timing.ttfb).toBeDefined();
		expect(o.timing.total).toBeGreaterThanOrEqual(o.timing.ttfb ?? Infinity);
		expect(o.timing.dns).toBeUndefined();
	});

	it("delivers headers before the body has finished, then each chunk with a running total", async () => {
		// /held sends headers and a first part, then waits for release(): a transport that
		// buffered the body before reporting headers would only finish through the fallback timer.
		const id = "headers-first";
		const events: string[] = [];
		let released: "chunk" | "timer" | null = null;
		let releasedAtHeaders: boolean | null = null;
		const fallback = setTimeout(() => {
			released ??= "timer";
			server.release(id);
		}, 5000);
		try {
			const o = await transport.send(req(`${server.url}/held?id=${id}`), {
				onHeaders: (h) => {
					releasedAtHeaders = released !== null;
					events.push(`headers ${h.status}`);
				},
				onChunk: (c, total) => {
					events.push(`${Buffer.from(c).toString()} ${total}`);
					if (released === null) {
						released = "chunk";
						server.release(id);
					}
				},
			});
			expect(released).toBe("chunk");
			expect(releasedAtHeaders).toBe(false);
			expect(events).toEqual(["headers 200", "first part; 11", "second part 22"]);
			expect(text(o)).toBe("first part;second part");
		} finally {
			clearTimeout(fallback);
		}
	});

	it("cancels mid-body: cancelled by the user, nothing kept, the server sees the connection close", async () => {
		const path = "/stream?chunks=200&delay=20&size=100&case=cancel";
		const controller = new AbortController();
		const writtenBefore = server.bytesWritten();
		let cancelled = false;
		let afterCancel = 0;
		const o = await transport.send(req(`${server.url}${path}`), {
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
		expect(o).not.toHaveProperty("body");
		expect(afterCancel).toBe(0);
		// The whole stream takes 4 s; the server must see the client go long before that.
		expect(await eventually(() => server.closedEarly().includes(path), 2000)).toBe(true);
		expect(server.bytesWritten() - writtenBefore).toBeLessThan(5000);
	});

	it("cancels at once when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const before = server.requests.length;
		expect(await transport.send(req(`${server.url}/json`), { signal: controller.signal })).toMatchObject({ kind: "cancelled", reason: "user" });
		expect(server.requests.length).toBe(before);
	});

	it("times out before the headers with reason timeout", async () => {
		const silent = await startSilentServer();
		try {
			const o = await transport.send(req(silent.url, { timeoutMs: 200 }));
			expect(o).toMatchObject({ kind: "cancelled", reason: "timeout" });
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

	it("fails with [body_too_large] at the cap, never passing it, and stops reading", async () => {
		const path = "/huge?bytes=50000000&case=cap";
		const cap = 100_000;
		let most = 0;
		const o = await transport.send(req(`${server.url}${path}`), { maxBodyBytes: cap, onChunk: (_c, total) => (most = Math.max(most, total)) });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", message: "[body_too_large]", detail: `the body passed ${cap} bytes` });
		expect(most).toBeGreaterThan(0);
		expect(most).toBeLessThanOrEqual(cap);
		expect(await eventually(() => server.closedEarly().includes(path), 2000)).toBe(true);
	});

	it("applies the cap to decoded bytes (a gzip bomb)", async () => {
		const o = await transport.send(req(`${server.url}/gzip-bomb?bytes=5000000`), { maxBodyBytes: 1_000_000 });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", message: "[body_too_large]" });
	});

	it("gives Failed to connect with the reason for a refused port", async () => {
		const port = await refusedPort();
		const o = await transport.send(req(`http://127.0.0.1:${port}/`));
		expect(o).toMatchObject({ kind: "failed", code: "connect_failed", message: "Failed to connect" });
		expect(o.kind === "failed" && o.detail).toContain("ECONNREFUSED");
	});

	it("refuses an invalid URL and a non-http URL without a request", async () => {
		expect(await transport.send(req("not a url"))).toMatchObject({ kind: "failed", code: "invalid_url", message: 'Invalid URL "not a url"' });
		expect(await transport.send(req("data:text/plain,hi"))).toMatchObject({ kind: "failed", code: "invalid_url" });
	});

	it("refuses an invalid header name before sending", async () => {
		const before = server.requests.length;
		const o = await transport.send(req(`${server.url}/json`, { headers: [["Bad Name", "x"]] }));
		expect(o).toMatchObject({ kind: "failed", code: "invalid_token", message: "Invalid HTTP token" });
		expect(server.requests.length).toBe(before);
	});

	it("POSTs the body byte for byte, skips forbidden headers, and shows the head it sent", async () => {
		const body = "héllo\nworld";
		const o = await transport.send(
			req(`${server.url}/echo?a=1`, {
				method: "POST",
				headers: [
					["X-First", "1"],
					["Host", "evil.example"],
					["Content-Type", "text/plain; charset=utf-8"],
					["Connection", "close"],
					["Content-Length", "1"],
				],
				body,
			}),
		);
		const echo = JSON.parse(text(o)) as { method: string; url: string; headers: Array<[string, string]>; body: string };
		expect(echo.method).toBe("POST");
		expect(echo.url).toBe("/echo?a=1");
		expect(Buffer.from(echo.body, "base64").toString()).toBe(body);
		const sent = new Map(echo.headers.map(([n, v]) => [n.toLowerCase(), v]));
		const host = new URL(server.url).host;
		expect(sent.get("host")).toBe(host);
		expect(sent.get("content-length")).toBe(String(Buffer.byteLength(body)));
		expect(sent.get("x-first")).toBe("1");
		expect(sent.get("content-type")).toBe("text/plain; charset=utf-8");
		expect(sent.get("connection")).not.toBe("close");
		const d = done(o);
		expect(d.rawRequestHead).toBe(`POST /echo?a=1 HTTP/1.1\r\nHost: ${host}\r\nX-First: 1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
		expect(d.requestBytes).toBe(Buffer.byteLength(d.rawRequestHead) + Buffer.byteLength(body));
	});

	it("keeps every Set-Cookie header separate", async () => {
		const o = done(await transport.send(req(`${server.url}/set-cookie`)));
		const cookies = o.head.headers.filter(([n]) => n.toLowerCase() === "set-cookie");
		expect(cookies.map(([, v]) => v)).toEqual(["session=abc; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Max-Age=3600; Secure"]);
	});

	it("follows redirects, reporting the final URL and that a redirect happened", async () => {
		const o = done(await transport.send(req(`${server.url}/redirect?n=3&status=307`, { method: "POST", body: "keep" })));
		expect(o.head.status).toBe(200);
		expect(o.head.url).toBe(`${server.url}/redirect?n=0&status=307`);
		expect(o.head.redirects).toBe(1);
		expect(JSON.parse(text(o))).toEqual({ method: "POST", body: "keep" });
	});

	it("returns the 3xx itself with # @no-redirect where fetch shows it (Node)", async () => {
		const o = done(await transport.send(req(`${server.url}/redirect?n=2`, { followRedirects: false })));
		expect(o.head.status).toBe(302);
		expect(o.head.redirects).toBe(0);
		expect(o.head.headers).toContainEqual(["location", "/redirect?n=1&status=302"]);
	});

	it("fails clearly on a browser's opaque redirect with # @no-redirect", async () => {
		let init: RequestInit | undefined;
		const opaque = new FetchTransport((_input, i) => {
			init = i;
			return Promise.resolve({ type: "opaqueredirect", status: 0, url: `${server.url}/redirect?n=1` } as Response);
		});
		const o = await opaque.send(req(`${server.url}/redirect?n=1`, { followRedirects: false }));
		expect(init?.redirect).toBe("manual");
		expect(o).toMatchObject({ kind: "failed", code: "protocol_error" });
	});

	it("decodes gzip", async () => {
		expect(JSON.parse(text(await transport.send(req(`${server.url}/gzip`))))).toMatchObject({ encoded: "gzip" });
	});
});
