import { failedError } from "../failures";
import type { HistoryEntry } from "../executor";
import type { BlockRunContext } from "../kind-runner";
import { shownRequest, type PreparedRequest } from "../request";
import type { RunError } from "../result";
import { nextState, type RunEvent } from "../state-machine";
import type { ResponseHead } from "../transport";
import { MessageLog } from "./message-log";
import type { StreamClose, StreamEnd, StreamMessage, StreamResult, StreamRunFields, StreamTiming } from "./stream-run";

/** How a stream's end moves its run: which event, and the error it ends with (none for an ordinary end). */
export function endOf(why: StreamEnd, phase: "connecting" | "open", failure?: RunError): { event: RunEvent; error?: RunError } {
	switch (why) {
		case "cancelled":
			return { event: "cancel", error: failedError("cancelled", undefined) };
		case "timeout":
			// No handshake in time is a timeout as for http; a silence after it is one of a stream's ordinary ends.
			return phase === "connecting" ? { event: "timeout", error: failedError("timeout", undefined) } : { event: "complete" };
		case "body_too_large":
			return { event: "fail", error: failedError("body_too_large", "100 MB of messages") };
		case "failed":
			return { event: "fail", error: failure };
		default:
			return { event: "complete" };
	}
}

/**
 * One stream run as it goes: its snapshot moved only through the run state machine and handed
 * to `onUpdate`, its message log, its timing from an injected clock. Both stream runners drive
 * one of these; what differs is the transport.
 */
export class StreamProgress<K extends "sse" | "websocket"> {
	readonly log = new MessageLog();
	private snapshot: StreamRunFields<K>;
	private readonly startedAt: number;
	private openedAt: number | null = null;

	constructor(
		kind: K,
		request: PreparedRequest,
		transport: StreamRunFields<K>["transport"],
		private readonly onUpdate: ((snapshot: StreamRunFields<K>) => void) | undefined,
		private readonly now: () => number,
	) {
		this.startedAt = now();
		this.snapshot = { kind, state: "idle", request, transport, messages: this.log.messages, counts: this.log.counts };
		this.move("start", { startedAt: this.startedAt, timing: { total: 0 } });
	}

	get run(): StreamRunFields<K> {
		return this.snapshot;
	}

	private move(event: RunEvent, patch: Partial<StreamRunFields<K>>): void {
		this.snapshot = { ...this.snapshot, ...patch, state: nextState(this.snapshot.state, event) };
		this.onUpdate?.(this.snapshot);
	}

	private timing(extra: Partial<StreamTiming> = {}): StreamTiming {
		return { ...this.snapshot.timing, ...extra, total: this.now() - this.startedAt };
	}

	/** The handshake's answer: the stream is open (101, or an event stream's head); `patch` adds what the open stream offers (`send`). */
	opened(head: ResponseHead, patch: Partial<StreamRunFields<K>> = {}): void {
		this.openedAt = this.now();
		this.move("headers", { ...patch, head, timing: this.timing({ handshake: this.openedAt - this.startedAt }) });
	}

	/** Milliseconds since the stream opened (0 before). */
	sinceOpen(): number {
		return this.openedAt === null ? 0 : this.now() - this.openedAt;
	}

	/** Keeps a message and publishes it; false when the cap refused it (the caller ends the stream). */
	add(message: StreamMessage): boolean {
		if (!this.log.add(message)) return false;
		const first = message.direction === "received" && this.snapshot.timing?.firstMessage === undefined ? { firstMessage: this.now() - this.startedAt } : {};
		// A message before the head (a transport that cannot tell) opens the stream first.
		if (this.snapshot.state === "running") this.move("headers", {});
		this.move("chunk", { counts: this.log.counts, timing: this.timing(first) });
		return true;
	}

	/** Ends the run: `close` says how, `patch` adds what the transport knows (a refused upgrade's response). */
	finish(why: StreamEnd, phase: "connecting" | "open", close: Omit<StreamClose, "why">, patch: Partial<StreamRunFields<K>> = {}, failure?: RunError): StreamResult & StreamRunFields<K> {
		const { event, error } = endOf(why, phase, failure);
		this.move(event, { ...patch, send: undefined, counts: this.log.counts, close: { ...close, why }, timing: this.timing(), error });
		return this.snapshot as StreamResult & StreamRunFields<K>;
	}
}

/** The history row of a stream: one per stream, never a message; the URL as masked for display. */
export function streamHistory(method: string, result: StreamResult, ctx: BlockRunContext, transport: string): HistoryEntry {
	const url = result.request ? shownRequest(result.request).url : "";
	// A WebSocket's URL as written (ws, wss): the request is prepared as http(s).
	const shown = result.kind === "websocket" ? url.replace(/^http(s?):\/\//i, (_, s: string) => `ws${s}://`) : url;
	const outcome = result.state === "done" || result.state === "cancelled" ? result.state : "failed";
	return {
		filePath: ctx.execute.filePath,
		alias: ctx.execute.historyAlias,
		method,
		url: ctx.execute.maskUrl ? ctx.execute.maskUrl(shown) : shown,
		status: result.head?.status ?? null,
		outcome,
		errorCode: result.error?.code ?? null,
		requestBytes: result.counts.sentBytes,
		responseBytes: result.counts.receivedBytes,
		durationMs: result.timing?.total ?? 0,
		timestamp: result.startedAt ?? 0,
		transport,
		itemCount: result.counts.received,
		closeCode: result.close?.code ?? null,
		sentCount: result.counts.sent,
	};
}

/** A stream block that could not start (an invalid block, an unresolved reference): nothing was sent. */
export function streamFailedBeforeStart<K extends "sse" | "websocket">(kind: K, error: RunError): StreamResult & StreamRunFields<K> {
	return { kind, state: "failed", error, messages: [], counts: { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0 } } as StreamResult & StreamRunFields<K>;
}
