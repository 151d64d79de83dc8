/**
 * The client side of graphql-transport-ws (the `graphql-ws` protocol, The Guild): init, wait for
 * the ack, subscribe once, then each `next` is a message of the stream; `complete` ends it, and
 * `error` fails it. Pure: frames in, frames and outcomes out; the runner owns the socket.
 */
export const GRAPHQL_TRANSPORT_WS = "graphql-transport-ws";

/** What one server frame means to the stream. */
export type GraphqlStep =
	/** Frames to send (the subscribe after the ack, a pong), and the subscribe to show as sent. */
	| { kind: "send"; frames: string[]; shown?: string }
	/** A result of the subscription: the `next` payload, as JSON text. */
	| { kind: "next"; data: string }
	| { kind: "complete" }
	| { kind: "error"; detail: string }
	| { kind: "ignore" };

const ID = "1";

/** The frame that opens the protocol, sent as soon as the socket is open. */
export function connectionInit(): string {
	return JSON.stringify({ type: "connection_init", payload: {} });
}

/** Reads one server frame; `operation` is the prepared request's JSON body (`query`, `variables`, `operationName`). */
export function onGraphqlFrame(text: string, operation: string): GraphqlStep {
	let frame: { type?: string; id?: string; payload?: unknown };
	try {
		frame = JSON.parse(text) as typeof frame;
	} catch {
		return { kind: "error", detail: `the server sent a frame that is not JSON: ${text.slice(0, 200)}` };
	}
	switch (frame.type) {
		case "connection_ack": {
			const subscribe = JSON.stringify({ id: ID, type: "subscribe", payload: JSON.parse(operation) as unknown });
			return { kind: "send", frames: [subscribe], shown: subscribe };
		}
		case "ping":
			return { kind: "send", frames: [JSON.stringify({ type: "pong" })] };
		case "next":
			return frame.id === ID ? { kind: "next", data: JSON.stringify(frame.payload) } : { kind: "ignore" };
		case "complete":
			return frame.id === ID ? { kind: "complete" } : { kind: "ignore" };
		case "error":
			return { kind: "error", detail: JSON.stringify(frame.payload) };
		default:
			return { kind: "ignore" };
	}
}
