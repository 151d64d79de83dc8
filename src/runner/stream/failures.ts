/**
 * One text per stream failure code, as runner/failures.ts is for http: the runners and the
 * transports take their message from here, so a code reads the same on the block, in the CLI and
 * in `--json`. The specifics (the system's error, the header names) go in `detail`.
 */
const TEXT = {
	/** The host's transport cannot stream (Obsidian's requestUrl; SSE on mobile where CORS refuses fetch). */
	stream_unsupported: "This transport cannot stream: use the node or fetch transport (on mobile, the server must allow CORS)",
	/** SSE through fetch where the host's transport cannot stream (mobile): the server refused the app's origin, or was not reached. */
	stream_cors: "Could not stream through fetch: the server must allow the app's origin (CORS: Access-Control-Allow-Origin), or it could not be reached",
	/** No WebSocket on this host at all. */
	websocket_unavailable: "This host has no WebSocket",
	/** The browser's WebSocket sends no custom headers: the block's would be dropped, so it asks first. */
	headers_not_sent: "This WebSocket cannot send the block's headers here: run it without them from the block to confirm",
	/** The connection broke mid-stream (no close frame). */
	stream_broken: "The connection broke before the stream ended",
	/** A block's `ClientCert:` where the browser's WebSocket runs it (mobile): it cannot present one. */
	client_cert_not_sent: "This WebSocket cannot present a client certificate: run the block on desktop or in the CLI",
	/** A graphql-transport-ws server answered with an error. */
	graphql_error: "The GraphQL subscription failed",
} as const;

export type StreamFailureCode = keyof typeof TEXT;

export function streamFailed(code: StreamFailureCode, detail?: string): { code: StreamFailureCode; message: string; detail?: string } {
	return { code, message: TEXT[code], ...(detail !== undefined ? { detail } : {}) };
}
