/**
 * What the transport specs share: a request as prepare() would hand it to a transport, the body
 * of an outcome that must be done, and a server on 127.0.0.1 that redirects wherever its query
 * says (the test server's own redirects stay on its origin).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { PreparedRequest } from "../../src/runner/request";
import type { Transport, TransportOutcome } from "../../src/runner/transport";
import { startSilentServer, type TestServer } from "./servers";
import { until } from "./until";

/** A GET of `url` with no headers or body, redirects followed, a 10 s deadline; `patch` changes any of it. */
export function preparedRequest(url: string, patch: Partial<PreparedRequest> = {}): PreparedRequest {
	return { method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 10_000, ...patch };
}

/** The outcome as done; anything else fails the spec with the outcome shown. */
export function doneOutcome(o: TransportOutcome): Extract<TransportOutcome, { kind: "done" }> {
	if (o.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(o)}`);
	return o;
}

/** The outcome as failed with `code`; anything else fails the spec with the outcome shown. */
export function failure(o: TransportOutcome, code: string): Extract<TransportOutcome, { kind: "failed" }> {
	if (o.kind !== "failed" || o.code !== code) throw new Error(`expected [${code}], got ${JSON.stringify(o)}`);
	return o;
}

/** The body of a done outcome as UTF-8 text. */
export function bodyText(o: TransportOutcome): string {
	return new TextDecoder().decode(doneOutcome(o).body);
}

/** A server whose `/?to=<url>&status=<3xx>` answers that redirect (307 by default). */
export async function startRedirector(): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		const query = new URL(req.url ?? "/", "http://x").searchParams;
		req.resume();
		res.writeHead(Number(query.get("status") ?? 307), { Location: query.get("to") ?? "/" }).end();
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => {
			server.closeAllConnections();
			return new Promise((r) => server.close(() => r()));
		},
	};
}

/**
 * How every transport stops, as its spec's cases: Stop mid-body (the server sees the connection
 * close), an already aborted signal (nothing sent) and a server that never answers (timeout).
 */
export function itStopsLikeEveryTransport(transport: () => Transport, server: () => TestServer): void {
	it("cancels mid-body: cancelled by the user, and the server sees the connection close", async () => {
		const stop = new AbortController();
		let received = 0;
		const sending = transport().send(preparedRequest(`${server().url}/held?id=cancel`), { signal: stop.signal, onChunk: (_c, total) => (received = total) });
		await until(() => received > 0);
		stop.abort();
		expect(await sending).toMatchObject({ kind: "cancelled", reason: "user" });
		await until(() => server().closedEarly().includes("/held?id=cancel"));
	});

	it("sends nothing when the signal is already aborted", async () => {
		const before = server().requests.length;
		const stop = new AbortController();
		stop.abort();
		expect(await transport().send(preparedRequest(`${server().url}/echo`), { signal: stop.signal })).toMatchObject({ kind: "cancelled", reason: "user" });
		expect(server().requests.length).toBe(before);
	});

	it("ends with reason timeout when no head arrives in time", async () => {
		const silent = await startSilentServer();
		try {
			expect(await transport().send(preparedRequest(silent.url, { timeoutMs: 50 }))).toMatchObject({ kind: "cancelled", reason: "timeout" });
		} finally {
			await silent.close();
		}
	});
}
