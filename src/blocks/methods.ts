/**
 * The request methods an http block may use (docs/blocks.md): the basic set, TRACE and CONNECT,
 * WebDAV (RFC 4918, 3253 versioning, 5323 SEARCH) and GRAPHQL, as the peers accept them
 * (httpyac's examples/formats/httpMethods.http lists the same words).
 */
export const BASIC_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export const HTTP_METHODS = [
	...BASIC_METHODS,
	"TRACE",
	"CONNECT",
	"PROPFIND",
	"PROPPATCH",
	"MKCOL",
	"COPY",
	"MOVE",
	"LOCK",
	"UNLOCK",
	"REPORT",
	"SEARCH",
	"CHECKOUT",
	"CHECKIN",
	"MERGE",
	"MKACTIVITY",
	"MKWORKSPACE",
	"VERSION-CONTROL",
	"BASELINE-CONTROL",
	"GRAPHQL",
] as const;

export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * What a method picker lists: the everyday methods, plus the block's own when it is one of
 * the rarer ones (a WebDAV PROPFIND stays selectable; 25 entries would bury GET and POST).
 */
export function pickerMethods(current: HttpMethod | null | undefined): HttpMethod[] {
	const basic: HttpMethod[] = [...BASIC_METHODS];
	return current && !basic.includes(current) ? [...basic, current] : basic;
}

/** Methods that do not change the server (RFC 9110 "safe"): `# @poll` repeats only these without `unsafe`. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** Methods whose responses may be served from the cache; the others always hit the network. */
export const CACHEABLE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["GET", "HEAD", "OPTIONS"]);

/** A set, not `includes`: every request line asks, and a hash lookup is one step even before the JIT warms up. */
const METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);

/** Returns the canonical (uppercase) method for a case-insensitive spelling, or null. */
export function normalizeMethod(word: string): HttpMethod | null {
	const upper = word.toUpperCase();
	return METHOD_SET.has(upper) ? (upper as HttpMethod) : null;
}


/** The method on the wire: GRAPHQL is a POST with a JSON body (httpyac, kulala). */
export function wireMethod(method: HttpMethod): HttpMethod {
	return method === "GRAPHQL" ? "POST" : method;
}
