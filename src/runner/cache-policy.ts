/**
 * What the response cache may keep and what a write makes stale, after RFC 9111 where it
 * applies to a notebook cache (which serves only identical GET/HEAD/OPTIONS requests of a note):
 * - `Cache-Control: no-store` on the request or the response: not stored (§5.2.1.5, §5.2.2.5);
 * - a successful unsafe request (POST, PUT, PATCH, DELETE…) invalidates the entries of its target
 *   URL and of the same-origin URLs in its Location and Content-Location (§4.4).
 */
import { CACHEABLE_METHODS } from "../blocks";
import { canonicalUrl } from "./cache-key";
import { headerValue } from "./response/content-type";
import type { PreparedRequest } from "./request";
import type { ResponseHead } from "./transport";

type Headers = ReadonlyArray<readonly [string, string]>;

function hasDirective(headers: Headers, directive: string): boolean {
	const value = headers
		.filter(([n]) => n.toLowerCase() === "cache-control")
		.map(([, v]) => v)
		.join(",");
	return value.split(",").some((d) => d.trim().split("=")[0].toLowerCase() === directive);
}

/** Whether a finished response may be kept in the cache. */
export function storable(request: Pick<PreparedRequest, "headers">, head: Pick<ResponseHead, "headers">): boolean {
	return !hasDirective(request.headers, "no-store") && !hasDirective(head.headers, "no-store");
}

/**
 * The canonical URLs whose cached entries a finished request makes stale: none for safe methods
 * or error statuses; for a successful unsafe one, its URL and the same-origin Location and
 * Content-Location (relative ones resolved against the response URL).
 */
export function invalidatedUrls(request: Pick<PreparedRequest, "method" | "url">, head: Pick<ResponseHead, "status" | "headers" | "url">): string[] {
	if (CACHEABLE_METHODS.has(request.method) || head.status < 200 || head.status >= 400) return [];
	const origin = new URL(head.url || request.url).origin;
	const urls = [request.url];
	for (const name of ["location", "content-location"]) {
		const v = headerValue(head.headers, name);
		if (!v) continue;
		try {
			const u = new URL(v, head.url || request.url);
			if (u.origin === origin) urls.push(u.href);
		} catch {
			// Not a URL: nothing to invalidate.
		}
	}
	return [...new Set(urls.map(canonicalUrl))];
}
