import { executeRequest, type ExecutorDeps, type HistoryEntry } from "../../../src/runner/executor";
import type { HttpResult } from "../../../src/runner/http/http-run";
import { ByteLruCache } from "../../../src/runner/lru-cache";
import type { PreparedRequest } from "../../../src/runner/request";
import type { RunState } from "../../../src/runner/result";
import { failed, type SendOptions, type Transport, type TransportOutcome } from "../../../src/runner/transport";

const get: PreparedRequest = { method: "GET", url: "http://127.0.0.1:1/books", headers: [], body: "", followRedirects: true, timeoutMs: 1000 };
const head = (status = 200, headers: Array<[string, string]> = []) => ({ status, statusText: "OK", httpVersion: "1.1", headers, url: get.url, redirects: 0 });

/** A transport that streams a head and one chunk, then ends with `end` (a 200 "ok" unless told). */
function streaming(end?: TransportOutcome): Transport & { sends: number } {
	const t = {
		name: "node" as const,
		streams: true,
		sends: 0,
		send(request: PreparedRequest, options: SendOptions = {}): Promise<TransportOutcome> {
			t.sends++;
			const body = new TextEncoder().encode("ok");
			options.onHeaders?.(head());
			options.onChunk?.(body, body.byteLength);
			return Promise.resolve(end ?? { kind: "done", head: head(200, [["Content-Type", "text/plain"]]), body, timing: { total: 7 }, requestBytes: 40, rawRequestHead: "GET /books HTTP/1.1\r\n\r\n" });
		},
	};
	return t;
}

function deps(transport: Transport, extra: Partial<ExecutorDeps> = {}): ExecutorDeps & { rows: HistoryEntry[] } {
	const rows: HistoryEntry[] = [];
	let clock = 1_000;
	return { transport, cacheKey: (r) => `${r.method} ${r.url}`, history: { record: (e) => rows.push(e) }, now: () => (clock += 10), rows, ...extra };
}

const options = (extra: object = {}) => ({ envSnapshot: {}, filePath: "api.md", historyAlias: "books", ...extra });

describe("executeRequest", () => {
	it("moves a run through running and streaming to done, and records one history row with no body", async () => {
		const states: RunState[] = [];
		const d = deps(streaming());
		const result = await executeRequest(get, d, options({ onUpdate: (s: { state: RunState }) => states.push(s.state) }));
		expect(states).toEqual(["running", "streaming", "streaming", "done"]);
		expect(result).toMatchObject({ kind: "http", state: "done", receivedBytes: 2, requestBytes: 40, transport: "node", startedAt: 1_010, head: { status: 200 } });
		expect(d.rows).toEqual([{ filePath: "api.md", alias: "books", method: "GET", url: get.url, status: 200, outcome: "done", errorCode: null, requestBytes: 40, responseBytes: 2, durationMs: 7, timestamp: 1_010, transport: "node" }]);
	});

	it("serves a repeated GET from the cache, unless forced, and records it as cached", async () => {
		const transport = streaming();
		const d = deps(transport, { cache: new ByteLruCache<HttpResult>() });
		const first = await executeRequest(get, d, options());
		const second = await executeRequest(get, d, options());
		expect(transport.sends).toBe(1);
		expect(second).toMatchObject({ state: "cached", cachedAt: first.startedAt });
		expect(d.rows[1]).toMatchObject({ outcome: "cached", requestBytes: 0, durationMs: 0 });
		await executeRequest(get, d, options({ force: true }));
		expect(transport.sends).toBe(2);
	});

	it("keys a request only after it left while the cache is empty: the first run of a session hashes nothing before sending", async () => {
		const order: string[] = [];
		const transport = streaming();
		const send = transport.send.bind(transport);
		transport.send = (r, o) => (order.push("sent"), send(r, o));
		const d = deps(transport, { cache: new ByteLruCache<HttpResult>(), cacheKey: (r) => (order.push("keyed"), `${r.method} ${r.url}`) });
		await executeRequest(get, d, options());
		expect(order).toEqual(["sent", "keyed"]);
		order.length = 0;
		// Now the cache holds the answer: the next run looks it up first, and is served from it.
		await expect(executeRequest(get, d, options())).resolves.toMatchObject({ state: "cached" });
		expect(order).toEqual(["keyed"]);
	});

	it("does not store a no-store response, nor cache a POST, and a successful POST drops its URL's entry", async () => {
		const transport = streaming();
		const cache = new ByteLruCache<HttpResult>();
		const d = deps(transport, { cache });
		const noStore = streaming({ kind: "done", head: head(200, [["Cache-Control", "no-store"]]), body: new Uint8Array(), timing: { total: 1 }, requestBytes: 0, rawRequestHead: "" });
		await executeRequest(get, { ...d, transport: noStore }, options());
		expect(cache.get(`GET ${get.url}`)).toBeUndefined();
		await executeRequest(get, d, options());
		expect(cache.get(`GET ${get.url}`)).toBeDefined();
		await executeRequest({ ...get, method: "POST" }, d, options());
		expect(cache.get(`GET ${get.url}`)).toBeUndefined();
		expect(cache.get(`POST ${get.url}`)).toBeUndefined();
	});

	it("ends failed or cancelled with the error's text, keeping no partial body", async () => {
		const refused = await executeRequest(get, deps(streaming(failed("connect_failed", "ECONNREFUSED", { total: 3 }))), options());
		expect(refused).toMatchObject({ state: "failed", error: { code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED" } });
		expect(refused.body).toBeUndefined();
		const timedOut = await executeRequest(get, deps(streaming({ kind: "cancelled", reason: "timeout", timing: { total: 1000 } })), options());
		expect(timedOut).toMatchObject({ state: "cancelled", error: { code: "timeout", message: "Request cancelled" } });
		expect(timedOut.body).toBeUndefined();
		const d = deps(streaming({ kind: "cancelled", reason: "user", timing: { total: 5 } }));
		expect(await executeRequest(get, d, options())).toMatchObject({ state: "cancelled", error: { code: "cancelled", message: "[cancelled]" } });
		expect(d.rows[0]).toMatchObject({ outcome: "cancelled", errorCode: "cancelled", status: 200, responseBytes: 0 });
	});

	it("records the URL masked for display, then by value", async () => {
		const secret: PreparedRequest = { ...get, url: `${get.url}?k=s3cret`, masked: { url: `${get.url}?k=•••`, target: "/books?k=•••", headers: [], body: "", withReferences: { url: `${get.url}?k={{k}}`, headers: [], body: "" } } };
		const d = deps(streaming());
		await executeRequest(secret, d, options({ maskUrl: (u: string) => u.replace("books", "b***s") }));
		expect(d.rows[0].url).toBe("http://127.0.0.1:1/b***s?k=•••");
	});
});
