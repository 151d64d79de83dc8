/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { CookieJars } from "../../../src/runner/cookie-jar";
import type { PreparedRequest } from "../../../src/runner/request";
import type { TransportOutcome } from "../../../src/runner/transport";
import { createObsidianTransport } from "../../../src/ui/obsidian-transport";
import { nodeRequestUrl } from "../../support/node-request-url";
import { refusedPort, startTestServer, type TestServer } from "../../support/servers";

let server: TestServer;
/** Sets one cookie at /login and answers the Cookie it was sent (how Obsidian's header object carries several Set-Cookie is not documented). */
const cookieServer = http.createServer((req, res) => {
	res.writeHead(200, req.url === "/login" ? { "Set-Cookie": "session=abc; Path=/; HttpOnly" } : { "Content-Type": "text/plain" });
	res.end(req.headers.cookie ?? "");
});
let cookieBase = "";
beforeAll(async () => {
	server = await startTestServer();
	await new Promise<void>((r) => cookieServer.listen(0, "127.0.0.1", r));
	cookieBase = `http://127.0.0.1:${(cookieServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await server.close();
	await new Promise((r) => cookieServer.close(r));
});

const request = (path: string, more: Partial<PreparedRequest> = {}): PreparedRequest => ({ method: "GET", url: `${server.url}${path}`, headers: [], body: "", followRedirects: true, timeoutMs: 10_000, ...more });

/** A clock the test moves: each reading is 5 ms after the last. */
function steppingClock() {
	let t = 1000;
	return () => (t += 5);
}

const done = (o: TransportOutcome) => {
	if (o.kind !== "done") throw new Error(`expected a response, got ${JSON.stringify(o)}`);
	return o;
};
const echoed = (o: TransportOutcome) => JSON.parse(new TextDecoder().decode(done(o).body)) as { method: string; headers: Array<[string, string]>; body: string };

describe("the requestUrl transport", () => {
	it("refuses a request with a client certificate of its own, sending nothing", async () => {
		const before = server.requests.length;
		const outcome = await createObsidianTransport(nodeRequestUrl().requestUrl, steppingClock()).send(request("/json", { clientTls: { pfx: new Uint8Array([1]) } }));
		expect(outcome).toEqual({ kind: "failed", code: "client_cert_unsupported", message: "The obsidian transport cannot present a client certificate: use the node transport (desktop, CLI)", timing: { total: 5 } });
		expect(server.requests.length).toBe(before);
	});

	it("says it cannot stream", () => {
		const t = createObsidianTransport(nodeRequestUrl().requestUrl);
		expect(t).toMatchObject({ name: "obsidian", streams: false });
	});

	it("sends method, headers and body, and gives the whole response with its head, one chunk and the time the clock measured", async () => {
		const chunks: number[] = [];
		const heads: number[] = [];
		const t = createObsidianTransport(nodeRequestUrl().requestUrl, steppingClock());
		const outcome = await t.send(request("/echo", { method: "POST", headers: [["Content-Type", "text/plain"]], body: "héllo" }), { onChunk: (_c, n) => chunks.push(n), onHeaders: (h) => heads.push(h.status) });
		const seen = echoed(outcome);
		expect(seen.method).toBe("POST");
		expect(Buffer.from(seen.body, "base64").toString()).toBe("héllo");
		expect(seen.headers).toContainEqual(["Content-Type", "text/plain"]);
		expect(done(outcome).head).toMatchObject({ status: 200, url: `${server.url}/echo` });
		expect(done(outcome).head.headers).toContainEqual(["content-type", "application/json"]);
		expect(heads).toEqual([200]);
		expect(chunks).toEqual([done(outcome).body.byteLength]);
		expect(done(outcome).timing).toEqual({ total: 5 });
		expect(done(outcome).rawRequestHead).toBe(`POST ${server.url}/echo HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n`);
		expect(done(outcome).requestBytes).toBe(done(outcome).rawRequestHead.length + Buffer.byteLength("héllo"));
	});

	it("joins a repeated request header with a comma, since requestUrl takes a header object", async () => {
		const { requestUrl, calls } = nodeRequestUrl();
		await createObsidianTransport(requestUrl).send(request("/echo", { headers: [["Accept", "text/plain"], ["X-Tag", "a"], ["accept", "application/json"]] }));
		expect(calls[0].headers).toEqual({ Accept: "text/plain, application/json", "X-Tag": "a" });
	});

	it("sends a body with file parts as its bytes, and no body when there is none", async () => {
		const { requestUrl, calls } = nodeRequestUrl();
		const t = createObsidianTransport(requestUrl);
		const bytes = Uint8Array.from([0, 1, 2, 255]);
		const seen = echoed(await t.send(request("/echo", { method: "POST", body: "< ./file.bin", bodyBytes: bytes.subarray(0) })));
		expect([...Buffer.from(seen.body, "base64")]).toEqual([0, 1, 2, 255]);
		await t.send(request("/echo"));
		expect(calls[1].body).toBeUndefined();
	});

	it("sends the jar's cookies and stores the cookie a response sets", async () => {
		const jars = new CookieJars();
		const cookies = jars.for("dev");
		const t = createObsidianTransport(nodeRequestUrl().requestUrl);
		await t.send(request("", { url: `${cookieBase}/login` }), { cookies });
		expect(jars.list("dev").map((c) => `${c.name}=${c.value}`)).toEqual(["session=abc"]);
		const sent = done(await t.send(request("", { url: `${cookieBase}/me`, headers: [["Cookie", "mine=1"]] }), { cookies }));
		expect(new TextDecoder().decode(sent.body)).toBe("mine=1; session=abc");
	});

	it("fails with connect_failed and requestUrl's reason when nothing listens", async () => {
		const port = await refusedPort();
		const outcome = await createObsidianTransport(nodeRequestUrl().requestUrl).send(request("", { url: `http://127.0.0.1:${port}/` }));
		expect(outcome).toMatchObject({ kind: "failed", code: "connect_failed" });
		expect(outcome.kind === "failed" && outcome.detail).toMatch(/ECONNREFUSED/);
	});

	it("fails with body_too_large once the whole body has passed the cap", async () => {
		const outcome = await createObsidianTransport(nodeRequestUrl().requestUrl).send(request("/huge?bytes=2048"), { maxBodyBytes: 1024 });
		expect(outcome).toMatchObject({ kind: "failed", code: "body_too_large", detail: "the body passed 1024 bytes" });
	});

	it("is cancelled at once by the user, though requestUrl cannot abort, and drops the late response", async () => {
		const heads: number[] = [];
		const chunks: number[] = [];
		const jars = new CookieJars();
		const abort = new AbortController();
		const { requestUrl } = nodeRequestUrl();
		let late: Promise<unknown> = Promise.resolve();
		const watched = (r: Parameters<typeof requestUrl>[0]) => {
			const answer = requestUrl(r);
			late = answer;
			return answer;
		};
		const sent = createObsidianTransport(watched).send(request("", { url: `${cookieBase}/login` }), { signal: abort.signal, cookies: jars.for("dev"), onHeaders: (h) => heads.push(h.status), onChunk: (_c, n) => chunks.push(n) });
		abort.abort();
		await expect(sent).resolves.toMatchObject({ kind: "cancelled", reason: "user" });
		// The transport awaited the same answer first, so its continuation has run by now.
		await late;
		expect({ heads, chunks, cookies: jars.list("dev") }).toEqual({ heads: [], chunks: [], cookies: [] });
	});

	it("is cancelled by an already aborted signal", async () => {
		const abort = new AbortController();
		abort.abort();
		await expect(createObsidianTransport(nodeRequestUrl().requestUrl).send(request("/held?id=before"), { signal: abort.signal })).resolves.toMatchObject({ kind: "cancelled", reason: "user" });
		server.release("before");
	});

	it("times out after the request's timeout when the response does not end", async () => {
		const outcome = await createObsidianTransport(nodeRequestUrl().requestUrl).send(request("/held?id=slow", { timeoutMs: 30 }));
		server.release("slow");
		expect(outcome).toMatchObject({ kind: "cancelled", reason: "timeout" });
	});
});
