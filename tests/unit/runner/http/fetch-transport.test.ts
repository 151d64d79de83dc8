import { FetchTransport } from "../../../../src/runner/http/fetch-transport";
import type { ResponseHead } from "../../../../src/runner/transport";
import { refusedPort, startTestServer, type TestServer } from "../../../support/servers";
import { bodyText, doneOutcome, failure, itStopsLikeEveryTransport, preparedRequest as req } from "../../../support/transport-requests";
import { until } from "../../../support/until";

jest.setTimeout(20_000);

let server: TestServer;
// Node's own fetch (undici), as the runtime would hand it.
const transport = new FetchTransport(globalThis.fetch);

beforeAll(async () => {
	server = await startTestServer();
});

afterAll(async () => {
	await server.close();
});

const seen = (headers: Array<[string, string]>, name: string) => headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString("base64")}`;

describe("the request fetch is given", () => {
	it("uses the global fetch of the moment when none was given", async () => {
		const original = globalThis.fetch;
		const asked: string[] = [];
		globalThis.fetch = (input, init) => {
			asked.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
			return original(input, init);
		};
		try {
			doneOutcome(await new FetchTransport().send(req(`${server.url}/json`)));
		} finally {
			globalThis.fetch = original;
		}
		expect(asked).toEqual([`${server.url}/json`]);
	});

	it("sends the URL's credentials as Basic auth on a URL without them (fetch refuses them in the URL)", async () => {
		const url = new URL(`${server.url}/echo`);
		url.username = "al%C3%AFce";
		url.password = "p%3Aw";
		const o = doneOutcome(await transport.send(req(url.href)));
		expect(seen(server.requests.at(-1)?.headers ?? [], "authorization")).toEqual([basic("alïce:p:w")]);
		expect(o.rawRequestHead).toContain(`Authorization: ${basic("alïce:p:w")}\r\n`);
		expect(o.head.url).toBe(`${server.url}/echo`);
	});

	it("keeps the block's own Authorization over the URL's credentials", async () => {
		const url = new URL(`${server.url}/echo`);
		url.username = "user";
		await transport.send(req(url.href, { headers: [["authorization", "Bearer t0k"]] }));
		expect(seen(server.requests.at(-1)?.headers ?? [], "authorization")).toEqual(["Bearer t0k"]);
	});

	it("skips the headers fetch forbids and shows the Host and Content-Length the runtime writes", async () => {
		const headers: Array<[string, string]> = [["Host", "elsewhere"], ["Connection", "close"], ["Proxy-Authorization", "x"], ["Sec-Test", "x"], ["X-Kept", "1"]];
		const o = doneOutcome(await transport.send(req(`${server.url}/echo`, { method: "POST", headers, body: "abc" })));
		const got = server.requests.at(-1)?.headers ?? [];
		expect([seen(got, "host"), seen(got, "x-kept"), seen(got, "proxy-authorization"), seen(got, "sec-test")]).toEqual([[new URL(server.url).host], ["1"], [], []]);
		expect(o.rawRequestHead).toBe(`POST /echo HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nX-Kept: 1\r\nContent-Length: 3\r\n\r\n`);
		expect(o.requestBytes).toBe(Buffer.byteLength(o.rawRequestHead) + 3);
	});

	it.each([
		[{ url: "http://exa mple/" }, "invalid_url"],
		[{ url: "ftp://127.0.0.1/file" }, "invalid_url"],
		[{ headers: [["Bad Name", "x"]] as Array<[string, string]> }, "invalid_token"],
		[{ body: "a body" }, "body_not_allowed"],
		[{ method: "HEAD" as const, body: "a body" }, "body_not_allowed"],
	])("refuses %j with [%s] before any request", async (patch, code) => {
		const before = server.requests.length;
		failure(await transport.send(req(`${server.url}/echo`, patch)), code);
		expect(server.requests.length).toBe(before);
	});
});

describe("the response", () => {
	it("keeps each Set-Cookie apart and gives them to the jar under the URL that answered", async () => {
		const stored: Array<[string, readonly string[]]> = [];
		const o = doneOutcome(await transport.send(req(`${server.url}/set-cookie`), { cookies: { header: () => null, store: (url, set) => void stored.push([url, set]) } }));
		const cookies = ["session=abc; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Max-Age=3600; Secure"];
		expect(seen(o.head.headers, "set-cookie")).toEqual(cookies);
		expect(stored).toEqual([[`${server.url}/set-cookie`, cookies]]);
	});

	it("reports that redirects happened (fetch does not say how many) and the final URL", async () => {
		const o = doneOutcome(await transport.send(req(`${server.url}/redirect?n=3`)));
		expect(o.head).toMatchObject({ status: 200, redirects: 1, url: `${server.url}/redirect?n=0&status=302` });
	});

	it("returns the 3xx itself when redirects are off", async () => {
		const o = doneOutcome(await transport.send(req(`${server.url}/redirect?n=1`, { followRedirects: false })));
		expect(o.head).toMatchObject({ status: 302, redirects: 0 });
	});

	it("fails with [too_many_redirects] past the Fetch standard's 20", async () => {
		expect(failure(await transport.send(req(`${server.url}/redirect?n=21`)), "too_many_redirects").detail).toMatch(/^more than 20; /);
	});

	it("times the first byte and the whole, and nothing fetch cannot see", async () => {
		const { timing } = doneOutcome(await transport.send(req(`${server.url}/json`)));
		expect(timing.total).toBeGreaterThanOrEqual(timing.ttfb ?? Infinity);
		expect([timing.dns, timing.connect, timing.tls, timing.connectionReused]).toEqual([undefined, undefined, undefined, undefined]);
	});
});

describe("streaming, cancel and timeouts", () => {
	it("hands over the head and each chunk as they arrive, before the body has ended", async () => {
		const heads: ResponseHead[] = [];
		const totals: number[] = [];
		const sending = transport.send(req(`${server.url}/held?id=stream`), { onHeaders: (h) => heads.push(h), onChunk: (_c, total) => totals.push(total) });
		await until(() => totals.length === 1);
		expect([heads.map((h) => h.status), totals]).toEqual([[200], [11]]);
		server.release("stream");
		expect(bodyText(await sending)).toBe("first part;second part");
		expect(totals.at(-1)).toBe(22);
	});

	itStopsLikeEveryTransport(() => transport, () => server);

	it("ends with reason timeout when the body does not end in time, and hangs up", async () => {
		expect(await transport.send(req(`${server.url}/held?id=never`, { timeoutMs: 100 }))).toMatchObject({ kind: "cancelled", reason: "timeout" });
		await until(() => server.closedEarly().includes("/held?id=never"));
	});
});

describe("what the transport refuses to keep, and how it fails", () => {
	it("stops at the chunk that would pass the cap, never handing it over", async () => {
		const totals: number[] = [];
		const o = await transport.send(req(`${server.url}/stream?chunks=5&size=16&delay=1`), { maxBodyBytes: 40, onChunk: (_c, total) => totals.push(total) });
		expect(failure(o, "body_too_large").detail).toBe("the body passed 40 bytes");
		expect(Math.max(0, ...totals)).toBeLessThanOrEqual(40);
	});

	it("applies the cap to decoded bytes", async () => {
		failure(await transport.send(req(`${server.url}/gzip-bomb?bytes=100000`), { maxBodyBytes: 10_000 }), "body_too_large");
	});

	it("fails a refused port with [connect_failed], the cause's code in the detail", async () => {
		const port = await refusedPort();
		expect(failure(await transport.send(req(`http://127.0.0.1:${port}/`)), "connect_failed").detail).toMatch(/^fetch failed: .*ECONNREFUSED/);
	});

	it("says CORS may be why when the runtime's error has no cause (a browser's Failed to fetch)", async () => {
		const browserLike = new FetchTransport(() => Promise.reject(new TypeError("Failed to fetch")));
		expect(failure(await browserLike.send(req(`${server.url}/json`)), "connect_failed").detail).toBe("Failed to fetch (a network error, or the server does not allow this origin: CORS)");
	});

	it("fails a body cut short by the server with [protocol_error]", async () => {
		failure(await transport.send(req(`${server.url}/close-mid-body`)), "protocol_error");
	});
});
