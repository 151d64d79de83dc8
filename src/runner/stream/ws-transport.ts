/**
 * How a websocket block reaches its server (docs/streams.md): the `ws` library where Node is
 * (desktop, the CLI: handshake headers, the cookie jar, TLS settings, ping answered by pong), the
 * browser's WebSocket elsewhere (mobile: no custom headers, no cookie jar of ours). Both report
 * the same events; `open` never throws (a failure is `onError`).
 */
import type WsModule from "ws";
import type { RunCookies } from "../cookie-jar";
import type { ResponseHead } from "../transport";
import { withBlockCertificate, type TlsFor, type TlsOptions } from "../http/tls-options";
import type { ClientTls } from "../request";
import { nodeTlsOptions } from "../http/node-tls";

export interface WsOpenOptions {
	/** ws:// or wss:// */
	url: string;
	headers: Array<[string, string]>;
	/** Sub-protocols offered (`graphql-transport-ws`). */
	protocols: string[];
	cookies?: RunCookies;
	/** The block's own client certificate (`ClientCert:`), presented in place of the server's `[tls]` one. */
	clientTls?: ClientTls;
	/** `# @no-client-cert`: the server's `[tls]` certificate is not presented. */
	noClientCert?: boolean;
}

export interface WsEvents {
	/** The upgrade was accepted (101): its response head. */
	open(head: ResponseHead): void;
	message(data: string | Uint8Array): void;
	/** The upgrade was refused: the ordinary http response it is (401, 404…). */
	refused(head: ResponseHead, body: Uint8Array): void;
	/** The connection closed: the close frame's code and reason (1006 without one). */
	closed(code: number, reason: string): void;
	/** Connecting or the connection failed (`closed` follows when it had opened). */
	error(message: string): void;
}

export interface WsConnection {
	send(data: string | Uint8Array): void;
	/** Sends a close frame; `terminate` drops the socket at once (a server that never answers the close). */
	close(code: number, reason: string): void;
	terminate(): void;
}

export interface WebsocketTransport {
	readonly name: "ws" | "browser";
	/** Whether the handshake carries the block's headers (the browser's WebSocket sends none). */
	readonly sendsHeaders: boolean;
	open(options: WsOpenOptions, events: WsEvents): WsConnection;
}

/** `ws`, required when a websocket block first runs (never at start-up). */
function loadWs(): typeof WsModule {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use: bundled into main.js, from node_modules by the CLI
	return require("ws") as typeof WsModule;
}

/** What the handshake's response tells (Node's IncomingMessage, as `ws` hands it). */
interface UpgradeResponse {
	statusCode?: number;
	statusMessage?: string;
	httpVersion: string;
	rawHeaders: string[];
}

function headOf(res: UpgradeResponse, url: string): ResponseHead {
	const headers: Array<[string, string]> = [];
	for (let k = 0; k + 1 < res.rawHeaders.length; k += 2) headers.push([res.rawHeaders[k], res.rawHeaders[k + 1]]);
	return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", httpVersion: res.httpVersion, headers, url, redirects: 0 };
}

function setCookiesOf(head: ResponseHead): string[] {
	return head.headers.filter(([n]) => n.toLowerCase() === "set-cookie").map(([, v]) => v);
}

/**
 * The `ws` transport: `rejectUnauthorized` as the node http transport's setting, and a wss server's
 * `[tls.*]` of user.toml (`tls`, read before the socket is made: the connection waits for it),
 * with the block's own certificate in place of the server's one.
 */
export function createWsTransport(options: { rejectUnauthorized?: boolean; tls?: TlsFor } = {}, load: () => typeof WsModule = loadWs): WebsocketTransport {
	return {
		name: "ws",
		sendsHeaders: true,
		open(o, events) {
			const tlsFor = options.tls;
			const secure = /^wss:/i.test(o.url);
			const tlsWith = (server: TlsOptions | undefined) => {
				const merged = withBlockCertificate(server, o.clientTls, o.noClientCert === true);
				return { rejectUnauthorized: options.rejectUnauthorized ?? true, ...(merged ? nodeTlsOptions(merged) : {}) };
			};
			if (!secure) return connect(o, events, { rejectUnauthorized: options.rejectUnauthorized ?? true }, load);
			if (!tlsFor) return connect(o, events, tlsWith(undefined), load);
			// Until the server's TLS settings are read there is no socket: a close or terminate before then ends the run as a dropped connection.
			let live: WsConnection | null = null;
			let ended = false;
			const end = () => {
				if (live || ended) return;
				ended = true;
				events.closed(1006, "");
			};
			void tlsFor(new URL(o.url.replace(/^ws/i, "http"))).then(
				(tls) => {
					if (!ended) live = connect(o, events, tlsWith(tls), load);
				},
				(e: unknown) => {
					if (ended) return;
					ended = true;
					events.error(e instanceof Error ? e.message : String(e));
				},
			);
			return {
				send: (data) => live?.send(data),
				close: (code, reason) => (live ? live.close(code, reason) : end()),
				terminate: () => (live ? live.terminate() : end()),
			};
		},
	};
}

