import { setCookiesOf, withJarCookies } from "../cookie-jar";
import { MAX_BODY_BYTES, wireBody, type PreparedRequest } from "../request";
import { failed, refusesClientCert, type ResponseHead, type SendOptions, type Timing, type Transport, type TransportOutcome } from "../transport";
import { formatRequestHead, invalidHeader, requestTarget } from "./raw-head";
import { basicAuthOf } from "./url-credentials";

/**
 * Request headers `fetch` will not let a script set (Fetch standard, "forbidden request-header
 * names", plus the `proxy-` and `sec-` prefixes). They are skipped silently: the runtime writes
 * its own Host, Content-Length, Connection, Cookie…; the Raw tab shows Host and Content-Length
 * as the runtime will write them.
 */
const FORBIDDEN_HEADERS = new Set([
	"accept-charset",
	"accept-encoding",
	"access-control-request-headers",
	"access-control-request-method",
	"connection",
	"content-length",
	"cookie",
	"cookie2",
	"date",
	"dnt",
	"expect",
	"host",
	"keep-alive",
	"origin",
	"referer",
	"set-cookie",
	"te",
	"trailer",
	"transfer-encoding",
	"upgrade",
	"via",
]);

/** The redirect limit of the Fetch standard (the node transport stops at MAX_REDIRECTS). */
const FETCH_MAX_REDIRECTS = 20;

function isForbidden(name: string): boolean {
	const lower = name.toLowerCase();
	return FORBIDDEN_HEADERS.has(lower) || lower.startsWith("proxy-") || lower.startsWith("sec-");
}

type Fetch = typeof fetch;

/**
 * The streaming transport for runtimes without Node (mobile, a browser) talking to targets that
 * allow CORS: `fetch` with the response body read chunk by chunk.
 *
 * - Headers reach `onHeaders` as soon as `fetch()` resolves; chunks reach `onChunk` as they arrive.
 * - Cancel and the block timeout abort the fetch (an AbortController linked to `options.signal`),
 *   which closes the connection; the body cap is enforced at every chunk.
 * - Timing: `total` and `ttfb` (until `fetch()` resolved) only; fetch exposes nothing finer.
 * - Redirects are followed by the runtime (`redirect: "follow"`, at most 20 by the Fetch
 *   standard). Fetch does not say how many hops there were, only whether there was one, so
 *   `head.redirects` is `response.redirected ? 1 : 0` and `head.url` the final URL. With
 *   `# @no-redirect` the request uses `redirect: "manual"`: Node's fetch then returns the 3xx
 *   itself, a browser an opaque redirect without status or headers, which fails the run clearly.
 * - Response headers come in `Headers` iteration order (sorted, lower-cased, repeats joined by
 *   ", "), except Set-Cookie, kept one entry per cookie through `getSetCookie()` where the
 *   runtime has it. In a browser, CORS hides every response header the server does not list in
 *   Access-Control-Expose-Headers.
 * - The body is decoded by the runtime (gzip/deflate/br); the cap applies to decoded bytes.
 */
export class FetchTransport implements Transport {
	readonly name = "fetch";
	readonly streams = true;
	private readonly fetchImpl: Fetch;

	/** `fetchImpl` defaults to the global `fetch`, looked up at each call. */
	constructor(fetchImpl?: Fetch) {
		this.fetchImpl = fetchImpl ?? ((input, init) => fetch(input, init));
	}

	send(request: PreparedRequest, options: SendOptions = {}): Promise<TransportOutcome> {
		return send(this.fetchImpl, request, options);
	}
}

interface ErrorLike {
	name?: unknown;
	message: string;
	code?: unknown;
	cause?: unknown;
}

/** Duck-typed: errors from another realm (a popout window, Node's fetch under a VM) fail `instanceof Error`. */
function errorLike(e: unknown): ErrorLike | null {
	return typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string" ? (e as ErrorLike) : null;
}

/** The error and its cause, e.g. "fetch failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9". */
function describe(e: unknown): string {
	const err = errorLike(e);
	if (!err) return String(e);
	const cause = errorLike(err.cause);
	if (cause) {
		const code = typeof cause.code === "string" && !cause.message.includes(cause.code) ? `${cause.code} ` : "";
		return `${err.message}: ${code}${cause.message}`;
	}
	return typeof err.cause === "string" ? `${err.message}: ${err.cause}` : err.message;
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
	if (chunks.length === 1) return chunks[0];
	const out = new Uint8Array(size);
	let offset = 0;
	for (const c of chunks) {
		out.set(c, offset);
		offset += c.byteLength;
	}
	return out;
}

/** Response headers as pairs; every Set-Cookie stays its own entry where the runtime allows it. */
function responseHeaders(headers: Headers): Array<[string, string]> {
	const withCookies = headers as Headers & { getSetCookie?: () => string[] };
	const cookies = typeof withCookies.getSetCookie === "function" ? withCookies.getSetCookie() : null;
	const out: Array<[string, string]> = [];
	let cookiesAdded = false;
	headers.forEach((value, name) => {
		if (cookies && name === "set-cookie") {
			if (!cookiesAdded) for (const c of cookies) out.push([name, c]);
			cookiesAdded = true;
		} else out.push([name, value]);
	});
	return out;
}

