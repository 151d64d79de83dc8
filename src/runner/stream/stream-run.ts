/**
 * What a stream's run is (sse and websocket blocks, docs/streams.md): the handshake's response,
 * the messages both ways as they arrive, how and why it ended, its timing. The two kinds share
 * the shape and differ by `kind`; each declares its entry of the run registries here.
 */
import type { AssertionResult } from "../../blocks/assertions";
import type { FailureCode } from "../failures";
import type { PreparedRequest } from "../request";
import type { FinalState, RunCommon, RunSnapshot } from "../result";
import type { ResponseHead, Transport } from "../transport";
import type { StreamFailureCode } from "./failures";

/** One message of a stream. */
export interface StreamMessage {
	direction: "received" | "sent";
	/** Milliseconds since the connection opened (the handshake's answer). */
	atMs: number;
	/** The text, or base64 of the bytes when `binary`. */
	data: string;
	binary: boolean;
	/** Bytes of the message: its UTF-8 text, or its bytes. */
	size: number;
	/** SSE: the event's `event:` name and `id:`, when it had them. */
	event?: string;
	id?: string;
}

/** Why a stream ended, whoever ended it. */
export type StreamEnd =
	| "server_closed" // the server closed (or the SSE response ended)
	| "steps_done" // the block's last `=== wait-for-server` was satisfied: closed with 1000
	| "max_messages" // `max_messages=N` reached
	| "duration" // `duration=ms` ran out
	| "timeout" // `timeout=ms` of silence between two messages
	| "cancelled" // Stop, Cancel, Ctrl+C
	| "body_too_large" // 100 MB of message text
	| "failed"; // the connection broke

/** How the stream closed: the close frame's code and reason (WebSocket), and why. */
export interface StreamClose {
	/** The close code (WebSocket; 1000 when we ended it), null without a close frame (SSE, a broken connection). */
	code: number | null;
	reason: string;
	why: StreamEnd;
}

/** Milliseconds from the start of the run. */
export interface StreamTiming {
	total: number;
	/** TCP (and TLS) connected: not every transport can tell. */
	connect?: number;
	/** The handshake's response arrived (101 Switching Protocols, or the SSE response head). */
	handshake?: number;
	/** The first message from the server arrived. */
	firstMessage?: number;
}

/** Messages and bytes each way. */
export interface StreamCounts {
	received: number;
	sent: number;
	receivedBytes: number;
	sentBytes: number;
}

/** A stream kind's run: what every stream has, `kind` naming its protocol. */
export interface StreamRunFields<K extends "sse" | "websocket"> extends RunCommon {
	kind: K;
	request?: PreparedRequest;
	/** The handshake's response (status, headers); a refused upgrade's whole response. */
	head?: ResponseHead;
	/** A refused upgrade's body (the ordinary http response it is). */
	body?: Uint8Array;
	/**
	 * The messages so far, both directions, in order. Append-only and shared by the run's
	 * snapshots (100,000 messages are not copied per message): a snapshot holds its first
	 * `counts.received + counts.sent` entries.
	 */
	messages: readonly StreamMessage[];
	counts: StreamCounts;
	close?: StreamClose;
	timing?: StreamTiming;
	transport?: Transport["name"] | "ws" | "browser";
	assertions?: AssertionResult[];
	/**
	 * WebSocket, while open: sends one more text message (the panel's box), kept as a sent
	 * message; false once the stream has ended. Absent on SSE runs and on a finished run.
	 */
	send?: (text: string) => boolean;
	/** WebSocket: headers the transport could not send (the browser's WebSocket sends none), dropped at the user's word. */
	droppedHeaders?: string[];
}

export type SseRun = StreamRunFields<"sse">;
export type WebsocketRun = StreamRunFields<"websocket">;
export type StreamRun = SseRun | WebsocketRun;
export type StreamResult = StreamRun & { state: FinalState };

declare module "../result" {
	interface KindRuns {
		sse: SseRun;
		websocket: WebsocketRun;
	}
	interface KindErrorCodes {
		sse: FailureCode | StreamFailureCode | "cert_file_missing" | "cert_file_outside";
		websocket: FailureCode | StreamFailureCode | "body_file_missing" | "body_file_outside";
	}
}

/** A run's messages as of this snapshot (the shared array may have grown since). */
export function messagesOf(run: Pick<StreamRun, "messages" | "counts">): readonly StreamMessage[] {
	const n = run.counts.received + run.counts.sent;
	return run.messages.length === n ? run.messages : run.messages.slice(0, n);
}

/** The received messages of a run, in order: what `{{alias.response.messages…}}` and `??` count. */
export function receivedOf(run: Pick<StreamRun, "messages" | "counts">): StreamMessage[] {
	return messagesOf(run).filter((m) => m.direction === "received");
}

/** Whether a snapshot is a stream's (for views that show any run). */
export function isStreamRun(run: RunSnapshot): run is StreamRun {
	return run.kind === "sse" || run.kind === "websocket";
}