/** The socket, its events wired to `events`; a failure to make it is an error event, never a throw. */
function connect(o: WsOpenOptions, events: WsEvents, tls: Record<string, unknown>, load: () => typeof WsModule): WsConnection {
	const headers: Record<string, string> = {};
	for (const [name, value] of o.headers) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
	const jar = o.cookies?.header(o.url.replace(/^ws/i, "http"));
	if (jar && !Object.keys(headers).some((n) => n.toLowerCase() === "cookie")) headers.Cookie = jar;
	let socket: WsModule;
	try {
		const WebSocket = load();
		socket = new WebSocket(o.url, o.protocols, { headers, ...tls, followRedirects: false });
	} catch (e) {
		queueMicrotask(() => events.error(e instanceof Error ? e.message : String(e)));
		return { send: () => undefined, close: () => undefined, terminate: () => undefined };
	}
	let head: ResponseHead | null = null;
	socket.on("upgrade", (res) => {
		head = headOf(res, o.url);
		o.cookies?.store(o.url.replace(/^ws/i, "http"), setCookiesOf(head));
	});
	socket.on("open", () => events.open(head ?? { status: 101, statusText: "Switching Protocols", httpVersion: "1.1", headers: [], url: o.url, redirects: 0 }));
	socket.on("message", (data, isBinary) => {
		const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
		events.message(isBinary ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes.toString("utf8"));
	});
	socket.on("unexpected-response", (req, res) => {
		const refused = headOf(res, o.url);
		const chunks: Buffer[] = [];
		res.on("data", (c: Buffer) => chunks.push(c));
		res.on("end", () => {
			events.refused(refused, new Uint8Array(Buffer.concat(chunks)));
			req.destroy();
		});
	});
	socket.on("close", (code, reason) => events.closed(code, reason.toString("utf8")));
	socket.on("error", (e) => events.error(e.message));
	return {
		send: (data) => socket.send(data),
		close: (code, reason) => socket.close(code, reason),
		terminate: () => socket.terminate(),
	};
}

/** The browser's WebSocket (mobile, and wherever `ws` cannot load): no custom headers, no status or headers of the handshake. */
export function createBrowserWsTransport(Socket: typeof WebSocket): WebsocketTransport {
	return {
		name: "browser",
		sendsHeaders: false,
		open(o, events) {
			let socket: WebSocket;
			try {
				socket = new Socket(o.url, o.protocols);
			} catch (e) {
				queueMicrotask(() => events.error(e instanceof Error ? e.message : String(e)));
				return { send: () => undefined, close: () => undefined, terminate: () => undefined };
			}
			socket.binaryType = "arraybuffer";
			socket.onopen = () => events.open({ status: 101, statusText: "Switching Protocols", httpVersion: "1.1", headers: [], url: o.url, redirects: 0 });
			socket.onmessage = (e: MessageEvent) => events.message(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer));
			// The browser tells no reason for a failed connection (CORS, refused upgrade, TLS): only that it failed.
			socket.onerror = () => events.error("the WebSocket connection failed");
			socket.onclose = (e: CloseEvent) => events.closed(e.code, e.reason);
			return {
				send: (data) => socket.send(data),
				close: (code, reason) => socket.close(code, reason),
				terminate: () => socket.close(),
			};
		},
	};
}

/**
 * The transport where no host gave one: `ws` where Node runs (desktop, CLI), else the browser's
 * WebSocket, else none. A host may pass its own through the websocket kind's deps.
 */
export function defaultWebsocketTransport(tls?: TlsFor): WebsocketTransport | null {
	const node = typeof process !== "undefined" && typeof process.versions?.node === "string";
	if (node) {
		try {
			loadWs();
			return createWsTransport(tls ? { tls } : {});
		} catch {
			// `ws` could not load here: the browser's WebSocket below, if there is one.
		}
	}
	return typeof WebSocket === "function" ? createBrowserWsTransport(WebSocket) : null;
}
