import { aliasToken, enumToken } from "./info";
import { defineKind, type TokenSpec, type TokensOf } from "./kind";
import { normalizeJson } from "./json-normalize";
import { editorText } from "./lines";

/**
 * The ```` ```http-response alias=<alias> ```` fence: a response pinned under the http block
 * `alias` names (docs/pins.md). It is read and shown, never run. Its content, as the pin writes it:
 *
 *     HTTP/1.1 200 OK
 *     content-type: application/json
 *
 *     { …the body, pretty-printed… }
 *     [cut at 65536 of 10485760 bytes]
 *
 * The status line, the chosen headers (lower-cased names), a blank line and the body; the last
 * line is the marker when the body was cut. Without a body there is no blank line.
 */
export interface PinnedResponse {
	/** The first line as written (`HTTP/1.1 200 OK`). */
	statusLine: string;
	/** The status code of the status line, or null when it has none. */
	status: number | null;
	headers: Array<[string, string]>;
	/** The body as written in the pin (pretty-printed, perhaps cut); "" without one. */
	body: string;
	/** Bytes of the response body the pin shows and the body's whole size, when it was cut. */
	cut: { shown: number; total: number } | null;
}

const STATUS_LINE = /^HTTP\/\d(?:\.\d)?[ \t]+(\d{3})\b/;
const CUT_MARKER = /^\[cut at (\d+) of (\d+) bytes\]$/;

/** The marker line that ends a cut body. */
export function cutMarker(shown: number, total: number): string {
	return `[cut at ${shown} of ${total} bytes]`;
}

/** Reads a pinned response's content. Pure, never throws: what is not a header is body. */
export function parsePinnedResponse(content: string): PinnedResponse {
	const lines = editorText(content).split("\n");
	const statusLine = lines[0] ?? "";
	const m = STATUS_LINE.exec(statusLine);
	const headers: Array<[string, string]> = [];
	let k = 1;
	for (; k < lines.length && lines[k] !== ""; k++) {
		const colon = lines[k].indexOf(":");
		if (colon <= 0) break;
		headers.push([lines[k].slice(0, colon).trim(), lines[k].slice(colon + 1).trim()]);
	}
	let bodyLines = lines.slice(k + 1);
	const marker = bodyLines.length > 0 ? CUT_MARKER.exec(bodyLines[bodyLines.length - 1]) : null;
	if (marker) bodyLines = bodyLines.slice(0, -1);
	return {
		statusLine,
		status: m ? Number(m[1]) : null,
		headers,
		body: bodyLines.join("\n"),
		cut: marker ? { shown: Number(marker[1]), total: Number(marker[2]) } : null,
	};
}

/**
 * A pin as it is compared (Compare with pinned, `run --check-pins`): the status line down to its
 * code (transports differ in the reason phrase they report), line breaks as "\n" and a whole JSON
 * body with sorted keys, so key order and layout are not changes.
 */
export function comparablePin(content: string): string {
	const pin = parsePinnedResponse(content);
	const json = pin.cut === null && pin.body !== "" ? normalizeJson(pin.body) : null;
	const lines = [pin.status === null ? pin.statusLine : `HTTP ${pin.status}`, ...pin.headers.map(([n, v]) => `${n.toLowerCase()}: ${v}`)];
	if (pin.body !== "" || pin.cut) lines.push("", json?.ok ? json.text : pin.body);
	if (pin.cut) lines.push(cutMarker(pin.cut.shown, pin.cut.total));
	return lines.join("\n");
}

/** 64 KiB: the body bytes a pin keeps when its fence says no other `cut=`. */
export const DEFAULT_PIN_CUT = 65536;

const SIZE = /^(\d+)([kKmM]?)$/;

/** `cut=65536`, `cut=64k`, `cut=1m`: the body bytes the pin keeps (k = 1024, m = 1024²). */
const cutToken: TokenSpec<"cut", number> = {
	key: "cut",
	form: "value",
	expects: "use a positive number of bytes, such as 65536, 64k or 1m",
	read: (text) => {
		const m = SIZE.exec(text);
		if (!m) return undefined;
		const n = Number(m[1]) * (m[2] === "" ? 1 : m[2].toLowerCase() === "k" ? 1024 : 1048576);
		return n > 0 && Number.isSafeInteger(n) ? n : undefined;
	},
};

/** `headers=content-type,etag` (names, comma-separated) or `headers=*` (all): the headers the pin keeps. */
const headersToken: TokenSpec<"headers", string> = {
	key: "headers",
	form: "value",
	expects: "use header names separated by commas, or * for all",
	read: (text) => (/^(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+)(,(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*$/.test(text) ? text.toLowerCase() : undefined),
};

/** The http-response info tokens, in canonical order (docs/pins.md). `alias=` names the pinned block. */
export const HTTP_RESPONSE_TOKENS = [aliasToken, headersToken, cutToken, enumToken("normalize", ["json"])] as const;

export type HttpResponseTokens = TokensOf<typeof HTTP_RESPONSE_TOKENS>;

/** What a pin's fence asks of the text written into it. */
export interface PinOptions {
	/** Header names (lower-case) to keep, `*` for all; null: content-type and those the block's assertions read. */
	headers: readonly string[] | null;
	/** Body bytes kept before the cut marker. */
	cut: number;
	/** JSON bodies written with sorted keys (`normalize=json`); else in the server's order. */
	normalize: boolean;
}

export function pinOptions(tokens: HttpResponseTokens): PinOptions {
	return { headers: tokens.headers?.split(",") ?? null, cut: tokens.cut ?? DEFAULT_PIN_CUT, normalize: tokens.normalize === "json" };
}

/** The http-response kind: a pinned response, shown read-only, never run. */
export const httpResponseKind = defineKind({
	language: "http-response",
	tokens: HTTP_RESPONSE_TOKENS,
	// `alias=` names the block the response belongs to: it is not this fence's alias.
	aliasNamesAnother: true,
	parse: (content) => ({ model: parsePinnedResponse(content), problems: [], alias: null }),
});
