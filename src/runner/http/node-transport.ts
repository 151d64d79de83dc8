import type * as Http from "node:http";
import type * as Https from "node:https";
import type * as Net from "node:net";
import type { Duplex } from "node:stream";
import type * as Zlib from "node:zlib";
import { setCookiesOf, withJarCookies } from "../cookie-jar";
import { MAX_BODY_BYTES, MAX_REDIRECTS, wireBody, type PreparedRequest } from "../request";
import { failed, type ResponseHead, type SendOptions, type Timing, type Transport, type TransportOutcome } from "../transport";
import { DEFAULT_IDLE_MS, idleLimitMs, retriesOnFreshConnection } from "./keep-alive";
import { formatRequestHead, invalidHeader } from "./raw-head";
import { basicAuthOf } from "./url-credentials";
import { withBlockCertificate, type TlsFor, type TlsOptions } from "./tls-options";
import { nodeTlsOptions } from "./node-tls";

/**
 * Node modules: the plugin bundle also runs on mobile, where they do not exist. `https` and
 * `zlib` load on first use (an https URL, an encoded body): together they cost a CLI start
 * ~15 ms, and a run against a plain-http API that does not compress needs neither.
 */
interface NodeModules {
	http: typeof Http;
	https(): typeof Https;
	zlib(): typeof Zlib;
}

export interface NodeTransportOptions {
	/** Accept self-signed / unknown certificates (off by default). */
	rejectUnauthorized?: boolean;
	/** Each https server's own TLS options (user.toml `[tls.*]`): a CA, no verification, a client certificate. */
	tls?: TlsFor;
}

/**
 * Headers added when the user did not write them. User-Agent and Accept-Encoding match what
 * REST clients send, so servers answer as they would to them; every other header is exactly
 * what the block says, in its order and casing.
 */
const DEFAULT_HEADERS: Array<[string, string]> = [
	["User-Agent", "runnable-blocks/0.1"],
	["Accept-Encoding", "gzip, deflate, br"],
];

const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET", "EADDRNOTAVAIL", "EPROTO", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"]);

class Ended extends Error {
	constructor(
		readonly outcome: TransportOutcome,
		/** Lost on a stale keep-alive connection: sent again on a fresh one (see retriesOnFreshConnection). */
		readonly retriable = false,
	) {
		super("ended");
	}
}

/**
 * Node's builtins through the CommonJS `require` Obsidian desktop hands to main.js. Never
 * `import()`: Obsidian leaves dynamic imports to Chromium's loader, which cannot load them.
 * Called only when a node transport is created, which the plugin does only on desktop.
 */
function requireNodeModules(): NodeModules {
	/* eslint-disable @typescript-eslint/no-require-imports -- see the comment above: require is the only loader Obsidian gives a plugin for Node builtins */
	let https: typeof Https | null = null;
	let zlib: typeof Zlib | null = null;
	return {
		http: require("http") as typeof Http,
		https: () => (https ??= require("https") as typeof Https),
		zlib: () => (zlib ??= require("zlib") as typeof Zlib),
	};
	/* eslint-enable @typescript-eslint/no-require-imports -- end of the three builtins */
}

/**
 * Creates the streaming transport over node:http/https with keep-alive agents. Throws where
 * Node's modules are missing (the caller turns that into a block error).
 */
export function createNodeTransport(options: NodeTransportOptions = {}): Transport & { close(): void } {
	const mods = requireNodeModules();
	const idleLimits = new WeakMap<Duplex, number>();
	const httpAgent = keepingAlive(new mods.http.Agent({ keepAlive: true }), idleLimits);
	let httpsAgent: Https.Agent | null = null;
	const agents: Agents = {
		http: httpAgent,
		// Only `false` is set on the agent: its options win over a request's (Node's addRequest), so a default `true` here would override a server's `verify = false`.
		https: () => (httpsAgent ??= keepingAlive(new (mods.https().Agent)({ keepAlive: true, ...(options.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}) }), idleLimits)),
		idleLimits,
		...(options.tls ? { tls: options.tls } : {}),
	};
	return {
		name: "node",
		streams: true,
		send: (request, opts = {}) => send(mods, agents, request, opts),
		close: () => {
			httpAgent.destroy();
			httpsAgent?.destroy();
		},
	};
}

