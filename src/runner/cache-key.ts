import { hashes } from "./hashes";
import type { PreparedRequest } from "./request";

/**
 * The URL with its query parameters sorted (by name, then value) and encoded one way,
 * so `?b=2&a=1` and `?a=1&b=2`, or `a b` and `a%20b`, give the same key.
 */
export function canonicalUrl(url: string): string {
	const u = new URL(url);
	const params = [...u.searchParams.entries()].sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
	u.hash = "";
	u.search = "";
	return `${u.href}${query ? `?${query}` : ""}`;
}

/**
 * SHA-256 cache key (docs/architecture.md) over: method; canonical URL; headers sorted with names
 * lower-cased; body; and the snapshot of only the environment variables the block references.
 * The parts are framed as JSON, so no two different inputs can concatenate to the same text.
 */
export function cacheKey(request: Pick<PreparedRequest, "method" | "url" | "headers" | "body" | "bodyBytes">, env: Readonly<Record<string, string>>): string {
	const headers = request.headers.map(([n, v]) => [n.toLowerCase(), v] as const).sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	const snapshot = Object.keys(env)
		.sort()
		.map((k) => [k, env[k]]);
	const { bytesToHex, sha256, utf8ToBytes } = hashes();
	// A body with `< file` parts is keyed by the bytes read, so an edited file is a new key.
	const body = request.bodyBytes ? `sha256:${bytesToHex(sha256(request.bodyBytes))}` : request.body;
	const framed = JSON.stringify([request.method, canonicalUrl(request.url), headers, body, snapshot]);
	return bytesToHex(sha256(utf8ToBytes(framed)));
}
