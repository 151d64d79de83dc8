import type { RequestUrlParam, RequestUrlResponse } from "obsidian";
import { setCookiesOf, withJarCookies } from "../runner/cookie-jar";
import { MAX_BODY_BYTES, wireBody, type PreparedRequest } from "../runner/request";
import { failed, refusesClientCert, type SendOptions, type Timing, type Transport, type TransportOutcome } from "../runner/transport";

type RequestUrl = (request: RequestUrlParam) => Promise<RequestUrlResponse>;

/**
 * The `requestUrl` transport (mobile, and opt-in on desktop): it uses the system network
 * stack (proxy, OS certificates) but cannot stream or abort. Timeout and cancel therefore
 * resolve at once and the late response is discarded; timing is `total` only; the body cap
 * is checked when the whole body has arrived; repeated request headers are joined with ", "
 * (requestUrl takes a header object).
 */
export function createObsidianTransport(requestUrl: RequestUrl, now: () => number = () => performance.now()): Transport {
	return {
		name: "obsidian",
		streams: false,
		send: (request, opts = {}) => send(requestUrl, now, request, opts),
	};
}

function joinHeaders(headers: Array<[string, string]>): Record<string, string> {
	const out: Record<string, string> = {};
	const names = new Map<string, string>();
	for (const [n, v] of headers) {
		const key = names.get(n.toLowerCase());
		if (key === undefined) {
			names.set(n.toLowerCase(), n);
			out[n] = v;
		} else out[key] = `${out[key]}, ${v}`;
	}
	return out;
}

/** Text as text; a body with `< file` parts as its bytes (requestUrl takes an ArrayBuffer). */
function requestBody(request: PreparedRequest): string | ArrayBuffer | undefined {
	if (!request.bodyBytes) return request.body === "" ? undefined : request.body;
	const b = request.bodyBytes;
	return b.byteLength === 0 ? undefined : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

async function send(requestUrl: RequestUrl, now: () => number, request: PreparedRequest, opts: SendOptions): Promise<TransportOutcome> {
	const start = now();
	const timing = (): Timing => ({ total: now() - start });
	const refused = refusesClientCert(request, "obsidian", timing);
	if (refused) return refused;
	let timer: number | undefined;
	let onAbort: (() => void) | undefined;
	// Set when a cancel or the timeout won: the late response then reaches no callback and no jar (the run has ended).
	let over = false;
	const stopped = new Promise<TransportOutcome>((resolve) => {
		const stop = (outcome: TransportOutcome) => {
			over = true;
			resolve(outcome);
		};
		timer = window.setTimeout(() => stop({ kind: "cancelled", reason: "timeout", timing: timing() }), request.timeoutMs);
		onAbort = () => stop({ kind: "cancelled", reason: "user", timing: timing() });
		if (opts.signal?.aborted) onAbort();
		else opts.signal?.addEventListener("abort", onAbort);
	});
	const exchange = (async (): Promise<TransportOutcome> => {
		let res: RequestUrlResponse;
		try {
			res = await requestUrl({ url: request.url, method: request.method, headers: joinHeaders(withJarCookies(request.headers, opts.cookies?.header(request.url) ?? null)), body: requestBody(request), throw: false });
		} catch (e) {
			return failed("connect_failed", e instanceof Error ? e.message : String(e), timing());
		}
		if (over) return { kind: "cancelled", reason: "user", timing: timing() }; // never read: the race is settled
		const body = new Uint8Array(res.arrayBuffer);
		const cap = opts.maxBodyBytes ?? MAX_BODY_BYTES;
		if (body.byteLength > cap) return failed("body_too_large", `the body passed ${cap} bytes`, timing());
		const head = { status: res.status, statusText: "", httpVersion: "1.1", headers: Object.entries(res.headers), url: request.url, redirects: 0 };
		opts.cookies?.store(request.url, setCookiesOf(head.headers));
		opts.onHeaders?.(head);
		opts.onChunk?.(body, body.byteLength);
		const rawRequestHead = `${request.method} ${request.url} HTTP/1.1\r\n${request.headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
		return { kind: "done", head, body, timing: timing(), requestBytes: new TextEncoder().encode(rawRequestHead).byteLength + wireBody(request).byteLength, rawRequestHead };
	})();
	try {
		// Whichever ends first wins; a response arriving after a cancel or timeout is dropped.
		return await Promise.race([exchange, stopped]);
	} finally {
		window.clearTimeout(timer);
		if (onAbort) opts.signal?.removeEventListener("abort", onAbort);
	}
}