interface Agents {
	http: Http.Agent;
	/** Made on the first https request. */
	https(): Https.Agent;
	/** Per connection, how long it may idle in the pool, from its last response's Keep-Alive hint (idleLimitMs). */
	idleLimits: WeakMap<Duplex, number>;
	tls?: TlsFor;
}

/** The server's own TLS options (user.toml `[tls.*]`); a missing file or secret ends the request. */
async function serverTls(tlsFor: TlsFor, url: URL, timing: Timing): Promise<TlsOptions | undefined> {
	try {
		return await tlsFor(url);
	} catch (e) {
		throw new Ended(failed("request_failed", e instanceof Error ? e.message : String(e), timing));
	}
}

/**
 * An https hop's TLS options, its CA besides the bundled roots (`nodeTlsOptions`): the server's,
 * with the block's own certificate (`ClientCert:`) in place of the server's one. The block's goes
 * only to the request's own origin, never to a server a redirect leads to; `# @no-client-cert`
 * drops the server's. The agent pools connections by these options, so they never mix.
 */
function hopTls(server: TlsOptions | undefined, request: PreparedRequest, sameOrigin: boolean): Https.RequestOptions | undefined {
	const options = withBlockCertificate(server, sameOrigin ? request.clientTls : undefined, request.noClientCert === true);
	return options && nodeTlsOptions(options);
}

/**
 * The agent keeps a connection only as long as its server said it would keep it. Node 20's agent
 * created without a `timeout` ignores the Keep-Alive hint and reuses a socket at any age, so a
 * request could cross the server's idle close on the wire; the agent destroys a pooled socket
 * when its timeout fires (Node's documented behaviour for `freeSockets`).
 */
function keepingAlive<A extends Http.Agent>(agent: A, idleLimits: WeakMap<Duplex, number>): A {
	// Node's own keepSocketAlive returns whether to pool the socket (typed `void` in @types/node).
	const pool = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean;
	agent.keepSocketAlive = (socket: Duplex) => {
		const idle = idleLimits.get(socket) ?? DEFAULT_IDLE_MS;
		if (idle <= 0 || !pool(socket)) return false;
		(socket as Net.Socket).setTimeout(idle);
		return true;
	};
	return agent;
}

/**
 * Takes the origin's idle connections out of the pool before a retry, which must go out on a
 * fresh connection: the agent would hand it the next pooled socket, maybe as stale as the one
 * that just failed. Agent names start `host:port:` (`agent.getName`); 'agentRemove' is Node's
 * documented way to take a socket out of an agent. With `maxSockets` unlimited (our agents), a
 * request with no free socket gets a new connection at once.
 */
function dropIdleConnections(agent: Http.Agent, url: URL): void {
	const prefix = `${hostnameOf(url)}:${url.port || (url.protocol === "https:" ? "443" : "80")}:`;
	for (const [name, sockets] of Object.entries(agent.freeSockets)) {
		if (!name.startsWith(prefix) || !sockets) continue;
		for (const socket of [...sockets]) {
			socket.emit("agentRemove");
			socket.destroy();
		}
	}
}

