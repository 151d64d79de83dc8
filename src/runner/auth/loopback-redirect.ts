/**
 * The browser's return from an authorization (RFC 8252 §7.3): a one-shot HTTP server on the
 * loopback address of the redirect URI, on its port or a free one. The first request to the
 * redirect's path ends the wait; any other path (a favicon) is answered 404 and ignored. It
 * listens only while one sign-in waits. Node only: the desktop app and the CLI.
 */
import type * as Http from "node:http";
import type { AddressInfo } from "node:net";

/** The short page the browser shows once it has returned (the host's language). */
export interface RedirectPages {
	/** The provider sent a code. */
	received: string;
	/** The provider sent an error (the block says which). */
	refused: string;
}

export type RedirectOutcome = { ok: true; params: URLSearchParams } | { ok: false; reason: "cancelled" };

/** Where the browser returns to: this loopback server on desktop and in the CLI, the protocol handler on mobile (protocol-redirect.ts). */
export interface LoopbackRedirect {
	/** The redirect URI to send, with the port actually listened on. */
	readonly redirectUri: string;
	/**
	 * The query of the first request to the redirect path; `cancelled` when `signal` aborts first.
	 * `state`: the one the sign-in sent, for a source several sign-ins share (the protocol handler).
	 */
	next(signal: AbortSignal, state?: string): Promise<RedirectOutcome>;
	/** Stops listening (idempotent). */
	close(): void;
}

/** Listens at `redirectUri` (http on 127.0.0.1, [::1] or localhost; no port: a free one). Rejects when the port is taken. */
export async function listenLoopback(redirectUri: string, pages: RedirectPages): Promise<LoopbackRedirect> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- Node, required only where a sign-in listens (desktop, CLI)
	const http = require("http") as typeof Http;
	const uri = new URL(redirectUri);
	const host = uri.hostname === "[::1]" ? "::1" : "127.0.0.1";
	let arrived: ((params: URLSearchParams) => void) | null = null;
	let received: URLSearchParams | null = null;
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? "/", "http://loopback");
		if (url.pathname !== uri.pathname || received) {
			res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end();
			return;
		}
		received = url.searchParams;
		// Static text only: nothing the request carried is echoed into the page.
		res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(url.searchParams.has("error") ? pages.refused : pages.received);
		arrived?.(url.searchParams);
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(uri.port === "" ? 0 : Number(uri.port), host, () => {
			server.off("error", reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const withPort = new URL(redirectUri);
	withPort.port = String(port);
	const close = () => {
		server.close();
		server.closeAllConnections?.();
	};
	return {
		redirectUri: withPort.toString(),
		next: (signal) =>
			new Promise<RedirectOutcome>((resolve) => {
				if (received) return resolve({ ok: true, params: received });
				const cancelled = () => resolve({ ok: false, reason: "cancelled" });
				if (signal.aborted) return cancelled();
				signal.addEventListener("abort", cancelled, { once: true });
				arrived = (params) => {
					signal.removeEventListener("abort", cancelled);
					resolve({ ok: true, params });
				};
			}),
		close,
	};
}
