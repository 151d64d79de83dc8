import { wireBody, type PreparedRequest } from "../request";
import type { Transport } from "../transport";

/** Token endpoints answer quickly; a provider that does not answer in this time is unreachable for us. */
const AUTH_TIMEOUT_MS = 30_000;

/** Why an identity provider could not be reached: the transport's words, as an error the grant step reports. */
export class AuthNetworkError extends Error {}

/**
 * `fetch` as oauth4webapi calls it (its `customFetch`), sent through the run's transport: so a
 * token request goes where the blocks' requests go (Node on desktop, `requestUrl` on mobile,
 * where the browser's fetch would be refused by CORS), with their timeout, and no redirect.
 */
export function transportFetch(transport: Transport, signal?: AbortSignal): (url: string, init: RequestInit) => Promise<Response> {
	return async (url, init) => {
		const headers: Array<[string, string]> = [];
		new Headers(init.headers).forEach((value, name) => headers.push([name, value]));
		const body = init.body === undefined || init.body === null ? "" : typeof init.body === "string" ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : null;
		if (body === null) throw new AuthNetworkError("unsupported request body");
		const request: PreparedRequest = { method: (init.method ?? "GET").toUpperCase() as PreparedRequest["method"], url, headers, body, followRedirects: false, timeoutMs: AUTH_TIMEOUT_MS, noCookieJar: true };
		const outcome = await transport.send({ ...request, bodyBytes: wireBody(request) }, { signal: signal ?? (init.signal as AbortSignal | undefined) });
		if (outcome.kind === "cancelled") throw new AuthNetworkError(outcome.reason === "timeout" ? `no answer within ${AUTH_TIMEOUT_MS / 1000} s` : "cancelled");
		if (outcome.kind === "failed") throw new AuthNetworkError(outcome.detail ? `${outcome.message}: ${outcome.detail}` : outcome.message);
		const responseHeaders = new Headers();
		for (const [name, value] of outcome.head.headers) responseHeaders.append(name, value);
		// A Response has no body for these statuses; the constructor refuses one.
		const empty = [101, 204, 205, 304].includes(outcome.head.status);
		return new Response(empty ? null : (outcome.body as BodyInit), { status: outcome.head.status, statusText: outcome.head.statusText, headers: responseHeaders });
	};
}
