/**
 * What the stream panel shows of one live stream (WebSocket, SSE, a GraphQL subscription) and the
 * one thing it can do to it, sending. The panel reads nothing else: an adapter maps the core's
 * stream result onto this, so the panel knows no runner and the runner no screen.
 */

export type StreamProtocol = "websocket" | "sse" | "graphql";

/** connecting: handshake in flight; open: messages flow (and can be sent); closed: it ended. */
export type StreamState = "connecting" | "open" | "closed";

/** One message, in either direction. */
export interface StreamMessage {
	readonly direction: "received" | "sent";
	/** Milliseconds since the connection opened (the panel's "time since connect"). */
	readonly atMs: number;
	/** The message as text; base64 of its bytes when `binary`. */
	readonly data: string;
	readonly binary: boolean;
	/** Bytes on the wire (the payload, not the base64). */
	readonly size: number;
	/** SSE only: the `event:` name and the `id:` field, when the server sent them. */
	readonly event?: string;
	readonly id?: string;
}

/** The answer to the upgrade (WebSocket) or the request (SSE): what the Headers tab shows. */
export interface StreamHandshake {
	readonly status: number;
	readonly statusText: string;
	readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** Why a stream ended: the block's limits, the user, the server, or a failure. */
export type StreamEndReason = "cancelled" | "server_closed" | "steps_done" | "max_messages" | "duration" | "timeout" | "body_too_large" | "failed";

export interface StreamClose {
	/** The WebSocket close code (1000, 1006…); null for SSE and when none was received. */
	readonly code: number | null;
	/** The close frame's reason, or a failure's detail; "" when none. */
	readonly reason: string;
	readonly why: StreamEndReason;
}

/** Milliseconds from the run's start; each is absent until it happened. */
export interface StreamTiming {
	readonly connectMs?: number;
	readonly handshakeMs?: number;
	/** From the connection's opening to the first message received. */
	readonly firstMessageMs?: number;
	/** Messages so far, both directions. */
	readonly count: number;
}

/**
 * One moment of the stream. `messages` only grows, in arrival order, and may be the same array
 * between two snapshots (appended in place): the panel draws from the length it has not drawn.
 */
export interface StreamSnapshot {
	readonly protocol: StreamProtocol;
	readonly state: StreamState;
	readonly handshake: StreamHandshake | null;
	readonly messages: readonly StreamMessage[];
	readonly close: StreamClose | null;
	readonly timing: StreamTiming;
}

/** The panel's source: a current snapshot, change notifications, and sending while open. */
export interface StreamPanelModel {
	snapshot(): StreamSnapshot;
	/**
	 * Calls `listener` after changes (any number may be coalesced; the panel draws once a frame);
	 * returns the unsubscribe.
	 */
	subscribe(listener: () => void): () => void;
	/** Sends one text message; present only where the protocol can (WebSocket), used only while open. */
	send?(text: string): void;
}

/**
 * A WebSocket block with handshake headers, run where the browser's WebSocket is the only
 * client (mobile): it cannot send them, so the block says so and runs only on the user's word.
 */
export interface NoCustomHeadersNotice {
	/** The header names the block sets (shown so the user knows what will be missing). */
	readonly headers: readonly string[];
	/** Runs the block without its headers (the core's run option). */
	runWithoutHeaders(): void;
}
