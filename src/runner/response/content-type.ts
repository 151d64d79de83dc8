import { bodyEncoding, decodeText } from "./charset";

/** How the Body tab shows a response. */
export type BodyKind = "json" | "xml" | "html" | "svg" | "javascript" | "css" | "text" | "image" | "binary" | "empty";

export interface BodyType {
	kind: BodyKind;
	/** Media type without parameters, lower-cased ("" when absent). */
	mime: string;
	/** The encoding its text is decoded with (WHATWG name: BOM, declared charset, else utf-8). */
	charset: string;
}

/** Raster images shown inline through a blob: URL. SVG is deliberately not one of them: it is shown as code. */
const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif", "image/x-icon", "image/vnd.microsoft.icon"]);

export function headerValue(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
	const lower = name.toLowerCase();
	return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** Splits `text/html; charset=UTF-8` into a lower-cased media type and its charset. */
export function parseContentType(value: string | undefined): { mime: string; charset: string | null } {
	if (!value) return { mime: "", charset: null };
	const [type, ...params] = value.split(";");
	let charset: string | null = null;
	for (const p of params) {
		const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
		if (m) charset = m[1].toLowerCase();
	}
	return { mime: type.trim().toLowerCase(), charset };
}

/** True when the bytes are not plausible text: a NUL byte, or invalid UTF-8, in the first 8 KiB. */
export function looksBinary(bytes: Uint8Array): boolean {
	const sample = bytes.subarray(0, 8192);
	if (sample.includes(0)) return true;
	try {
		// A multi-byte sequence cut at the sample edge is not a reason to call it binary.
		new TextDecoder("utf-8", { fatal: true }).decode(sample.byteLength === bytes.byteLength ? sample : trimPartial(sample));
		return false;
	} catch {
		return true;
	}
}

function trimPartial(bytes: Uint8Array): Uint8Array {
	let end = bytes.byteLength;
	let back = 0;
	while (end > 0 && back < 3 && (bytes[end - 1] & 0xc0) === 0x80) {
		end--;
		back++;
	}
	if (end > 0 && bytes[end - 1] >= 0xc0) end--;
	return bytes.subarray(0, end);
}

function kindOfMime(mime: string): BodyKind | null {
	if (mime === "image/svg+xml") return "svg";
	if (INLINE_IMAGES.has(mime)) return "image";
	if (mime === "application/json" || mime.endsWith("+json") || mime === "application/x-ndjson" || mime === "text/json") return "json";
	if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
	if (mime === "application/xml" || mime === "text/xml" || mime.endsWith("+xml")) return "xml";
	if (mime === "application/javascript" || mime === "text/javascript" || mime === "application/ecmascript") return "javascript";
	if (mime === "text/css") return "css";
	if (mime.startsWith("text/") || mime === "application/x-www-form-urlencoded") return "text";
	return null;
}

/** True when text decoded from a non-UTF-8 charset holds control bytes no text has (NUL). */
function hasNul(bytes: Uint8Array): boolean {
	return bytes.subarray(0, 65536).includes(0);
}

/**
 * Whether a body is binary, judged in its own encoding: UTF-8 (declared or not) by validity and
 * NUL bytes; UTF-16 never (NULs are half its ASCII); other declared charsets (every byte is a
 * character in them) by NUL bytes only.
 */
function binaryIn(encoding: string, body: Uint8Array): boolean {
	if (encoding === "utf-8") return looksBinary(body);
	if (encoding.startsWith("utf-16")) return false;
	return hasNul(body);
}

/** Decides how to show a body from its Content-Type and charset, falling back to sniffing the decoded text. */
export function classifyBody(headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array): BodyType {
	const { mime, charset: declared } = parseContentType(headerValue(headers, "content-type"));
	const kind = kindOfMime(mime);
	// A byte-order mark means text only where text is expected: FF FE can start any binary file.
	const charset = bodyEncoding(declared, body, kind !== null || mime === "");
	if (body.byteLength === 0) return { kind: "empty", mime, charset };
	if (kind === "image") return { kind: "image", mime, charset };
	if (binaryIn(charset, body)) return { kind: "binary", mime, charset };
	if (kind && kind !== "text") return { kind, mime, charset };
	if (kind === "text" || mime === "") {
		const start = decodeText(body.subarray(0, 512), charset).trimStart();
		if (/^[[{]/.test(start)) return { kind: "json", mime, charset };
		if (/^<svg[\s>]/i.test(start)) return { kind: "svg", mime, charset };
		if (/^<(!doctype html|html)[\s>]/i.test(start)) return { kind: "html", mime, charset };
		if (/^<\?xml/i.test(start)) return { kind: "xml", mime, charset };
	}
	return { kind: "text", mime, charset };
}

/** The body's text as every consumer sees it (references, --json, Raw tab, the panel): in its charset. */
export function responseText(headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array | undefined): string {
	return body ? decodeText(body, classifyBody(headers, body).charset) : "";
}
