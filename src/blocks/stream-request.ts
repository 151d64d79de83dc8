/**
 * The request head of the stream kinds (sse, websocket): ```http fences whose request line's
 * first word names a protocol, as the peers write them (JetBrains and kulala `WEBSOCKET`,
 * httpyac `WS`/`WSS`/`SSE`/`EVENTSOURCE`, a bare `ws://` URL). The rest of the head — comments
 * and `# @name`, `@var = value` lines, headers, `??` assertions — is read by the http parser,
 * so a stream block and an http block agree on every line they share. Pure, never throws.
 */
import { parseHttpBlock, type HttpBlock } from "./http";
import type { TokenSpec } from "./kind";
import { isBlank } from "./lines";

export type StreamProtocol = "sse" | "websocket";

const SSE_WORD = /^(sse|eventsource)$/i;
const WS_WORD = /^(websocket|ws|wss)$/i;
const WS_URL = /^wss?:\/\//i;
const GRAPHQL_WORD = /^graphql$/i;
const SUBSCRIPTION = /^[ \t]*subscription\b/;
const LEAD_LINE = /^[ \t]*(#|\/\/|@[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=)/;

/** A `key=N` token: a positive whole number. */
function countToken<K extends string>(key: K, expects: string): TokenSpec<K, number> {
	return { key, form: "value", expects, read: (text) => (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text)) ? Number(text) : undefined) };
}

/** `max_messages=N`: the stream ends once N messages arrived from the server. */
export const maxMessagesToken = countToken("max_messages", "use a positive whole number of messages");
/** `duration=ms`: the stream ends that long after it connected. */
export const durationToken = countToken("duration", "use a positive whole number of milliseconds");

/** What a stream block's alias offers `{{` completion: its messages (docs/streams.md), then the handshake's status. */
export const STREAM_REFERENCES = ["response.messages.count", "response.messages.-1.data", "response.messages.0.data.$.", "response.status"];

/** Index of the request line: the first line that is not blank, a comment or an `@var = value` line; -1 without one. */
function requestLineIndex(lines: readonly string[]): number {
	for (let k = 0; k < lines.length; k++) if (!isBlank(lines[k]) && !LEAD_LINE.test(lines[k])) return k;
	return -1;
}

/** The first word of a line and the rest, trimmed. */
function words(line: string): [string, string] {
	const trimmed = line.trim();
	const space = trimmed.search(/[ \t]/);
	return space === -1 ? [trimmed, ""] : [trimmed.slice(0, space), trimmed.slice(space).trim()];
}

/**
 * The protocol a fence's content asks for, or null for an ordinary http request. GRAPHQL with a
 * `subscription` operation runs over WebSocket (graphql-transport-ws).
 */
export function streamProtocolOf(content: string, given?: readonly string[]): StreamProtocol | null {
	// Most http blocks start with their request line: the first word decides before any split.
	const lines = given ?? content.split("\n");
	const at = requestLineIndex(lines);
	if (at === -1) return null;
	const [first, rest] = words(lines[at]);
	if (SSE_WORD.test(first)) return "sse";
	if (WS_WORD.test(first) || WS_URL.test(first)) return "websocket";
	if (GRAPHQL_WORD.test(first) && WS_URL.test(rest)) return "websocket";
	if (GRAPHQL_WORD.test(first) && lines.some((l, k) => k > at && SUBSCRIPTION.test(l))) return "websocket";
	return null;
}

/** A stream block's request: the head as an http GET (URL as written, its ws scheme written http), and how it was asked. */
export interface StreamRequest {
	/** The head read as `GET <url>`: variables, headers, `# @name`, `??` assertions, body lines, problems. */
	request: HttpBlock;
	/** The first word as written (`SSE`, `WEBSOCKET`, `WSS`…), or null for a bare URL. */
	word: string | null;
	/** A GRAPHQL subscription: the body is the operation, sent over graphql-transport-ws. */
	graphql: boolean;
}

/**
 * Reads a stream block's head. The request line is read as `GET` with its URL's `ws://`/`wss://`
 * written `http://`/`https://` (what the request preparation accepts; the runner dials ws again),
 * so the line keeps its place and every other line is read as in an http block.
 */
export function parseStreamRequest(content: string): StreamRequest {
	const lines = content.split("\n");
	const at = requestLineIndex(lines);
	if (at === -1) return { request: parseHttpBlock(content), word: null, graphql: false };
	const cr = lines[at].endsWith("\r") ? "\r" : "";
	const [first, rest] = words(lines[at].replace(/\r$/, ""));
	const bare = WS_URL.test(first);
	const graphql = GRAPHQL_WORD.test(first);
	const url = bare ? lines[at].trim() : rest;
	const indent = /^[ \t]*/.exec(lines[at])?.[0] ?? "";
	const rewritten = lines.slice();
	rewritten[at] = `${indent}${graphql ? "POST" : "GET"} ${asHttpScheme(url, /^wss$/i.test(first))}${cr}`;
	const request = parseHttpBlock(rewritten.join("\n"));
	if (graphql) request.method = "GRAPHQL";
	return { request, word: bare ? null : first, graphql };
}

/** `ws://` → `http://`, `wss://` → `https://`; a URL with no scheme after `WSS` is https. Templates (`{{base}}/x`) stay as written. */
function asHttpScheme(url: string, secure: boolean): string {
	if (/^ws:\/\//i.test(url)) return `http://${url.slice(5)}`;
	if (/^wss:\/\//i.test(url)) return `https://${url.slice(6)}`;
	if (secure && url && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith("{{")) return `https://${url}`;
	return url;
}
