/** The request methods an http block may use (DESIGN.md §3). */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Methods whose responses may be served from the cache; the others always hit the network. */
export const CACHEABLE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["GET", "HEAD", "OPTIONS"]);

/** Returns the canonical (uppercase) method for a case-insensitive spelling, or null. */
export function normalizeMethod(word: string): HttpMethod | null {
	const upper = word.toUpperCase();
	return (HTTP_METHODS as readonly string[]).includes(upper) ? (upper as HttpMethod) : null;
}
