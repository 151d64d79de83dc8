import { cutMarker, normalizeJson, parseAssertion, parseInfo, pinnedFenceOf, pinOptions, HTTP_RESPONSE_TOKENS, type HttpNoteBlock, type PinOptions } from "../../blocks";
import type { ResponseHead } from "../transport";
import { maskSecrets } from "../mask-secrets";
import { classifyBody } from "./content-type";
import { decodeText } from "./charset";
import { formatBytes } from "./format";
import { prettyJson } from "./pretty-json";

/** What a pin is written from: a finished response and the block it belongs to. */
export interface PinSource {
	head: ResponseHead;
	body: Uint8Array | undefined;
	/** The block's `??` lines: the headers they read are pinned by default. */
	assertions: ReadonlyArray<{ text: string }>;
	/** Values masked as history masks them (the environment's secrets, auth tokens). */
	secrets: readonly string[];
}

/**
 * The content of a pinned fence for a response (editor text, "\n" breaks; docs/pins.md): the
 * status line, the chosen headers with lower-cased names in wire order, a blank line and the
 * body. The body is cut to `options.cut` bytes before it is decoded, so a 10 MB response costs
 * what its first 64 KiB cost; JSON is pretty-printed only when it is whole (a cut JSON text is
 * kept as it came), with sorted keys under `normalize`. No time or duration: a pin changes only
 * when the response does.
 */
export function pinText(source: PinSource, options: PinOptions): string {
	const { head, body } = source;
	const keep = keptHeaders(options.headers, source.assertions);
	const lines = [`HTTP/${head.httpVersion || "1.1"} ${head.status}${head.statusText ? ` ${head.statusText}` : ""}`];
	for (const [name, value] of head.headers) if (keep === "*" || keep.has(name.toLowerCase())) lines.push(`${name.toLowerCase()}: ${value}`);
	if (body && body.byteLength > 0) lines.push("", ...bodyLines(head, body, options));
	return maskSecrets(lines.join("\n"), source.secrets);
}

function bodyLines(head: ResponseHead, body: Uint8Array, options: PinOptions): string[] {
	const type = classifyBody(head.headers, body);
	if (type.kind === "binary" || type.kind === "image") return [`(${type.kind} body, ${type.mime || "no type"}, ${formatBytes(body.byteLength)})`];
	const cut = body.byteLength > options.cut;
	const bytes = cut ? body.subarray(0, textBoundary(body, options.cut, type.charset)) : body;
	let text = decodeText(bytes, type.charset);
	if (!cut && type.kind === "json") {
		const sorted = options.normalize ? normalizeJson(text) : null;
		text = sorted?.ok ? sorted.text : prettyJson(text);
	}
	const out = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
	if (cut) out.push(cutMarker(bytes.byteLength, body.byteLength));
	return out;
}

/** `end`, moved back so that no character is split: UTF-8 off its continuation bytes, UTF-16 to an even count. */
function textBoundary(body: Uint8Array, end: number, charset: string): number {
	if (charset.startsWith("utf-16")) return end - (end % 2);
	if (charset !== "utf-8") return end;
	let at = end;
	while (at > 0 && end - at < 4 && (body[at] & 0xc0) === 0x80) at--;
	return at;
}

/** The header names a pin keeps: those asked, else content-type and every header a `??` line reads. */
function keptHeaders(asked: readonly string[] | null, assertions: ReadonlyArray<{ text: string }>): Set<string> | "*" {
	if (asked?.includes("*")) return "*";
	if (asked) return new Set(asked);
	const names = new Set(["content-type"]);
	for (const a of assertions) {
		const parsed = parseAssertion(a.text);
		if (parsed.ok && parsed.assertion.subject.kind === "header") names.add(parsed.assertion.subject.name.toLowerCase());
	}
	return names;
}

/**
 * The pin of `block` for a response, under the options its pinned fence in `note` names (the
 * defaults when it has none yet): what Pin response and `run --pin` write, and what Compare with
 * pinned and `--check-pins` hold against the pin.
 */
export function pinFor(note: string, block: HttpNoteBlock, response: { head: ResponseHead; body: Uint8Array | undefined }, secrets: readonly string[]): string {
	const pin = pinnedFenceOf(note, block);
	const options = pinOptions(pin ? parseInfo(pin.info, HTTP_RESPONSE_TOKENS).tokens : {});
	return pinText({ head: response.head, body: response.body, assertions: block.http.assertions, secrets }, options);
}
