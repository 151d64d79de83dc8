import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { ResponseHead } from "../../../../src/runner/transport";
import { refusedPort, startTestServer, type TestServer } from "../../../support/servers";
import { bodyText, doneOutcome, failure, itStopsLikeEveryTransport, preparedRequest as req, startRedirector } from "../../../support/transport-requests";
import { until } from "../../../support/until";

jest.setTimeout(20_000);

let server: TestServer;
let redirector: Awaited<ReturnType<typeof startRedirector>>;
const transport = createNodeTransport();

beforeAll(async () => {
	server = await startTestServer();
	redirector = await startRedirector();
});

afterAll(async () => {
	transport.close();
	await redirector.close();
	await server.close();
});

/** The headers the test server's /echo saw, in wire order. */
function echoed(o: Parameters<typeof bodyText>[0]): Array<[string, string]> {
	return (JSON.parse(bodyText(o)) as { headers: Array<[string, string]> }).headers;
}

const named = (headers: Array<[string, string]>, name: string) => headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString("base64")}`;

describe("the request on the wire", () => {
	it("writes Host first, then the block's headers as written, then the defaults the block did not write", async () => {
		const o = await transport.send(req(`${server.url}/echo`, { headers: [["x-B", "2"], ["User-Agent", "mine"], ["X-a", "1"], ["x-B", "3"]] }));
		expect(echoed(o)).toEqual([
			["Host", new URL(server.url).host],
			["x-B", "2"],
			["User-Agent", "mine"],
			["X-a", "1"],
			["x-B", "3"],
			["Accept-Encoding", "gzip, deflate, br"],
			["Connection", "keep-alive"],
		]);
	});

	it.each([
		["POST", "", ["0"]],
		["PUT", "abc", ["3"]],
		["GET", "", []],
		["DELETE", "", []],
	] as const)("declares the length of a %s with body %j as %j (never chunked)", async (method, body, lengths) => {
		const o = await transport.send(req(`${server.url}/echo`, { method, body }));
		expect(named(echoed(o), "content-length")).toEqual(lengths);
		expect(named(echoed(o), "transfer-encoding")).toEqual([]);
	});

	it("sends the URL's user and password as Basic auth, and the request head shows it", async () => {
		const url = new URL(`${server.url}/echo`);
		url.username = "al%C3%AFce";
		url.password = "p%3Aw";
		const o = doneOutcome(await transport.send(req(url.href)));
		expect(named(echoed(o), "authorization")).toEqual([basic("alïce:p:w")]);
		expect(o.rawRequestHead).toContain(`Authorization: ${basic("alïce:p:w")}\r\n`);
	});

	it("keeps the block's own Authorization over the URL's credentials", async () => {
		const url = new URL(`${server.url}/echo`);
		url.username = "user";
		url.password = "pw";
		const o = await transport.send(req(url.href, { headers: [["Authorization", "Bearer t0k"]] }));
		expect(named(echoed(o), "authorization")).toEqual(["Bearer t0k"]);
	});

	it("asks the cookie jar on every hop and stores each hop's Set-Cookie under the URL that set it", async () => {
		const asked: string[] = [];
		const stored: Array<[string, readonly string[]]> = [];
		const cookies = { header: (url: string) => (asked.push(url), "jar=1"), store: (url: string, set: readonly string[]) => void stored.push([url, set]) };
		const o = await transport.send(req(`${server.url}/redirect?n=1`), { cookies });
		expect(doneOutcome(o).head.redirects).toBe(1);
		expect(asked).toEqual([`${server.url}/redirect?n=1`, `${server.url}/redirect?n=0&status=302`]);
		expect(server.requests.slice(-2).map((r) => named(r.headers, "cookie"))).toEqual([["jar=1"], ["jar=1"]]);
		await transport.send(req(`${server.url}/set-cookie`), { cookies });
		expect(stored.at(-1)).toEqual([`${server.url}/set-cookie`, ["session=abc; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Max-Age=3600; Secure"]]);
	});

	it("refuses a header it cannot send and an unparsable URL before any request", async () => {
		const before = server.requests.length;
		expect(await transport.send(req(`${server.url}/echo`, { headers: [["Bad Name", "x"]] }))).toMatchObject({ kind: "failed", code: "invalid_token", detail: 'header name "Bad Name"' });
		expect(await transport.send(req("http://exa mple/"))).toMatchObject({ kind: "failed", code: "invalid_url" });
		expect(server.requests.length).toBe(before);
	});
});

describe("redirects", () => {
	it("turns a 303 after a POST into a GET without the body or its Content-Type", async () => {
		const o = await transport.send(req(`${server.url}/redirect?n=1&status=303`, { method: "POST", headers: [["Content-Type", "text/plain"]], body: "payload" }));
		expect(JSON.parse(bodyText(o))).toEqual({ method: "GET", body: "" });
		expect(named(server.requests.at(-1)?.headers ?? [], "content-type")).toEqual([]);
	});

	it("keeps the method and body through a 307", async () => {
		const o = await transport.send(req(`${server.url}/redirect?n=2&status=307`, { method: "PUT", body: "payload" }));
		expect(JSON.parse(bodyText(o))).toEqual({ method: "PUT", body: "payload" });
		expect(doneOutcome(o).head).toMatchObject({ redirects: 2, url: `${server.url}/redirect?n=0&status=307` });
	});

	it("drops Authorization and Cookie when the redirect leaves the origin", async () => {
		const target = `${server.url}/echo`;
		const o = await transport.send(req(`${redirector.url}/?to=${encodeURIComponent(target)}`, { headers: [["Authorization", "Bearer t0k"], ["Cookie", "a=1"], ["X-Kept", "yes"]] }));
		expect(doneOutcome(o).head.url).toBe(target);
		const headers = echoed(o);
		expect([named(headers, "authorization"), named(headers, "cookie"), named(headers, "x-kept")]).toEqual([[], [], ["yes"]]);
	});

	it("does not carry the URL's credentials to another origin", async () => {
		const from = new URL(redirector.url);
		from.username = "user";
		from.password = "pw";
		from.searchParams.set("to", `${server.url}/echo`);
		expect(named(echoed(await transport.send(req(from.href))), "authorization")).toEqual([]);
	});

	it("fails with [too_many_redirects] after ten, naming the last Location", async () => {
		const o = await transport.send(req(`${server.url}/redirect?n=11`));
		expect(o).toMatchObject({ kind: "failed", code: "too_many_redirects", detail: "more than 10; last: /redirect?n=0&status=302" });
	});

	it("returns the 3xx itself when redirects are off", async () => {
		const o = doneOutcome(await transport.send(req(`${server.url}/redirect?n=1`, { followRedirects: false })));
		expect(o.head).toMatchObject({ status: 302, redirects: 0 });
		expect(o.head.headers).toContainEqual(["Location", "/redirect?n=0&status=302"]);
	});
});

describe("streaming, cancel and timing", () => {
	it("hands over the head and each chunk as they arrive, before the body has ended", async () => {
		const heads: ResponseHead[] = [];
		const chunks: Array<[string, number]> = [];
		const sending = transport.send(req(`${server.url}/held?id=stream`), { onHeaders: (h) => heads.push(h), onChunk: (c, total) => chunks.push([Buffer.from(c).toString(), total]) });
		await until(() => chunks.length === 1);
		expect(heads.map((h) => h.status)).toEqual([200]);
		server.release("stream");
		expect(bodyText(await sending)).toBe("first part;second part");
		expect(chunks).toEqual([["first part;", 11], ["second part", 22]]);
	});

	itStopsLikeEveryTransport(() => transport, () => server);

	it("times a fresh connection (connect, first byte, total) and marks a reused one", async () => {
		const fresh = createNodeTransport();
		try {
			const first = doneOutcome(await fresh.send(req(`${server.url}/json`))).timing;
			expect(first.connectionReused).toBe(false);
			expect(first.connect).toEqual(expect.any(Number));
			expect(first.ttfb).toBeGreaterThanOrEqual(first.connect ?? Infinity);
			expect(first.total).toBeGreaterThanOrEqual(first.ttfb ?? Infinity);
			const second = doneOutcome(await fresh.send(req(`${server.url}/json`))).timing;
			expect(second).toMatchObject({ connectionReused: true });
			expect(second.connect).toBeUndefined();
		} finally {
			fresh.close();
		}
	});
});

describe("what the transport refuses to keep", () => {
	it("hangs up at once on a declared length over the cap, before reading it", async () => {
		const o = await transport.send(req(`${server.url}/huge?bytes=${8 * 1024 * 1024}`), { maxBodyBytes: 1000 });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", detail: `the body passed 1000 bytes (Content-Length: ${8 * 1024 * 1024})` });
		await until(() => server.closedEarly().some((u) => u.startsWith("/huge")));
	});

	it("stops a body without a declared length at the chunk that passes the cap, never handing it over", async () => {
		const totals: number[] = [];
		const o = await transport.send(req(`${server.url}/stream?chunks=5&size=16&delay=1`), { maxBodyBytes: 40, onChunk: (_c, total) => totals.push(total) });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large", detail: "the body passed 40 bytes" });
		// Chunks may coalesce on the way (a busy machine): what was handed over stays within the cap, and something was.
		expect(totals.length).toBeGreaterThan(0);
		expect(Math.max(...totals)).toBeLessThanOrEqual(40);
	});

	it("reads a HEAD whose Content-Length is over the cap: there is no body", async () => {
		const o = doneOutcome(await transport.send(req(`${server.url}/huge?bytes=5000`, { method: "HEAD" }), { maxBodyBytes: 1000 }));
		expect([o.head.status, o.body.byteLength]).toEqual([200, 0]);
	});

	it("applies the cap to decoded bytes", async () => {
		const o = await transport.send(req(`${server.url}/gzip-bomb?bytes=100000`), { maxBodyBytes: 10_000 });
		expect(o).toMatchObject({ kind: "failed", code: "body_too_large" });
	});

	it("fails a body cut short by the server with [protocol_error]", async () => {
		expect(failure(await transport.send(req(`${server.url}/close-mid-body`)), "protocol_error").detail).toBeTruthy();
	});

	it("fails a connection reset before any response with [connect_failed] and the system's reason", async () => {
		expect(failure(await transport.send(req(`${server.url}/reset`)), "connect_failed").detail).toContain("ECONNRESET");
	});

	it("fails a refused port with [connect_failed] and the system's reason", async () => {
		const port = await refusedPort();
		expect(failure(await transport.send(req(`http://127.0.0.1:${port}/`)), "connect_failed").detail).toContain("ECONNREFUSED");
	});
});
