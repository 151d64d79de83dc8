/** Why a chat request did not give an answer: one code per state the panel shows (docs/chat.md). */
export type ChatFailureCode =
	| "connection_refused" // nothing listens at base_url (Ollama not started)
	| "unauthorized" // 401/403: missing or wrong API key
	| "model_not_found" // the server does not have the model
	| "endpoint_not_found" // 404 that is not about a model: base_url is not an OpenAI-compatible API
	| "context_too_long" // the conversation and context exceed the model's window
	| "rate_limited" // 429, with Retry-After when the server gives it
	| "malformed_stream" // the body is not the SSE/JSON of chat completions
	| "interrupted" // the connection closed before the answer ended
	| "timeout"
	| "invalid_url"
	| "server_error"; // any other status

export interface ChatFailure {
	code: ChatFailureCode;
	/** English text, written once per code; the panel shows its own translation of the code. */
	message: string;
	/** What the server or the socket said. */
	detail: string;
	/** HTTP status, when there was a response. */
	status?: number;
	/** Seconds to wait before retrying (rate_limited with Retry-After). */
	retryAfterSeconds?: number;
}

const TEXT: Record<ChatFailureCode, string> = {
	connection_refused: "Could not connect to the chat server. Is Ollama running?",
	unauthorized: "The server refused the API key",
	model_not_found: "The server does not have this model",
	endpoint_not_found: "No chat API at this base URL (it usually ends in /v1)",
	context_too_long: "The message and its context are longer than the model accepts",
	rate_limited: "Rate limited by the server",
	malformed_stream: "The server's answer is not a chat-completions response",
	interrupted: "The connection closed before the answer ended",
	timeout: "The server did not answer in time",
	invalid_url: "The chat base URL is not valid",
	server_error: "The server answered with an error",
};

export function chatFailure(code: ChatFailureCode, detail: string, extra: Pick<ChatFailure, "status" | "retryAfterSeconds"> = {}): ChatFailure {
	return { code, message: TEXT[code], detail, ...extra };
}

/** The message and code an OpenAI-compatible server puts in an error body, whatever its dialect. */
export function errorOfBody(body: string): { message: string; code: string } {
	try {
		const json = JSON.parse(body) as unknown;
		if (typeof json === "object" && json !== null) {
			const root = json as Record<string, unknown>;
			const inner = typeof root.error === "object" && root.error !== null ? (root.error as Record<string, unknown>) : root;
			const message = typeof root.error === "string" ? root.error : typeof inner.message === "string" ? inner.message : body;
			const code = [inner.code, inner.type].find((c): c is string => typeof c === "string") ?? "";
			return { message, code };
		}
	} catch {
		// Not JSON: the body itself is the message.
	}
	return { message: body.trim().slice(0, 500), code: "" };
}

const CONTEXT = /context[_ ](length|size|window)|maximum context|too many tokens|exceeds? the (available )?context|prompt is too long/i;

/**
 * The failure an HTTP error response stands for. `now` (ms since epoch) turns a Retry-After date
 * into seconds.
 */
export function failureOfResponse(status: number, headers: ReadonlyArray<[string, string]>, body: string, now: number): ChatFailure {
	const { message, code } = errorOfBody(body);
	const detail = `HTTP ${status}${message ? `: ${message}` : ""}`;
	if (status === 401 || status === 403) return chatFailure("unauthorized", detail, { status });
	if (status === 429) {
		const after = retryAfter(headers, now);
		return chatFailure("rate_limited", detail, { status, ...(after !== undefined ? { retryAfterSeconds: after } : {}) });
	}
	if (code === "model_not_found" || (status === 404 && /model/i.test(message))) return chatFailure("model_not_found", detail, { status });
	if (status === 404) return chatFailure("endpoint_not_found", detail, { status });
	if (status === 413 || code === "context_length_exceeded" || code === "exceed_context_size_error" || CONTEXT.test(message)) return chatFailure("context_too_long", detail, { status });
	return chatFailure("server_error", detail, { status });
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfter(headers: ReadonlyArray<[string, string]>, now: number): number | undefined {
	const value = headers.find(([n]) => n.toLowerCase() === "retry-after")?.[1].trim();
	if (!value) return undefined;
	if (/^\d+$/.test(value)) return Number(value);
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
