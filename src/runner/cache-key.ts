import { hashes } from "./hashes";
import type { PreparedRequest } from "./request";

/**
 * The URL with its query parameters sorted (by name, then value) and encoded one way,
 * so `?b=2&a=1` and `?a=1&b=2`, or `a b` and `a%20b`, give the same key.
 */
export function canonicalUrl(url: string): string {
	const known = recentCanonical.get(url);
	if (known !== undefined) return known;
	const canonical = canonicalOf(url);
	if (recentCanonical.size >= RECENT_CANONICAL) recentCanonical.clear();
	recentCanonical.set(url, canonical);
	return canonical;
}

/**
 * Recent answers of canonicalUrl. A write compares the URL of every cached entry with its own, so
 * without them a run of n blocks parses O(n²) URLs (~15 % of a 200-block CLI run's request time).
 */
const recentCanonical = new Map<string, string>();
const RECENT_CANONICAL = 1024;

function canonicalOf(url: string): string {
	const u = new URL(url);
	const params = [...u.searchParams.entries()].sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
	u.hash = "";
	u.search = "";
	return `${u.href}${query ? `?${query}` : ""}`;
}

/**
 * SHA-256 cache key (docs/architecture.md) over: method; canonical URL; headers sorted with names
 * lower-cased; body; the snapshot of only the environment variables the block references; and
 * the files of a client certificate the block names.
 * The parts are framed as JSON, so no two different inputs can concatenate to the same text.
 */
export function cacheKey(request: Pick<PreparedRequest, "method" | "url" | "headers" | "body" | "bodyBytes" | "clientCert">, env: Readonly<Record<string, string>>): string {
	const headers = request.headers.map(([n, v]) => [n.toLowerCase(), v] as const).sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	const snapshot = Object.keys(env)
		.sort()
		.map((k) => [k, env[k]]);
	const { bytesToHex, sha256, utf8ToBytes } = hashes();
	// A body with `< file` parts is keyed by the bytes read, so an edited file is a new key.
	const body = request.bodyBytes ? `sha256:${bytesToHex(sha256(request.bodyBytes))}` : request.body;
	// A server may answer each client certificate differently: one named by the block is part of the key (its files, not its passphrase).
	const cert = request.clientCert;
	const framed = JSON.stringify([request.method, canonicalUrl(request.url), headers, body, snapshot, ...(cert ? [[cert.cert ?? null, cert.key ?? null, cert.pfx ?? null]] : [])]);
	return bytesToHex(sha256(utf8ToBytes(framed)));
}
