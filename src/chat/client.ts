import type { PreparedRequest } from "../runner/request";
import type { ResponseHead, Transport, TransportOutcome } from "../runner/transport";
import { chatFailure, errorOfBody, failureOfResponse, type ChatFailure } from "./failures";
import { createSseReader } from "./sse";

export type ChatRole = "system" | "user" | "assistant";
export interface ChatMessage {
	role: ChatRole;
	content: string;
}

/** Where the chat API is: `[chat] base_url`, and the API key read from secret storage. */
export interface ChatEndpoint {
	baseUrl: string;
	/** The key's value, or null when the server needs none. */
	apiKey: string | null;
}

/** The body of `POST /chat/completions`, exactly as it is sent (the panel previews it). */
export interface CompletionBody {
	model: string;
	messages: ChatMessage[];
	stream: boolean;
	temperature?: number;
}

export type ChatOutcome =
	| { kind: "done"; text: string; finishReason: string | null; streamed: boolean }
	/** Stop: the connection was closed; `text` is what had arrived. */
	| { kind: "cancelled"; text: string }
	| { kind: "failed"; failure: ChatFailure; text: string };

export type ModelsOutcome = { kind: "done"; models: string[] } | { kind: "cancelled" } | { kind: "failed"; failure: ChatFailure };

export interface CompleteOptions {
	signal?: AbortSignal;
	/** Each piece of the answer as it arrives (streaming transports), with the text so far. */
	onDelta?: (delta: string, text: string) => void;
}

export interface ChatClient {
	/** Whether answers stream; false on mobile (requestUrl), which the panel says. */
	readonly streams: boolean;
	models(signal?: AbortSignal): Promise<ModelsOutcome>;
	/** Never rejects: every end is an outcome. */
	complete(body: Omit<CompletionBody, "stream">, options?: CompleteOptions): Promise<ChatOutcome>;
}

/** Long answers from a slow local model take minutes; Stop is the user's way out. */
const COMPLETION_TIMEOUT_MS = 10 * 60_000;
const MODELS_TIMEOUT_MS = 15_000;
/** `[chat] timeout`'s default: a local model can take a minute to load before its first token. */
export const DEFAULT_CHAT_IDLE_TIMEOUT_MS = 120_000;

export interface ChatClientOptions {
	/** ms since epoch (Retry-After dates). */
	now?: () => number;
	/**
	 * How long the server may stay silent — before the response starts, or between two pieces of
	 * a stream — before the answer fails as `timeout`. Without streaming it bounds the whole answer.
	 */
	idleTimeoutMs?: number;
}

/** The request line, headers and body of a completion, without the key's value: what the panel shows. */
export function completionHeaders(endpoint: ChatEndpoint, stream: boolean, maskKey: boolean): Array<[string, string]> {
	const headers: Array<[string, string]> = [
		["Content-Type", "application/json"],
		["Accept", stream ? "text/event-stream" : "application/json"],
	];
	if (endpoint.apiKey) headers.push(["Authorization", `Bearer ${maskKey ? "•••" : endpoint.apiKey}`]);
	return headers;
}

export function completionBody(body: Omit<CompletionBody, "stream">, stream: boolean): CompletionBody {
	return { model: body.model, messages: body.messages, stream, ...(body.temperature !== undefined ? { temperature: body.temperature } : {}) };
}

/**
 * An OpenAI-compatible chat client over one of our transports: the node transport streams SSE
 * and closes the socket on Stop; a non-streaming transport (requestUrl on mobile) gets
 * `stream: false` and one JSON answer. `streams` follows the transport at each call (a
 * fallback transport may stop streaming after its first request).
 */
export function createChatClient(transport: Transport, endpoint: ChatEndpoint, options: ChatClientOptions = {}): ChatClient {
	const now = options.now ?? Date.now;
	const idleMs = options.idleTimeoutMs ?? DEFAULT_CHAT_IDLE_TIMEOUT_MS;
	const url = (path: string) => `${endpoint.baseUrl.replace(/\/+$/, "")}${path}`;
	return {
		get streams() {
			return transport.streams;
		},
		async models(signal) {
			const request: PreparedRequest = { method: "GET", url: url("/models"), headers: completionHeaders(endpoint, false, false), body: "", followRedirects: true, timeoutMs: MODELS_TIMEOUT_MS };
			const outcome = await transport.send(request, { signal });
			if (outcome.kind === "cancelled") return outcome.reason === "user" ? { kind: "cancelled" } : { kind: "failed", failure: chatFailure("timeout", `no answer from ${request.url}`) };
			if (outcome.kind === "failed") return { kind: "failed", failure: transportFailure(outcome, endpoint.baseUrl) };
			const text = new TextDecoder().decode(outcome.body);
			if (outcome.head.status !== 200) return { kind: "failed", failure: failureOfResponse(outcome.head.status, outcome.head.headers, text, now()) };
			const ids = modelIds(text);
			return ids ? { kind: "done", models: ids } : { kind: "failed", failure: chatFailure("malformed_stream", `GET /models: ${text.slice(0, 200)}`) };
		},
		complete: (body, opts = {}) => complete(transport, url("/chat/completions"), endpoint, completionBody(body, transport.streams), opts, now, idleMs),
	};
}

function modelIds(text: string): string[] | null {
	try {
		const json = JSON.parse(text) as { data?: unknown };
		if (!Array.isArray(json.data)) return null;
		const ids = json.data.map((m: unknown) => (typeof m === "object" && m !== null && typeof (m as { id?: unknown }).id === "string" ? (m as { id: string }).id : null));
		return ids.every((id): id is string => id !== null) ? [...ids].sort((a, b) => a.localeCompare(b)) : null;
	} catch {
		return null;
	}
}

