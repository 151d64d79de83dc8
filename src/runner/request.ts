import type { HttpMethod } from "../blocks/methods";

/** Default block timeout (DESIGN.md §3), milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30000;
/** Response body cap (DESIGN.md §4): 100 MB. Above it the run fails with `[body_too_large]`. */
export const MAX_BODY_BYTES = 104857600;
/** Redirects followed at most, unless the block says `# @no-redirect`. */
export const MAX_REDIRECTS = 10;

/**
 * A request ready for the wire: every `{{...}}` reference already resolved.
 * It is what transports send, what the cache keys, and what exporters print.
 */
export interface PreparedRequest {
	method: HttpMethod;
	/** Absolute http(s) URL. */
	url: string;
	/** Header lines in the order written; a name may repeat. */
	headers: Array<[string, string]>;
	/** Body text, sent as UTF-8; "" means no body. */
	body: string;
	/** False when the block carries `# @no-redirect`. */
	followRedirects: boolean;
	/** Connect + whole body, milliseconds. */
	timeoutMs: number;
}
