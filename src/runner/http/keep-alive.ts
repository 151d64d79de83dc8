/**
 * Keep-alive connections the server may already have closed: how long the node transport keeps
 * an idle one, and when a request that failed on one is sent again on a fresh connection.
 */

/** How long an idle connection is kept when the server gives no `Keep-Alive: timeout=N`: under the 5 s idle timeouts of Node, Apache and uvicorn. */
export const DEFAULT_IDLE_MS = 4_000;

/** Dropped this long before the server's announced timeout, so our request does not cross its close on the wire (Node's agent uses the same margin). */
const IDLE_MARGIN_MS = 1_000;

/**
 * How long a connection may sit idle before it is dropped, from the response's `Keep-Alive`
 * header (`timeout=5, max=100`: Node, Apache and others announce their idle timeout, in
 * seconds): the server's timeout minus the margin, 0 when that leaves nothing (do not keep the
 * connection), the default without a usable hint.
 */
export function idleLimitMs(keepAlive: string | undefined): number {
	const seconds = keepAlive === undefined ? null : /(?:^|,)\s*timeout\s*=\s*"?(\d+)/i.exec(keepAlive)?.[1];
	if (!seconds) return DEFAULT_IDLE_MS;
	return Math.max(Number(seconds) * 1000 - IDLE_MARGIN_MS, 0);
}

/** RFC 9110 §9.2.2: sending one of these twice has the effect of sending it once. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);

/** The connection was reset or closed under the request ("socket hang up" is ECONNRESET too). */
const CONNECTION_LOST = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/** Node refused to write at all: the socket had already ended or been destroyed when the request reached it. */
const WRITE_REFUSED = new Set(["ERR_STREAM_WRITE_AFTER_END", "ERR_STREAM_DESTROYED", "ERR_SOCKET_CLOSED"]);

/** A request that failed before its response began. */
export interface LostRequest {
	method: string;
	/** Whether it went out on a pooled connection an earlier request had used. */
	reusedSocket: boolean;
	/** Response bytes read from the connection for this request (the status line included). */
	responseBytes: number;
	/** Whether the request carries an `Idempotency-Key` (or `X-Idempotency-Key`): the server deduplicates it. */
	idempotencyKey: boolean;
	/** The error's `code` and `syscall` as Node gives them. */
	code: string | undefined;
	syscall: string | undefined;
}

/**
 * Whether a failed request is sent once more, on a fresh connection: only when it was lost on a
 * reused connection before a single byte of its response, the race of a keep-alive connection
 * the server closed as idle just as the request went out (curl and browsers resend it too).
 * A fresh connection that fails is the server's answer, and any byte of a response means the
 * server had the request: neither is resent.
 *
 * Idempotent methods (and requests with an idempotency key) are resent. POST, PATCH and unknown
 * methods only when the server cannot have received the whole request: a write of it failed
 * (the kernel refused the bytes: the peer had already reset) or Node refused to write it. A
 * reset after the request was written proves nothing: a server that read a POST and then closed
 * without answering (a crash, a proxy dropping its upstream) looks the same from here, and
 * resending would apply it twice (RFC 9110 §9.2.2). Chromium and curl resend it anyway; Go's
 * net/http draws this same line.
 */
export function retriesOnFreshConnection(lost: LostRequest): boolean {
	if (!lost.reusedSocket || lost.responseBytes > 0 || lost.code === undefined) return false;
	if (WRITE_REFUSED.has(lost.code)) return true;
	if (!CONNECTION_LOST.has(lost.code)) return false;
	return lost.syscall === "write" || IDEMPOTENT.has(lost.method) || lost.idempotencyKey;
}