function transportFailure(outcome: Extract<TransportOutcome, { kind: "failed" }>, baseUrl: string): ChatFailure {
	if (outcome.code === "connect_failed") return chatFailure("connection_refused", `${baseUrl}: ${outcome.detail ?? outcome.message}`);
	if (outcome.code === "invalid_url") return chatFailure("invalid_url", outcome.message);
	return chatFailure("interrupted", outcome.detail ?? outcome.message);
}

/** What one SSE `data:` payload or a whole JSON answer says. */
type Piece = { kind: "delta"; text: string; finishReason: string | null } | { kind: "error"; message: string; code: string } | { kind: "malformed"; data: string };

function pieceOf(data: string, streamed: boolean): Piece {
	let json: unknown;
	try {
		json = JSON.parse(data);
	} catch {
		return { kind: "malformed", data };
	}
	if (typeof json !== "object" || json === null) return { kind: "malformed", data };
	const root = json as { error?: unknown; choices?: unknown };
	if (root.error !== undefined) return { kind: "error", ...errorOfBody(data) };
	if (!Array.isArray(root.choices)) return { kind: "malformed", data };
	// Some servers send a chunk with no choices (usage at the end): nothing to add.
	const choice = (root.choices[0] ?? {}) as { delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown };
	const content = streamed ? choice.delta?.content : choice.message?.content;
	if (content !== undefined && content !== null && typeof content !== "string") return { kind: "malformed", data };
	return { kind: "delta", text: content ?? "", finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null };
}

async function complete(transport: Transport, url: string, endpoint: ChatEndpoint, body: CompletionBody, options: CompleteOptions, now: () => number, idleMs: number): Promise<ChatOutcome> {
	const request: PreparedRequest = { method: "POST", url, headers: completionHeaders(endpoint, body.stream, false), body: JSON.stringify(body), followRedirects: true, timeoutMs: COMPLETION_TIMEOUT_MS };
	// Our own controller: a malformed stream hangs up as Stop does.
	const controller = new AbortController();
	const onUserAbort = () => controller.abort();
	if (options.signal?.aborted) controller.abort();
	options.signal?.addEventListener("abort", onUserAbort);
	let text = "";
	let finishReason: string | null = null;
	let done = false;
	let failure: ChatFailure | null = null;
	let head: ResponseHead | null = null;
	let sse: ReturnType<typeof createSseReader> | null = null;
	const fail = (f: ChatFailure) => {
		failure ??= f;
		controller.abort();
	};
	// Silence, not length, is what fails an answer: a long stream that keeps coming is fine.
	let idle: ReturnType<typeof setTimeout> | undefined;
	const waitForServer = () => {
		clearTimeout(idle);
		idle = setTimeout(() => fail(chatFailure("timeout", `nothing from ${url} for ${idleMs / 1000} s`)), idleMs);
	};
	waitForServer();
	const onData = (data: string) => {
		if (failure || done) return;
		if (data === "[DONE]") {
			done = true;
			return;
		}
		const piece = pieceOf(data, true);
		if (piece.kind === "malformed") return fail(chatFailure("malformed_stream", `unexpected event data: ${piece.data.slice(0, 200)}`));
		if (piece.kind === "error") return fail(failureOfResponse(head?.status ?? 500, [], JSON.stringify({ error: { message: piece.message, code: piece.code } }), now()));
		finishReason = piece.finishReason ?? finishReason;
		if (piece.text) {
			text += piece.text;
			options.onDelta?.(piece.text, text);
		}
	};
	try {
		const outcome = await transport.send(request, {
			signal: controller.signal,
			onHeaders: (h) => {
				waitForServer();
				head = h;
				if (h.status === 200 && isEventStream(h)) sse = createSseReader(onData);
			},
			onChunk: (chunk) => {
				waitForServer();
				sse?.push(chunk);
			},
		});
		if (failure) return { kind: "failed", failure, text };
		if (outcome.kind === "cancelled") return outcome.reason === "user" ? { kind: "cancelled", text } : { kind: "failed", failure: chatFailure("timeout", `no complete answer after ${COMPLETION_TIMEOUT_MS / 1000} s`), text };
		if (outcome.kind === "failed") return { kind: "failed", failure: transportFailure(outcome, endpoint.baseUrl), text };
		const raw = new TextDecoder().decode(outcome.body);
		if (outcome.head.status !== 200) return { kind: "failed", failure: failureOfResponse(outcome.head.status, outcome.head.headers, raw, now()), text };
		if (sse) {
			(sse as ReturnType<typeof createSseReader>).end();
			if (failure) return { kind: "failed", failure, text };
			if (!done && finishReason === null) return { kind: "failed", failure: chatFailure("malformed_stream", "the stream ended without [DONE] or a finish reason"), text };
			return { kind: "done", text, finishReason, streamed: true };
		}
		// Not an event stream: a server that ignores `stream`, or requestUrl (mobile).
		const piece = pieceOf(raw, false);
		if (piece.kind === "error") return { kind: "failed", failure: failureOfResponse(500, [], raw, now()), text };
		if (piece.kind === "malformed") return { kind: "failed", failure: chatFailure("malformed_stream", `unexpected body: ${raw.slice(0, 200)}`), text };
		options.onDelta?.(piece.text, piece.text);
		return { kind: "done", text: piece.text, finishReason: piece.finishReason, streamed: false };
	} finally {
		clearTimeout(idle);
		options.signal?.removeEventListener("abort", onUserAbort);
	}
}

function isEventStream(head: ResponseHead): boolean {
	const type = head.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
	return /^text\/event-stream/i.test(type.trim());
}