async function send(fetchImpl: Fetch, request: PreparedRequest, opts: SendOptions): Promise<TransportOutcome> {
	const start = performance.now();
	const elapsed = () => performance.now() - start;
	const timing: Timing = { total: 0 };
	const finish = (o: TransportOutcome): TransportOutcome => {
		timing.total = elapsed();
		return o;
	};
	const badHeader = invalidHeader(request.headers);
	if (badHeader) return finish(failed("invalid_token", badHeader, timing));
	const refused = refusesClientCert(request, "fetch", () => timing);
	if (refused) return finish(refused);
	let url: URL;
	let authorization: string | null = null;
	try {
		url = new URL(request.url);
		// fetch refuses URLs with credentials: send them as Basic auth, as the node transport does.
		authorization = basicAuthOf(url);
		if (authorization !== null) {
			url.username = "";
			url.password = "";
		}
	} catch {
		return finish(failed("invalid_url", undefined, timing, request.url));
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		return finish(failed("invalid_url", "only http and https URLs can be requested", timing, request.url));
	}
	const wire = wireBody(request);
	const body = wire.byteLength === 0 ? null : wire;
	if (body && (request.method === "GET" || request.method === "HEAD")) {
		return finish(failed("body_not_allowed", "fetch refuses a body on GET and HEAD; use the node transport to send it", timing, request.method));
	}

	// A browser's fetch sends no Cookie header of ours (forbidden) and shows no Set-Cookie: the jar then works with the node transport only.
	const sent: Array<[string, string]> = withJarCookies(request.headers, opts.cookies?.header(url.href) ?? null).filter(([n]) => !isForbidden(n));
	if (authorization !== null && !sent.some(([n]) => n.toLowerCase() === "authorization")) sent.push(["Authorization", authorization]);
	let headers: Headers;
	try {
		headers = new Headers();
		for (const [n, v] of sent) headers.append(n, v);
	} catch (e) {
		return finish(failed("invalid_token", describe(e), timing));
	}
	const rawRequestHead = formatRequestHead(request.method, requestTarget(url), [["Host", url.host], ...sent, ...(body ? [["Content-Length", String(body.byteLength)] as [string, string]] : [])]);
	const requestBytes = new TextEncoder().encode(rawRequestHead).byteLength + (body?.byteLength ?? 0);

	// One deadline (connect + headers + whole body) and the user's signal abort the same controller.
	const controller = new AbortController();
	let stopReason: "user" | "timeout" | null = null;
	const stop = (reason: "user" | "timeout") => {
		stopReason ??= reason;
		controller.abort();
	};
	const cancelled = (): TransportOutcome => finish({ kind: "cancelled", reason: stopReason ?? "user", timing });
	const onUserAbort = () => stop("user");
	if (opts.signal?.aborted) return cancelled();
	opts.signal?.addEventListener("abort", onUserAbort);
	const timer = setTimeout(() => stop("timeout"), request.timeoutMs);
	try {
		let response: Response;
		try {
			response = await fetchImpl(url.href, {
				method: request.method,
				headers,
				// A Blob, not the bytes: Node 20's fetch detaches a typed-array body and then fails to
				// re-send it on a 307/308. An untyped Blob adds no Content-Type.
				body: body ? new Blob([body as Uint8Array<ArrayBuffer>]) : null,
				redirect: request.followRedirects ? "follow" : "manual",
				// The plugin has its own cache; a run always goes to the network.
				cache: "no-store",
				signal: controller.signal,
			});
		} catch (e) {
			if (stopReason) return cancelled();
			const detail = describe(e);
			if (/redirect count exceeded/i.test(detail)) {
				return finish(failed("too_many_redirects", `more than ${FETCH_MAX_REDIRECTS}; ${detail}`, timing));
			}
			// A browser reports DNS, refused, TLS and CORS refusals alike ("Failed to fetch").
			return finish(failed("connect_failed", errorLike(e)?.cause === undefined ? `${detail} (a network error, or the server does not allow this origin: CORS)` : detail, timing));
		}
		if (stopReason) return cancelled();
		timing.ttfb = elapsed();
		if (response.type === "opaqueredirect") {
			controller.abort();
			return finish(failed("protocol_error", `a redirect from ${response.url || url.href} was not followed (# @no-redirect) and fetch does not show it; use the node transport to see the 3xx response`, timing));
		}
		const head: ResponseHead = {
			status: response.status,
			statusText: response.statusText,
			httpVersion: "1.1",
			headers: responseHeaders(response.headers),
			url: response.url || url.href,
			redirects: response.redirected ? 1 : 0,
		};
		opts.cookies?.store(head.url, setCookiesOf(head.headers));
		opts.onHeaders?.(head);

		const cap = opts.maxBodyBytes ?? MAX_BODY_BYTES;
		const chunks: Uint8Array[] = [];
		let received = 0;
		const reader = response.body?.getReader();
		while (reader) {
			let read: ReadableStreamReadResult<Uint8Array>;
			try {
				read = await reader.read();
			} catch (e) {
				if (stopReason) return cancelled();
				return finish(failed("protocol_error", describe(e), timing));
			}
			// Checked at every chunk boundary: nothing is kept after a cancel.
			if (stopReason) return cancelled();
			if (read.done) break;
			const chunk = read.value;
			if (received + chunk.byteLength > cap) {
				// Stop reading at the cap: aborting closes the connection, memory stays bounded.
				controller.abort();
				return finish(failed("body_too_large", `the body passed ${cap} bytes`, timing));
			}
			chunks.push(chunk);
			received += chunk.byteLength;
			opts.onChunk?.(chunk, received);
		}
		if (stopReason) return cancelled();
		return finish({ kind: "done", head, body: join(chunks, received), timing, requestBytes, rawRequestHead });
	} finally {
		clearTimeout(timer);
		opts.signal?.removeEventListener("abort", onUserAbort);
	}
}
