import { failureText, type FailureCode, type Subject } from "./failures";
import type { RunCookies } from "./cookie-jar";
import type { PreparedRequest } from "./request";

/** Status line and headers of a response, delivered as soon as they arrive. */
export interface ResponseHead {
	status: number;
	statusText: string;
	/** e.g. "1.1" */
	httpVersion: string;
	/** Header lines in wire order; Set-Cookie and other repeated headers stay separate. */
	headers: Array<[string, string]>;
	/** The URL that produced this response (after redirects). */
	url: string;
	/** How many redirects were followed to get here. */
	redirects: number;
}

/** Milliseconds from the start of the request; absent when the transport cannot measure them. */
export interface Timing {
	total: number;
	dns?: number;
	connect?: number;
	tls?: number;
	ttfb?: number;
	connectionReused?: boolean;
}

export type { FailureCode } from "./failures";

export type TransportOutcome =
	| {
			kind: "done";
			head: ResponseHead;
			/** Decoded body bytes (gzip/deflate/br undone). */
			body: Uint8Array;
			timing: Timing;
			/** Bytes of the request as written to the wire (head + body) of the last hop. */
			requestBytes: number;
			/** The request head as written to the wire, for the Raw tab. */
			rawRequestHead: string;
	  }
	| { kind: "cancelled"; reason: "user" | "timeout"; timing: Timing }
	/** Made by `failed()` (failures.ts): `message` is the code's one text. */
	| { kind: "failed"; code: FailureCode; message: string; detail?: string; timing: Timing };

export interface SendOptions {
	/** Aborting cancels the run: the socket is destroyed and partial bytes are discarded. */
	signal?: AbortSignal;
	onHeaders?: (head: ResponseHead) => void;
	/** Called per decoded chunk with the running total of decoded bytes. */
	onChunk?: (chunk: Uint8Array, receivedBytes: number) => void;
	/** Defaults to MAX_BODY_BYTES. */
	maxBodyBytes?: number;
	/** The environment's cookie jar: asked for each hop's `Cookie`, given each response's Set-Cookie (absent: `# @no-cookie-jar`, or no jar). */
	cookies?: RunCookies;
}

/** A way to put a PreparedRequest on the wire. `send` never rejects: every end is an outcome. */
export interface Transport {
	readonly name: "node" | "obsidian" | "fetch";
	/** Whether it streams (headers before body, chunk progress, real cancel). */
	readonly streams: boolean;
	send(request: PreparedRequest, options?: SendOptions): Promise<TransportOutcome>;
}

/** A failed transport outcome: the message written once per code, the specifics in `detail`. */
export function failed<C extends FailureCode>(code: C, detail: string | undefined, timing: Timing, ...subject: Subject<C>): { kind: "failed"; code: C; message: string; detail?: string; timing: Timing } {
	return { kind: "failed", code, message: failureText(code, ...subject), ...(detail !== undefined ? { detail } : {}), timing };
}

/**
 * fetch and Obsidian's requestUrl take no TLS options: a request with a client certificate of its
 * own (`ClientCert:`) is refused rather than sent without it.
 */
export function refusesClientCert(request: PreparedRequest, transport: Transport["name"], timing: () => Timing): TransportOutcome | null {
	return request.clientTls ? failed("client_cert_unsupported", undefined, timing(), transport) : null;
}
