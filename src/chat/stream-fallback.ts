import type { Transport } from "../runner/transport";

/** A transport that streams while it can, and says when it gave way to one that answers whole. */
export interface FallbackTransport extends Transport {
	/** True once the streaming transport could not reach the server and the whole one could. */
	readonly fellBack: boolean;
}

/**
 * Without Node (mobile, a browser) the chat streams through `fetch`, which only reaches servers
 * that allow the app's origin (CORS); `requestUrl` reaches any server but answers whole. A
 * browser reports a CORS refusal as a plain network error, so when the streaming transport
 * cannot connect the same request goes through `whole`; if that one gets a response, the
 * server is reachable but refuses streaming from here, and every later request goes through
 * `whole` (the panel says answers arrive whole). A server that is down fails through both and
 * changes nothing.
 */
export function createFallbackTransport(streaming: Transport, whole: Transport): FallbackTransport {
	let fellBack = false;
	return {
		get name() {
			return fellBack ? whole.name : streaming.name;
		},
		get streams() {
			return fellBack ? whole.streams : streaming.streams;
		},
		get fellBack() {
			return fellBack;
		},
		async send(request, options = {}) {
			if (fellBack) return whole.send(request, options);
			const first = await streaming.send(request, options);
			if (first.kind !== "failed" || first.code !== "connect_failed" || options.signal?.aborted) return first;
			const second = await whole.send(request, options);
			if (second.kind === "done") fellBack = true;
			// Its failure, not fetch's: a browser's "Failed to fetch" cannot tell refused from CORS.
			return second;
		},
	};
}
