/**
 * Text of a response body in the charset it declares (WHATWG encoding labels, as browsers read
 * them: `iso-8859-1` and `latin1` decode as windows-1252, `shift_jis`, `utf-16`…). A byte-order
 * mark wins over the header; without either, UTF-8. The panel, `--json`, references and exports
 * all decode through here (`responseText` in content-type.ts), so they show the same text.
 */
/** The encoding a BOM announces, or null. */
export function bomEncoding(body: Uint8Array): string | null {
	if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
	if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
	if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
	return null;
}

/** The WHATWG name of a charset label, or null when the label is unknown. */
export function encodingOfLabel(label: string): string | null {
	try {
		return new TextDecoder(label.trim()).encoding;
	} catch {
		return null;
	}
}

/**
 * The encoding to decode a body with: its BOM (for text: `sniffBom`), then the declared charset,
 * then UTF-8.
 */
export function bodyEncoding(declaredCharset: string | null, body: Uint8Array, sniffBom = true): string {
	return (sniffBom ? bomEncoding(body) : null) ?? (declaredCharset ? encodingOfLabel(declaredCharset) : null) ?? "utf-8";
}

/** WHATWG windows-1252 for 0x80–0x9F (the rest is latin-1: byte value = code point). */
const CP1252_HIGH = [
	0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
	0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

let nativeCp1252: boolean | null = null;

/**
 * Node before 22 decodes windows-1252 (also the label of iso-8859-1 and latin1) as latin-1 and
 * drops 0x80–0x9F; Chromium does not. Probed once; where it is wrong, decoded by the table.
 */
function cp1252Broken(): boolean {
	nativeCp1252 ??= new TextDecoder("windows-1252").decode(Uint8Array.of(0x80)) === "\u20ac";
	return !nativeCp1252;
}

function decodeCp1252(body: Uint8Array): string {
	let out = "";
	for (let i = 0; i < body.length; i += 8192) {
		const chunk = Array.from(body.subarray(i, i + 8192), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : b));
		out += String.fromCharCode(...chunk);
	}
	return out;
}

/** Decodes in `encoding`; invalid sequences become U+FFFD. The BOM is not part of the text. */
export function decodeText(body: Uint8Array, encoding: string): string {
	if (encoding === "windows-1252" && cp1252Broken()) return decodeCp1252(body);
	return new TextDecoder(encoding).decode(body);
}

/** Decodes in `encoding`, or null when the bytes are not valid in it (the caller keeps them as bytes). */
export function decodeExact(body: Uint8Array, encoding: string): string | null {
	// Every byte is a character in windows-1252: nothing to refuse.
	if (encoding === "windows-1252") return decodeText(body, encoding);
	try {
		return new TextDecoder(encoding, { fatal: true }).decode(body);
	} catch {
		return null;
	}
}
