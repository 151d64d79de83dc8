import type { HttpNoteBlock, NoteBlock } from "../../blocks";
import { prepareRequest, type PrepareContext, type Preparation } from "../prepare";
import type { PreparedRequest } from "../request";

export type SseNoteBlock = Extract<NoteBlock, { kind: "sse" }>;
export type WebsocketNoteBlock = Extract<NoteBlock, { kind: "websocket" }>;
export type StreamNoteBlock = SseNoteBlock | WebsocketNoteBlock;

/**
 * The handshake request of a stream block, resolved as Run resolves an http block's (variables,
 * secrets and their masking, aliases, `timeout=`): the head is an http GET to the parser, and is
 * prepared as one. A websocket block's messages are not its body (each is resolved when sent);
 * a GraphQL subscription's operation is, as the JSON the first message carries.
 */
export function prepareStream(block: StreamNoteBlock, ctx: PrepareContext): Preparation {
	const model = block.kind === "sse" ? block.sse : block.websocket;
	const http = model.graphql ? model.request : { ...model.request, body: "", bodyParts: [], graphql: null };
	return prepareRequest({ ...block, kind: "http", http } as unknown as HttpNoteBlock, ctx);
}

/** The URL a WebSocket dials: the prepared http(s) URL with its ws scheme back. */
export function websocketUrl(request: Pick<PreparedRequest, "url">): string {
	return request.url.replace(/^http(s?):\/\//i, (_, s: string) => `ws${s}://`);
}

/** A header of the request, by name (case-insensitive). */
export function hasHeader(request: Pick<PreparedRequest, "headers">, name: string): boolean {
	const lower = name.toLowerCase();
	return request.headers.some(([n]) => n.toLowerCase() === lower);
}