/** The URL's host as Node's request options take it (an IPv6 address without its brackets). */
function hostnameOf(url: URL): string {
	return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

interface Hop {
	method: string;
	url: URL;
	headers: Array<[string, string]>;
	body: Uint8Array;
}

async function send(mods: NodeModules, agents: Agents, request: PreparedRequest, opts: SendOptions): Promise<TransportOutcome> {
	const start = performance.now();
	const elapsed = () => performance.now() - start;
	const timing: Timing = { total: 0 };
	const finish = (o: TransportOutcome): TransportOutcome => {
		timing.total = elapsed();
		return o;
	};
	const badHeader = invalidHeader(request.headers);
	if (badHeader) return finish(failed("invalid_token", badHeader, timing));
	let url: URL;
	try {
		url = parsedUrl(request.url);
	} catch {
		return finish(failed("invalid_url", undefined, timing, request.url));
	}
	// One deadline over every hop: connect + headers + whole body (a timer, not an AbortController: this is the hot path).
	const stop: Stop = { reason: null, listener: null };
	const timer = setTimeout(() => {
		stop.reason ??= "timeout";
		stop.listener?.();
	}, request.timeoutMs);
	const onUserAbort = () => {
		stop.reason ??= "user";
		stop.listener?.();
	};
	if (opts.signal?.aborted) stop.reason = "user";
	opts.signal?.addEventListener("abort", onUserAbort);
	let retried = false;
	const attempt = async (hop: Hop, redirects: number): Promise<Exchange> => {
		// Only an https server with settings waits for them: every other request goes out in this task.
		const https = hop.url.protocol === "https:";
		const server = https && agents.tls ? await serverTls(agents.tls, hop.url, timing) : undefined;
		const tls = https ? hopTls(server, request, hop.url.origin === url.origin) : undefined;
		try {
			return await exchange(mods, agents, hop, redirects, opts, stop, timing, elapsed, tls);
		} catch (e) {
			// Once per run, and never after the user's cancel or the timeout.
			if (!(e instanceof Ended) || !e.retriable || retried || stop.reason) throw e;
			retried = true;
			dropIdleConnections(hop.url.protocol === "https:" ? agents.https() : agents.http, hop.url);
			return exchange(mods, agents, hop, redirects, opts, stop, timing, elapsed, tls);
		}
	};
	try {
		let hop: Hop = { method: request.method, url, headers: request.headers, body: wireBody(request) };
		for (let redirects = 0; ; redirects++) {
			const result = await attempt(hop, redirects);
			if (result.kind !== "redirect") return finish(result.outcome);
			if (!request.followRedirects) return finish(result.outcome);
			if (redirects >= MAX_REDIRECTS) {
				return finish(failed("too_many_redirects", `more than ${MAX_REDIRECTS}; last: ${result.location}`, timing));
			}
			hop = nextHop(hop, result.status, result.location);
		}
	} catch (e) {
		if (e instanceof Ended) return finish(e.outcome);
		return finish(failed("request_failed", e instanceof Error ? e.message : String(e), timing));
	} finally {
		clearTimeout(timer);
		opts.signal?.removeEventListener("abort", onUserAbort);
	}
}

let lastUrl: { text: string; url: URL } | null = null;

/**
 * The URL parsed, reusing the last parse when the text is the same (a run of one endpoint, a
 * polling loop): parsing was a tenth of the transport's own time per request. Safe to share:
 * nothing here changes a URL (a redirect parses a new one).
 */
function parsedUrl(text: string): URL {
	if (lastUrl?.text !== text) lastUrl = { text, url: new URL(text) };
	return lastUrl.url;
}

/** Why the run is being stopped, and the current exchange's hook to stop it. */
interface Stop {
	reason: "user" | "timeout" | null;
	listener: (() => void) | null;
}

/** RFC 9110 §15.4: 303 (and 301/302 for non-GET, as browsers do) become GET without a body. */
function nextHop(hop: Hop, status: number, location: string): Hop {
	const url = new URL(location, hop.url);
	const toGet = status === 303 || ((status === 301 || status === 302) && hop.method !== "GET" && hop.method !== "HEAD");
	const crossOrigin = url.origin !== hop.url.origin;
	const drop = new Set(["host", ...(toGet ? ["content-length", "content-type"] : []), ...(crossOrigin ? ["authorization", "cookie"] : [])]);
	return {
		method: toGet ? "GET" : hop.method,
		url,
		headers: hop.headers.filter(([n]) => !drop.has(n.toLowerCase())),
		body: toGet ? new Uint8Array(0) : hop.body,
	};
}

type Exchange = { kind: "final"; outcome: TransportOutcome } | { kind: "redirect"; status: number; location: string; outcome: TransportOutcome };

function isRedirect(status: number): boolean {
	return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The response headers the transport acts on, read in one pass over the raw pairs (the first of each). */
interface KeyHeaders {
	location?: string;
	contentEncoding?: string;
	contentLength?: string;
	keepAlive?: string;
}

function keyHeaders(pairs: ReadonlyArray<readonly [string, string]>): KeyHeaders {
	const out: KeyHeaders = {};
	for (const [n, v] of pairs) {
		// Lower-cased only at the lengths of the names sought ("location" 8, "keep-alive" 10, "content-length" 14, "content-encoding" 16).
		if (n.length === 8) {
			if (out.location === undefined && n.toLowerCase() === "location") out.location = v;
		} else if (n.length === 10) {
			if (out.keepAlive === undefined && n.toLowerCase() === "keep-alive") out.keepAlive = v;
		} else if (n.length === 14) {
			if (out.contentLength === undefined && n.toLowerCase() === "content-length") out.contentLength = v;
		} else if (n.length === 16) {
			if (out.contentEncoding === undefined && n.toLowerCase() === "content-encoding") out.contentEncoding = v;
		}
	}
	return out;
}

function headerPairs(raw: string[]): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
	return out;
}

/** One request/response on the wire. Resolves on the end of the body; rejects with Ended for every other end. */
function exchange(
	mods: NodeModules,
	agents: Agents,
	hop: Hop,
	redirects: number,
	opts: SendOptions,
	stop: Stop,
	timing: Timing,
	elapsed: () => number,
	tls: Https.RequestOptions | undefined,
): Promise<Exchange> {
	return new Promise<Exchange>((resolve, reject) => {
		const https = hop.url.protocol === "https:";
		const lib = https ? mods.https() : mods.http;
		const body = hop.body;
		// Each hop asks the jar again: a redirect's target may hold other cookies (or the 3xx just set one).
		const hopHeaders = withJarCookies(hop.headers, opts.cookies?.header(hop.url.href) ?? null);
		const names = new Set(hopHeaders.map(([n]) => n.toLowerCase()));
		// With raw header arrays Node adds no Host of its own: write it first, as clients do.
		const headers: string[] = names.has("host") ? [] : ["Host", hop.url.host];
		for (const [n, v] of hopHeaders) headers.push(n, v);
		// Node ignores `auth` with raw header arrays: the URL's credentials are written here, unless the block wrote its own.
		const credentials = names.has("authorization") ? null : basicAuthOf(hop.url);
		if (credentials !== null) headers.push("Authorization", credentials);
		for (const [n, v] of DEFAULT_HEADERS) if (!names.has(n.toLowerCase())) headers.push(n, v);
		// An empty body is declared as Content-Length: 0 for methods that carry one (RFC 9110 §8.6), never chunked.
		const declares = body.byteLength > 0 || !/^(GET|HEAD|OPTIONS|DELETE|TRACE|CONNECT)$/.test(hop.method);
		if (declares && !names.has("content-length") && !names.has("transfer-encoding")) headers.push("Content-Length", String(body.byteLength));
		const cap = opts.maxBodyBytes ?? MAX_BODY_BYTES;
		let settled = false;
		let responded = false;
		let req: Http.ClientRequest;
		let socket: Net.Socket | null = null;
		let reused = false;
		/** The socket's bytesRead when this request got it: any more are this request's response. */
		let readBefore = 0;
		const end = (outcome: TransportOutcome, retriable = false) => {
			if (settled) return;
			settled = true;
			cleanup();
			req?.destroy();
			reject(new Ended(outcome, retriable));
		};
		const onAbort = () => end({ kind: "cancelled", reason: stop.reason ?? "user", timing });
		const cleanup = () => {
			stop.listener = null;
		};
		if (stop.reason) {
			onAbort();
			return;
		}
		stop.listener = onAbort;
		try {
			req = lib.request({
				protocol: hop.url.protocol,
				hostname: hostnameOf(hop.url),
				port: hop.url.port || undefined,
				path: hop.url.pathname + hop.url.search,
				method: hop.method,
				headers,
				agent: https ? agents.https() : agents.http,
				setHost: true,
				...tls,
			});
		} catch (e) {
			const code = (e as NodeJS.ErrnoException).code;
			end(failed(code === "ERR_INVALID_HTTP_TOKEN" ? "invalid_token" : "request_failed", String(e), timing));
			return;
		}
		req.on("socket", (s: Net.Socket) => {
			socket = s;
			readBefore = s.bytesRead;
			reused = req.reusedSocket;
			timing.connectionReused = reused;
			if (reused) return;
			s.once("lookup", () => (timing.dns = elapsed()));
			s.once("connect", () => (timing.connect = elapsed()));
			s.once("secureConnect", () => (timing.tls = elapsed()));
		});
		req.on("error", (e: NodeJS.ErrnoException) => {
			if (settled) return;
			const connect = e.code !== undefined && CONNECT_ERRORS.has(e.code) && !responded;
			const lost = {
				method: hop.method,
				reusedSocket: reused,
				responseBytes: (socket?.bytesRead ?? readBefore) - readBefore,
				idempotencyKey: names.has("idempotency-key") || names.has("x-idempotency-key"),
				code: e.code,
				syscall: e.syscall,
			};
			end(failed(connect ? "connect_failed" : "protocol_error", e.message, timing), retriesOnFreshConnection(lost));
		});
		req.on("response", (res: Http.IncomingMessage) => {
			responded = true;
			timing.ttfb = elapsed();
			const head: ResponseHead = {
				status: res.statusCode ?? 0,
				statusText: res.statusMessage ?? "",
				httpVersion: res.httpVersion,
				headers: headerPairs(res.rawHeaders),
				url: hop.url.href,
				redirects,
			};
			opts.cookies?.store(hop.url.href, setCookiesOf(head.headers));
			// Read from the raw pairs: res.headers would build a second header object per response.
			const key = keyHeaders(head.headers);
			if (socket) agents.idleLimits.set(socket, idleLimitMs(key.keepAlive));
			const location = key.location;
			const rawRequestHead = requestHeadText(req);
			const requestBytes = Buffer.byteLength(rawRequestHead) + body.byteLength;
			if (location && isRedirect(res.statusCode ?? 0)) {
				// Drain and keep the socket for reuse; the 3xx is the outcome when redirects are off.
				res.resume();
				res.on("end", () => {
					if (settled) return;
					settled = true;
					cleanup();
					resolve({ kind: "redirect", status: res.statusCode ?? 0, location, outcome: { kind: "done", head, body: new Uint8Array(0), timing, requestBytes, rawRequestHead } });
				});
				return;
			}
			opts.onHeaders?.(head);
			const stream = decoded(mods, res, key.contentEncoding ?? "");
			const declared = stream === res ? Number(key.contentLength ?? NaN) : NaN;
			// A declared length over the cap can only end in [body_too_large]: hang up now instead of
			// reading (and holding) up to the cap first. HEAD, 204 and 304 declare a length but carry no body.
			if (declared > cap && hop.method !== "HEAD" && res.statusCode !== 204 && res.statusCode !== 304) {
				end(failed("body_too_large", `the body passed ${cap} bytes (Content-Length: ${declared})`, timing));
				res.destroy();
				return;
			}
			const sink = new BodySink(declared, cap);
			stream.on("data", (chunk: Uint8Array) => {
				// Checked at every chunk boundary: nothing is kept after a cancel.
				if (settled || stop.reason) return;
				if (!sink.add(chunk)) {
					end(failed("body_too_large", `the body passed ${cap} bytes`, timing));
					res.destroy();
					return;
				}
				opts.onChunk?.(chunk, sink.received);
			});
			// An error of the decoder is the encoding's; one of the response itself, the connection's.
			if (stream !== res) stream.on("error", (e: Error) => end(failed("decode_failed", e.message, timing)));
			res.on("error", (e: Error) => end(failed("protocol_error", e.message, timing)));
			stream.on("end", () => {
				if (settled) return;
				if (!res.complete) {
					end(failed("protocol_error", "the connection closed before the body ended", timing));
					return;
				}
				settled = true;
				cleanup();
				resolve({ kind: "final", outcome: { kind: "done", head, body: sink.bytes(), timing, requestBytes, rawRequestHead } });
			});
		});
		req.end(body.byteLength > 0 ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : undefined);
	});
}

/** The response body stream, decompressed when the server encoded it. */
function decoded(mods: NodeModules, res: Http.IncomingMessage, contentEncoding: string): NodeJS.ReadableStream {
	const encoding = contentEncoding.toLowerCase().trim();
	let decoder: Zlib.Gunzip | Zlib.Inflate | Zlib.BrotliDecompress | null = null;
	if (encoding === "gzip" || encoding === "x-gzip") decoder = mods.zlib().createGunzip();
	else if (encoding === "deflate") decoder = mods.zlib().createInflate();
	else if (encoding === "br") decoder = mods.zlib().createBrotliDecompress();
	if (!decoder) return res;
	res.on("error", (e) => decoder?.destroy(e));
	return res.pipe(decoder);
}

/**
 * Collects a body without holding it twice: a body that arrives in one chunk of its
 * Content-Length is kept as it came (no copy: the common small response); with a Content-Length
 * (and no content coding) a body in several chunks goes straight into one buffer of that size;
 * otherwise chunks are joined once at the end.
 */
class BodySink {
	received = 0;
	private readonly chunks: Uint8Array[] = [];
	private buffer: Uint8Array | null = null;
	private readonly declared: number;

	constructor(
		contentLength: number,
		private readonly cap: number,
	) {
		this.declared = Number.isSafeInteger(contentLength) && contentLength > 0 && contentLength <= cap ? contentLength : -1;
	}

	/** Adds a chunk; false when the cap is passed (nothing more is kept). */
	add(chunk: Uint8Array): boolean {
		const next = this.received + chunk.byteLength;
		if (next > this.cap) return false;
		// The first chunk decides: all of the declared body (kept as is), or part of it (one buffer of the length).
		if (this.received === 0 && this.buffer === null && this.chunks.length === 0 && chunk.byteLength < this.declared) this.buffer = new Uint8Array(this.declared);
		if (this.buffer && next <= this.buffer.byteLength) this.buffer.set(chunk, this.received);
		else {
			if (this.buffer && this.chunks.length === 0) this.chunks.push(this.buffer.subarray(0, this.received));
			this.chunks.push(chunk);
		}
		this.received = next;
		return true;
	}

	bytes(): Uint8Array {
		if (this.chunks.length === 0) return this.buffer ? this.buffer.subarray(0, this.received) : new Uint8Array(0);
		if (this.chunks.length === 1) return this.chunks[0];
		const out = new Uint8Array(this.received);
		let o = 0;
		for (const c of this.chunks) {
			out.set(c, o);
			o += c.byteLength;
		}
		return out;
	}
}

/** The request head Node wrote (`_header` is the exact text it put on the socket). */
function requestHeadText(req: Http.ClientRequest): string {
	const header = (req as unknown as { _header?: string })._header;
	return typeof header === "string" ? header : formatRequestHead(req.method, req.path, req.getRawHeaderNames().map((n): [string, string] => [n, String(req.getHeader(n))]));
}
